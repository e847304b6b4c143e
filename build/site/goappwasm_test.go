package site

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestGoAppPatchesApplyToThePinnedVersion(t *testing.T) {
	root := moduleRoot(t)
	tmp := t.TempDir()
	modFile, err := wasmModFile(context.Background(), root, tmp)
	require.NoError(t, err, "the edits of goAppPatches must apply to the go-app in go.mod")
	mod, err := os.ReadFile(modFile)
	require.NoError(t, err)
	require.Contains(t, string(mod), "replace "+GoAppModule+" => ")

	// The browser build of ./wasm no longer depends on net/http, and the
	// native one of package app still has Handler.
	list := func(goos, goarch string, args ...string) string {
		cmd := exec.Command("go", append([]string{"list"}, args...)...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go list %v:\n%s", args, out)
		return string(out)
	}
	deps := strings.Fields(list("js", "wasm", "-modfile", modFile, "-deps", "./wasm"))
	require.Contains(t, deps, "github.com/maxence-charriere/go-app/v10/pkg/app")
	require.NotContains(t, deps, "net/http")
	require.NotContains(t, deps, "crypto/tls")
	require.NotContains(t, deps, "crypto/aes", "nor on AES, for go-app's Context.Encrypt")
	files := list("js", "wasm", "-modfile", modFile, "-f", "{{.Dir}} {{.GoFiles}}", GoAppModule+"/pkg/app")
	require.NotContains(t, files, " http.go", "http.go must be left out of the browser build")
	require.Contains(t, files, "resource.go")
}

// goAppModule returns go-app's module directory and version.
func goAppModule(t *testing.T) goAppInfo {
	t.Helper()
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}\n{{.Version}}", GoAppModule)
	cmd.Dir = moduleRoot(t)
	out, err := cmd.Output()
	require.NoError(t, err)
	dir, version, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return goAppInfo{Version: version, Dir: dir}
}

func TestGoAppPatchesFailLoudlyWhenGoAppChanges(t *testing.T) {
	src := goAppModule(t).Dir

	dst := t.TempDir()
	require.NoError(t, copyGoApp(src, dst))
	require.FileExists(t, filepath.Join(dst, "go.mod"))
	require.NoFileExists(t, filepath.Join(dst, "pkg", "app", "app_test.go"), "tests are not copied")
	// A go-app whose resource.go no longer has the line an edit removes.
	path := filepath.Join(dst, "pkg", "app", "resource.go")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, []byte(strings.ReplaceAll(string(data), "http.FileServer", "http.NewFileServer")), 0o644))
	err = patchGoApp(dst, "v10.9.9")
	require.Error(t, err)
	require.Contains(t, err.Error(), "go-app v10.9.9: the browser build's edit of pkg/app/resource.go")
	require.Contains(t, err.Error(), "found it 0 times")
	require.Contains(t, err.Error(), "build/site/goappwasm.go")
}

func TestGoAppForWasmReusesItsCopy(t *testing.T) {
	info := goAppModule(t)
	cache := t.TempDir()
	first, err := goAppForWasm(info, cache)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(filepath.Base(first), "go-app-"+info.Version+"-wasm-"), first)
	http, err := os.ReadFile(filepath.Join(first, "pkg", "app", "http.go"))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(http), "//go:build !wasm\n"))
	again, err := goAppForWasm(info, cache)
	require.NoError(t, err)
	require.Equal(t, first, again)
	entries, err := os.ReadDir(cache)
	require.NoError(t, err)
	require.Len(t, entries, 1, "no temporary copies are left behind")
}

func TestGoAppPatchesDoNotOverwriteAFileGoAppHas(t *testing.T) {
	dst := t.TempDir()
	require.NoError(t, copyGoApp(goAppModule(t).Dir, dst))
	// A go-app that has a crypto_wasm.go of its own.
	require.NoError(t, os.WriteFile(filepath.Join(dst, "pkg", "app", "crypto_wasm.go"), []byte("package app\n"), 0o644))
	err := patchGoApp(dst, "v10.9.9")
	require.Error(t, err)
	require.Contains(t, err.Error(), "go-app v10.9.9: the browser build adds pkg/app/crypto_wasm.go, which go-app now has")
}
