package site

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
	goroot := goRoot(t)

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

func TestRuntimeEditsLetJavaScriptRunWhileMarking(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the runtime for js/wasm and runs it under Node")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("needs Node (apt-get install nodejs)")
	}
	root := moduleRoot(t)
	execJS := filepath.Join(goRoot(t), "lib", "wasm", "wasm_exec_node.js")
	dir := t.TempDir()
	overlay, warning, err := runtimeOverlay(context.Background(), root, dir)
	require.NoError(t, err)
	require.Empty(t, warning)

	run := func(args ...string) string {
		t.Helper()
		bin := filepath.Join(dir, "gcslices.wasm")
		build := exec.Command("go", append(append([]string{"build"}, args...), "-o", bin, "./build/site/testdata/gcslices")...)
		build.Dir = root
		build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		out, err := build.CombinedOutput()
		require.NoError(t, err, "building the test program %v:\n%s", args, out)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		out, err = exec.CommandContext(ctx, node, execJS, bin).CombinedOutput()
		require.NoError(t, err, "the test program %v failed:\n%s", args, out)
		_, result, ok := strings.Cut(string(out), "RESULT ")
		require.True(t, ok, "no result from the test program %v:\n%s", args, out)
		return strings.TrimSpace(result)
	}
	turns := func(result, marking string) (n, assist int) {
		var handler, seen string
		_, err := fmt.Sscanf(result, "turns=%d handler=%s marking=%s assist=%d", &n, &handler, &seen, &assist)
		require.NoError(t, err, result)
		require.Equal(t, "returned", handler, "a handler waiting for a collection returns")
		require.Equal(t, marking, seen, "whether the collector was seen marking during a collection, and after it")
		return n, assist
	}
	edited, editedAssist := turns(run("-overlay", overlay, "-tags", GCSlicesTag), "true,false")
	plain, plainAssist := turns(run(), "false,false")
	require.Zero(t, plainAssist, "without the edits an assist marks in one go")
	require.GreaterOrEqual(t, editedAssist, 5, "with the edits JavaScript runs while an assist waits for the mark workers")
	require.LessOrEqual(t, plain, 2, "without the edits the collector marks 100 MB in one go")
	require.GreaterOrEqual(t, edited, 5, "with the edits JavaScript runs between the collector's slices")
	t.Logf("JavaScript's turns during a collection of 100 MB: %d with the edits, %d without; during an allocation's assist: %d with, %d without", edited, plain, editedAssist, plainAssist)
}

// goRoot is the Go toolchain's GOROOT.
func goRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	require.NoError(t, err)
	return strings.TrimSpace(string(out))
}
