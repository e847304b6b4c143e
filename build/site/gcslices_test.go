package site

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRuntimePatchesApplyToThisGo(t *testing.T) {
	root := moduleRoot(t)
	dir := t.TempDir()
	overlay, warning, err := runtimeOverlay(context.Background(), root, dir)
	require.NoError(t, err)
	require.Empty(t, warning, "runtimePatches must apply to the Go that builds yarnplay")
	data, err := os.ReadFile(overlay)
	require.NoError(t, err)
	var o struct{ Replace map[string]string }
	require.NoError(t, json.Unmarshal(data, &o))

	// Every edit is in the file the overlay puts in the runtime's place.
	byFile := map[string]string{}
	for orig, copyPath := range o.Replace {
		rel := filepath.ToSlash(filepath.Join(filepath.Base(filepath.Dir(orig)), filepath.Base(orig)))
		edited, err := os.ReadFile(copyPath)
		require.NoError(t, err)
		byFile[rel] = string(edited)
	}
	for _, p := range runtimePatches {
		require.Contains(t, byFile, p.file)
		require.Contains(t, byFile[p.file], p.new, "the edit of %s", p.file)
	}
	require.Len(t, o.Replace, 6, "six runtime files are edited")

	// The edited runtime compiles for the browser.
	cmd := exec.Command("go", "build", "-overlay", overlay, "runtime")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "GOOS=js GOARCH=wasm go build -overlay %s runtime:\n%s", overlay, out)
}

func TestRuntimePatchesSayWhichEditNoLongerApplies(t *testing.T) {
	cmd := exec.Command("go", "env", "GOROOT")
	out, err := cmd.Output()
	require.NoError(t, err)
	goroot := strings.TrimSpace(string(out))

	// A Go whose background sweeper has changed.
	src := t.TempDir()
	for _, p := range runtimePatches {
		data, err := os.ReadFile(filepath.Join(goroot, "src", p.file))
		require.NoError(t, err)
		if p.file == "runtime/mgcsweep.go" {
			data = []byte(strings.ReplaceAll(string(data), "sweepBatchSize == 0", "sweepBatchSize == 1"))
		}
		require.NoError(t, os.MkdirAll(filepath.Join(src, "runtime"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(src, p.file), data, 0o644))
	}
	before, err := os.ReadFile(filepath.Join(src, "runtime", "proc.go"))
	require.NoError(t, err)
	_, err = patchRuntime(src, "go1.99.0")
	require.Error(t, err)
	require.Contains(t, err.Error(), "go1.99.0's runtime: the browser build's edit of runtime/mgcsweep.go")
	require.Contains(t, err.Error(), "found it 0 times")
	require.Contains(t, err.Error(), "runtimePatches in build/site/gcslices.go")
	after, err := os.ReadFile(filepath.Join(src, "runtime", "proc.go"))
	require.NoError(t, err)
	require.Equal(t, before, after, "the toolchain's sources are only read, never written")
}
