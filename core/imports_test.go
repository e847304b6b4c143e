package core_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// allowedImports is everything core and the packages under it may import:
// nothing of the browser, the UI, the wall clock, the OS or global randomness.
var allowedImports = map[string]bool{
	"errors": true, "fmt": true, "sort": true, "slices": true, "maps": true, "strings": true,
	"strconv": true, "math": true, "bytes": true, "io": true, "encoding/xml": true,
	"unicode": true, "unicode/utf8": true, "unicode/utf16": true, "cmp": true,
	"yarnplay/core": true, "yarnplay/core/config": true, "yarnplay/core/resource": true,
	"yarnplay/core/preemption": true,
}

func TestCoreImportsOnlyAllowedPackages(t *testing.T) {
	var files []string
	require.NoError(t, filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			files = append(files, path)
		}
		return nil
	}))
	require.NotEmpty(t, files)
	fset := token.NewFileSet()
	for _, f := range files {
		af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		require.NoError(t, err)
		for _, imp := range af.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			require.Truef(t, allowedImports[p], "%s imports %q, which core must not use (no browser, UI, clock, OS or global randomness)", f, p)
		}
	}
}
