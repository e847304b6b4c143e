package site

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// wasmList runs go list for GOOS=js GOARCH=wasm in the module root.
func wasmList(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Dir = moduleRoot(t)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go list %v:\n%s", args, out)
	return string(out)
}

func TestTrimsApplyToThePinnedVersions(t *testing.T) {
	var warn bytes.Buffer
	modFile, err := wasmModFile(context.Background(), moduleRoot(t), t.TempDir(), trims, &warn)
	require.NoError(t, err)
	require.Empty(t, warn.String(), "every trim must apply to the version go.mod pins")
	mod, err := os.ReadFile(modFile)
	require.NoError(t, err)
	require.Contains(t, string(mod), "replace "+GoAppModule+" => ")
	require.Contains(t, string(mod), "replace "+YAMLModule+" => ")

	// The browser build of ./wasm depends on neither net/http nor crypto;
	// only go-app imports package regexp, for RouteWithRegexp, which
	// yarnplay does not call, so that the linker leaves regexp out.
	var deps, regexpUsers []string
	for _, line := range strings.Split(strings.TrimSpace(wasmList(t, "-modfile", modFile, "-deps", "-f", "{{.ImportPath}} {{.Imports}}", "./wasm")), "\n") {
		pkg, imports, _ := strings.Cut(line, " ")
		deps = append(deps, pkg)
		if slices.Contains(strings.Fields(strings.Trim(imports, "[]")), "regexp") {
			regexpUsers = append(regexpUsers, pkg)
		}
	}
	require.Contains(t, deps, GoAppModule+"/pkg/app")
	require.Contains(t, deps, YAMLModule)
	for _, gone := range []string{"net/http", "crypto/tls", "crypto/aes", "crypto/rand", "crypto/sha1", "github.com/google/uuid"} {
		require.NotContains(t, deps, gone)
	}
	require.Equal(t, []string{GoAppModule + "/pkg/app"}, regexpUsers)
	// The trimmed copies compile for the browser, each at its go.mod's
	// language version (yaml.v3's is Go 1.16).
	build := exec.Command("go", "build", "-modfile", modFile, GoAppModule+"/pkg/app", YAMLModule)
	build.Dir = moduleRoot(t)
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "the trimmed dependencies do not compile:\n%s", out)
	files := wasmList(t, "-modfile", modFile, "-f", "{{.Dir}} {{.GoFiles}}", GoAppModule+"/pkg/app")
	require.NotContains(t, files, " http.go", "http.go must be left out of the browser build")
	require.Contains(t, files, "resource.go")
	require.Contains(t, files, "yarnplay_uuid.go")
}

// moduleOf returns what go list says of one module of the build.
func moduleOf(t *testing.T, module string) moduleInfo {
	t.Helper()
	infos, err := listModules(context.Background(), moduleRoot(t), []string{module})
	require.NoError(t, err)
	return infos[module]
}

func TestATrimThatNoLongerAppliesIsLeftOutWithAWarning(t *testing.T) {
	// A go-app whose resource.go no longer has a line an edit removes.
	changed := goAppTrim
	changed.patches = slices.Clone(goAppTrim.patches)
	changed.patches[2].old = strings.ReplaceAll(changed.patches[2].old, "http.FileServer", "http.NewFileServer")
	_, err := changed.copyIn(moduleOf(t, GoAppModule), t.TempDir())
	require.Error(t, err)
	require.Contains(t, err.Error(), GoAppModule+" v10.1.11: the browser build's edit of pkg/app/resource.go")
	require.Contains(t, err.Error(), "found it 0 times")

	// The build goes on without that trim, saying so, and keeps the
	// others.
	var warn bytes.Buffer
	modFile, err := wasmModFile(context.Background(), moduleRoot(t), t.TempDir(), []trim{changed, yamlTrim}, &warn)
	require.NoError(t, err)
	require.Contains(t, warn.String(), "warning: "+GoAppModule+" v10.1.11: the browser build's edit of pkg/app/resource.go")
	require.Contains(t, warn.String(), "app.wasm is built with the plain "+GoAppModule)
	mod, err := os.ReadFile(modFile)
	require.NoError(t, err)
	require.NotContains(t, string(mod), "replace "+GoAppModule)
	require.Contains(t, string(mod), "replace "+YAMLModule+" => ")
}

