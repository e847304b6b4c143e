package site

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// buildSite builds the whole site into dist as `make run` does: app.wasm,
// the pages, the compressed copies.
func buildSite(t *testing.T, root, dist string) {
	t.Helper()
	var goOut bytes.Buffer
	require.NoError(t, BuildWasm(context.Background(), root, dist, &goOut), "building app.wasm:\n%s", goOut.String())
	require.NoError(t, GenerateStatic(root, dist))
	require.NoError(t, Precompress(dist, FastCompression))
}

// served returns what the site in dist serves at path to a browser that
// accepts gzip, decompressed.
func served(t *testing.T, dist, path string) []byte {
	t.Helper()
	srv := httptest.NewServer(Handler(dist))
	defer srv.Close()
	req, err := http.NewRequest(http.MethodGet, srv.URL+path, nil)
	require.NoError(t, err)
	req.Header.Set("Accept-Encoding", "gzip")
	res, err := http.DefaultTransport.RoundTrip(req)
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode, "GET %s", path)
	body := io.Reader(res.Body)
	if res.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(res.Body)
		require.NoError(t, err)
		body = zr
	}
	b, err := io.ReadAll(body)
	require.NoError(t, err)
	return b
}

var (
	tagPattern  = regexp.MustCompile(`<([a-zA-Z][-a-zA-Z0-9]*)((?:\s+[^\s=>/"]+(?:="[^"]*")?)*)\s*(/?)>`)
	attrPattern = regexp.MustCompile(`[^\s=>/"]+(?:="[^"]*")?`)
)

// sameAttributeOrder writes every tag of an HTML page with its attributes
// sorted: go-app writes them in a map's order, which differs from one
// pre-rendering to the next.
func sameAttributeOrder(page []byte) string {
	return tagPattern.ReplaceAllStringFunc(string(page), func(tag string) string {
		m := tagPattern.FindStringSubmatch(tag)
		attrs := attrPattern.FindAllString(m[2], -1)
		slices.Sort(attrs)
		return "<" + strings.Join(append([]string{m[1]}, attrs...), " ") + m[3] + ">"
	})
}

// A second build in the directory of a first (`make run` stopped and run
// again, `make dist` then `make run`, a build after an interrupted one)
// works and serves the same site: the go command must not take the
// threaded binary it finds for its own output and leave it in place.
func TestBuildingTwiceInOneDirectoryServesTheSameSite(t *testing.T) {
	root := moduleRoot(t)
	dist := t.TempDir()
	buildSite(t, root, dist)
	page := sameAttributeOrder(served(t, dist, "/"))
	wasm := served(t, dist, "/web/app.wasm")
	require.True(t, bytes.HasPrefix(wasm, []byte("\x00asm")), "app.wasm is WebAssembly")

	buildSite(t, root, dist)
	require.Equal(t, page, sameAttributeOrder(served(t, dist, "/")), "the second build serves the same page")
	require.Equal(t, wasm, served(t, dist, "/web/app.wasm"), "and the same app.wasm")

	// What an interrupted build could leave: a half-written binary, a
	// stale compressed copy of another, a temporary file never renamed.
	half := WasmPath(dist)
	require.NoError(t, os.WriteFile(half, wasm[:len(wasm)/2], 0o644))
	require.NoError(t, os.WriteFile(half+".gz", []byte("stale"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dist, WebDir, tempPrefix+"app.wasm-1"), []byte("junk"), 0o644))
	buildSite(t, root, dist)
	require.Equal(t, page, sameAttributeOrder(served(t, dist, "/")), "a leftover temporary file changes no version")
	require.Equal(t, wasm, served(t, dist, "/web/app.wasm"), "the build replaces what it finds")
}

func TestWriteFileReplacesWholeAndLeavesNoTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.txt")
	require.NoError(t, os.WriteFile(path, []byte("old contents"), 0o444))
	require.NoError(t, writeFile(path, []byte("new")))
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "new", string(got))
	info, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o644), info.Mode().Perm())
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "only the file itself is left")

	require.Error(t, writeFile(filepath.Join(dir, "missing", "f.txt"), []byte("x")), "a directory that does not exist is an error")
}