func TestATrimIsMadeForOneVersion(t *testing.T) {
	other := yamlTrim
	other.version = "v3.0.5"
	var warn bytes.Buffer
	modFile, err := wasmModFile(context.Background(), moduleRoot(t), t.TempDir(), []trim{other}, &warn)
	require.NoError(t, err)
	require.Contains(t, warn.String(), "go.mod asks for "+YAMLModule+" v3.0.6, and the browser build's trim of it is made for v3.0.5")
	mod, err := os.ReadFile(modFile)
	require.NoError(t, err)
	require.NotContains(t, string(mod), "replace "+YAMLModule)
}

func TestATrimsCopyIsReused(t *testing.T) {
	info := moduleOf(t, GoAppModule)
	cache := t.TempDir()
	first, err := goAppTrim.copyIn(info, cache)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(filepath.Base(first), "github.com_maxence-charriere_go-app_v10@"+info.Version+"-wasm-"), first)
	http, err := os.ReadFile(filepath.Join(first, "pkg", "app", "http.go"))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(http), "//go:build !wasm\n"))
	require.FileExists(t, filepath.Join(first, "pkg", "app", "yarnplay_uuid.go"))
	require.NoFileExists(t, filepath.Join(first, "pkg", "app", "yarnplay_uuid_test.go"), "tests are not added")
	require.NoFileExists(t, filepath.Join(first, "pkg", "app", "app_test.go"), "tests are not copied")
	again, err := goAppTrim.copyIn(info, cache)
	require.NoError(t, err)
	require.Equal(t, first, again)
	entries, err := os.ReadDir(cache)
	require.NoError(t, err)
	require.Len(t, entries, 1, "no temporary copies are left behind")
}

func TestATrimDoesNotOverwriteAFileTheModuleHas(t *testing.T) {
	info := moduleOf(t, YAMLModule)
	dst := t.TempDir()
	require.NoError(t, copyModule(info.Dir, dst, yamlTrim.keep))
	require.FileExists(t, filepath.Join(dst, "resolve.go"))
	require.NoFileExists(t, filepath.Join(dst, "decode_test.go"))
	// A yaml.v3 that has a yarnplay_floats.go of its own.
	require.NoError(t, os.WriteFile(filepath.Join(dst, "yarnplay_floats.go"), []byte("package yaml\n"), 0o644))
	added, err := yamlTrim.added()
	require.NoError(t, err)
	require.Contains(t, added, "yarnplay_floats.go")
	err = yamlTrim.apply(dst, info.Version, added)
	require.Error(t, err)
	require.Contains(t, err.Error(), YAMLModule+" v3.0.6: the browser build adds ./yarnplay_floats.go, which the module has")
}

// The browser build's go-app mounts no raw HTML and has no states
// (goAppTrim): no package of yarnplay's in it calls app.Raw or a go-app
// state's function.
func TestTheBrowserBuildCallsNoTrimmedFeature(t *testing.T) {
	// Each call's feature is left out of the browser build's go-app
	// (build/site/trims.go): raw HTML does not mount there (draw elements
	// instead), and go-app's states panic.
	trimmed := []string{"app.Raw(", "SetState(", "GetState(", "ObserveState(", "DelState("}
	var callers, read []string
	for _, line := range strings.Split(strings.TrimSpace(wasmList(t, "-deps", "-f", "{{.ImportPath}} {{.Dir}} {{.GoFiles}}", "./wasm")), "\n") {
		pkg, rest, _ := strings.Cut(line, " ")
		dir, files, _ := strings.Cut(rest, " ")
		if !strings.HasPrefix(pkg, "yarnplay/") && pkg != "yarnplay" {
			continue
		}
		read = append(read, pkg)
		for _, f := range strings.Fields(strings.Trim(files, "[]")) {
			src, err := os.ReadFile(filepath.Join(dir, f))
			require.NoError(t, err)
			for _, call := range trimmed {
				if strings.Contains(string(src), call) {
					callers = append(callers, pkg+"/"+f+" calls "+call+"), which the browser build leaves out (build/site/trims.go)")
				}
			}
		}
	}
	require.Contains(t, read, "yarnplay/app", "the page's package is read")
	require.Empty(t, callers)
}
