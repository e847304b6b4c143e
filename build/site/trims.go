package site

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// GoAppModule is the module path of go-app, the UI framework.
const GoAppModule = "github.com/maxence-charriere/go-app/v10"

// YAMLModule is the module path of yaml.v3, which reads scenarios.
const YAMLModule = "go.yaml.in/yaml/v3"

// A trim is the browser build's trimmed copy of one dependency: the
// files of the version go.mod pins, copied from the module cache, edited
// by patches, with the Go files of a directory of trimFiles added. It
// leaves out of app.wasm what the browser never runs but the linker
// cannot drop. The native build (the server, the static site generator,
// the tests) uses the dependency as it is.
//
// A trim is made for one version: when go.mod asks for another, or when a
// patch does not find its text exactly once, or a file it adds is there
// already, the build warns and uses the plain dependency. app.wasm then
// works as before, only larger (TestWasmSizeBudget says so).
type trim struct {
	module, version string
	// keep says which files the copy holds, by their slash-separated
	// path inside the module: go.mod, the licence, the non-test Go files
	// of the packages the browser build imports.
	keep func(rel string) bool
	// patches are the edits, in order.
	patches []sourcePatch
	// adds is the directory of trimFiles whose non-test Go files are
	// added to the copy's directory into.
	adds, into string
	// saves is what the trim saves, gzipped, for the warning.
	saves string
}

// sourcePatch is one edit of a file of a dependency: old must occur
// exactly once in the file, and is replaced by new.
type sourcePatch struct {
	file, old, new string
}

// trimFiles are the files trims add, each in a directory whose Go package
// is named as the one it joins, so that it is tested here as it will be
// compiled there.
//
//go:embed trim
var trimFiles embed.FS

// trims are the browser build's trimmed dependencies.
var trims = []trim{goAppTrim, yamlTrim}

// goAppTrim takes out of go-app what yarnplay's page never runs:
//
//   - Handler, the net/http server that pre-renders pages: net/http's
//     package initialisers keep crypto/tls and with it every cipher,
//     X.509 and the FIPS self-tests, about 420 KB of app.wasm gzipped.
//     http.go builds for !wasm only, and the two wasm files that mention
//     net/http or Handler drop those lines.
//   - Context.Encrypt and Decrypt (AES-GCM keyed by the device ID), which
//     yarnplay never calls: crypto/aes and crypto/cipher's GCM, 11.5 KB
//     gzipped. crypto.go builds for !wasm only and gives way to an
//     encrypt and a decrypt that fail saying so (trim/goapp).
//   - github.com/google/uuid, for the device ID and the broadcast store's
//     ID: importing it keeps crypto/rand with the FIPS 140 module, MD5 and
//     SHA-1, 175 KB of code, 55 KB gzipped. A random UUID comes from
//     math/rand/v2 instead (trim/goapp).
//   - regexp, for RouteWithRegexp, which yarnplay does not call: a route's
//     pattern is held as an interface, so that the linker drops package
//     regexp with the function. With yaml.v3's and yarnplay's own uses
//     gone, that leaves regexp out (237 KB of code, about 108 KB gzipped).
//   - raw HTML (Raw): yarnplay's page mounts none (every element is
//     go-app's, which the next render updates in place), and the node
//     manager's cases for it kept its mounting and updating. Without
//     them, an app.Raw would fail to mount, saying "unsupported element";
//     TestTheBrowserBuildCallsNoTrimmedFeature keeps it out of the page.
//   - go-app's states (Context.SetState, GetState, ObserveState and
//     DelState, their persistence in localStorage and their broadcast to
//     the other tabs), which yarnplay does not use: calling one panics,
//     saying so (trim/goapp). With them goes the clean-up of expired
//     persisted states when the engine starts, which read and decoded
//     every entry of localStorage as JSON, the visitor's saved work too.
//
// It also changes when the engine renders. go-app renders from a ticker,
// 8.3 ms after the first of a burst of dispatches (Start(120)), in a task
// of its own; the trim renders at once, in the dispatch's own task, once
// the dispatches that are ready have run (the UI goroutine yields to the
// goroutines ready to run first, so that their dispatches join the same
// render). A step's reply is drawn in the task it arrives in: with the
// render a task later, the browser often ran a frame in between, and the
// step showed a frame later (bench/results/log.md, step 61). The ticker
// stays for a render that a dispatch asks while another dispatch
// waits (Start(1000): a millisecond later).
var goAppTrim = trim{
	module:  GoAppModule,
	version: "v10.1.11",
	keep: func(rel string) bool {
		return rel == "go.mod" || rel == "LICENSE" ||
			strings.HasPrefix(rel, "pkg/") && strings.HasSuffix(rel, ".go") && !strings.HasSuffix(rel, "_test.go")
	},
	patches: []sourcePatch{
		{"pkg/app/http.go", "package app\n", "//go:build !wasm\n\npackage app\n"},
		{"pkg/app/resource.go", "import (\n\t\"net/http\"\n\t\"strings\"\n)", "import (\n\t\"strings\"\n)"},
		{"pkg/app/resource.go", "\t\tHandler:   http.FileServer(http.Dir(directory)),\n", ""},
		{"pkg/app/resource.go", "\thttp.Handler\n\tdirectory string\n", "\tdirectory string\n"},
		{"pkg/app/wasm.go", "import (\n\t\"runtime\"\n\n\t\"github.com/maxence-charriere/go-app/v10/pkg/errors\"\n)\n\n" +
			"func GenerateStaticWebsite(dir string, h *Handler, pages ...string) error {\n" +
			"\tpanic(errors.New(\"unsupported instruction\").\n" +
			"\t\tWithTag(\"architecture\", runtime.GOARCH))\n}\n\n", ""},
		{"pkg/app/crypto.go", "package app\n", "//go:build !wasm\n\npackage app\n"},
		{"pkg/app/context.go", "\t\"github.com/google/uuid\"\n", ""},
		{"pkg/app/context.go", "uuid.NewString()", "newUUID()"},
		{"pkg/app/state.go", "\t\"github.com/google/uuid\"\n", ""},
		{"pkg/app/state.go", "uuid.NewString()", "newUUID()"},
		{"pkg/app/route.go", "\tregexp       *regexp.Regexp\n", "\tregexp       interface{ MatchString(string) bool }\n"},
		{"pkg/app/app.go", "\tengine.Start(120)\n", "\tengine.Start(1000)\n"},
		{"pkg/app/engine.go", "\t\"reflect\"\n\t\"strings\"\n", "\t\"reflect\"\n\t\"runtime\"\n\t\"strings\"\n"},
		{"pkg/app/engine.go", "\t\tcase dispatch := <-e.dispatches:\n" +
			"\t\t\tif currentFrameDuration != activeFrameDuration {\n" +
			"\t\t\t\tframes.Reset(activeFrameDuration)\n" +
			"\t\t\t\tcurrentFrameDuration = activeFrameDuration\n" +
			"\t\t\t}\n" +
			"\t\t\tdispatch()\n",
			"\t\tcase dispatch := <-e.dispatches:\n" +
				"\t\t\tdispatch()\n" +
				"\t\t\truntime.Gosched()\n" +
				"\t\t\tif len(e.dispatches) == 0 {\n" +
				"\t\t\t\te.processFrame()\n" +
				"\t\t\t\tframes.Reset(iddleFrameDuration)\n" +
				"\t\t\t\tcurrentFrameDuration = iddleFrameDuration\n" +
				"\t\t\t} else if currentFrameDuration != activeFrameDuration {\n" +
				"\t\t\t\tframes.Reset(activeFrameDuration)\n" +
				"\t\t\t\tcurrentFrameDuration = activeFrameDuration\n" +
				"\t\t\t}\n"},
		{"pkg/app/engine.go", "\t\tobserveState:          e.states.Observe,\n\t\tgetState:              e.states.Get,\n" +
			"\t\tsetState:              e.states.Set,\n\t\tdelState:              e.states.Delete,\n",
			"\t\tobserveState: func(Context, string, any) Observer { panic(trimmedStates) },\n" +
				"\t\tgetState:     func(Context, string, any) { panic(trimmedStates) },\n" +
				"\t\tsetState:     func(Context, string, any) State { panic(trimmedStates) },\n" +
				"\t\tdelState:     func(Context, string) { panic(trimmedStates) },\n"},
		{"pkg/app/engine.go", "\te.states.CleanupExpiredPersistedStates(e.baseContext())\n\n", ""},
		{"pkg/app/node.go", "\tcase *raw:\n\t\treturn m.mountRawHTML(depth, v)\n\n", ""},
		{"pkg/app/node.go", "\n\tcase *raw:\n\t\tm.dismountRawHTML(v)\n", ""},
		{"pkg/app/node.go", "\tcase *raw:\n\t\treturn m.updateRawHTML(ctx, v, new.(*raw))\n\n", ""},
		{"pkg/app/node.go", "\n\tcase *raw:\n\t\tm.encodeRawHTML(w, depth, v)\n", ""},
	},
	adds:  "trim/goapp",
	into:  "pkg/app",
	saves: "about 500 KB",
}

// yamlTrim takes package regexp out of yaml.v3: its two regular
// expressions (a YAML 1.2 float, read when decoding; a YAML 1.1
// sexagesimal float, which the encoder quotes) become matchers written
// by hand (trim/yaml, tested against the expressions). With go-app's and
// yarnplay's own uses gone, package regexp leaves app.wasm: 237 KB of
// code, about 108 KB gzipped.
var yamlTrim = trim{
	module:  YAMLModule,
	version: "v3.0.6",
	keep: func(rel string) bool {
		return rel == "go.mod" || rel == "LICENSE" || rel == "NOTICE" ||
			!strings.Contains(rel, "/") && strings.HasSuffix(rel, ".go") && !strings.HasSuffix(rel, "_test.go")
	},
	patches: []sourcePatch{
		{"resolve.go", "\t\"regexp\"\n", ""},
		{"resolve.go", "var yamlStyleFloat = regexp.MustCompile(`^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)",
			"var yamlStyleFloat = matcher(matchesYAMLStyleFloat)"},
		{"encode.go", "\t\"regexp\"\n", ""},
		{"encode.go", "var base60float = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\\.[0-9_]*)?$`)",
			"var base60float = matcher(matchesBase60Float)"},
	},
	adds:  "trim/yaml",
	into:  ".",
	saves: "about 100 KB",
}

// moduleInfo is what `go list -m -json` says of a module.
type moduleInfo struct {
	Path, Version, Dir string
}

// wasmModFile prepares the browser build's module file: a copy of root's
// go.mod and go.sum, in tmp, whose go.mod replaces each dependency of ts
// with its trimmed copy, kept in the user's cache directory
// (yarnplay/<module>@<version>-wasm-<hash of the trim>). A trim that does
// not apply to the version go.mod pins is left out with a warning to
// warn. It returns the go.mod's path, for `go build -modfile`.
func wasmModFile(ctx context.Context, root, tmp string, ts []trim, warn io.Writer) (string, error) {
	modules := make([]string, len(ts))
	for i, t := range ts {
		modules[i] = t.module
	}
	infos, err := listModules(ctx, root, modules)
	if err != nil {
		return "", err
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		return "", err
	}
	for _, t := range ts {
		dir, err := t.copyIn(infos[t.module], filepath.Join(cache, "yarnplay"))
		if err != nil {
			fmt.Fprintf(warn, "warning: %v; app.wasm is built with the plain %s (it works, %s larger gzipped)\n", err, t.module, t.saves)
			continue
		}
		mod = fmt.Appendf(mod, "\n// The browser build's trimmed %s (build/site/trims.go).\nreplace %s => %s\n", t.module, t.module, dir)
	}
	modFile := filepath.Join(tmp, "wasm.mod")
	if err := os.WriteFile(modFile, mod, 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(tmp, "wasm.sum"), sum, 0o644); err != nil {
		return "", err
	}
	return modFile, nil
}

// listModules asks `go list -m -json` in root where the modules are.
func listModules(ctx context.Context, root string, modules []string) (map[string]moduleInfo, error) {
	cmd := exec.CommandContext(ctx, "go", append([]string{"list", "-m", "-json"}, modules...)...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("finding %s with `go list -m` (run `go mod download`?): %w", strings.Join(modules, " and "), err)
	}
	infos := map[string]moduleInfo{}
	for dec := json.NewDecoder(bytes.NewReader(out)); ; {
		var info moduleInfo
		if err := dec.Decode(&info); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("reading `go list -m -json`: %w", err)
		}
		infos[info.Path] = info
	}
	for _, m := range modules {
		if infos[m].Dir == "" {
			return nil, fmt.Errorf("finding %s: `go list -m -json` gave no module directory (run `go mod download`)", m)
		}
	}
	return infos, nil
}

// copyIn returns the directory of t's trimmed copy of the module info
// describes, under cache, making it if it is not there yet. The
// directory's name carries the version and a hash of the trim, and it is
// made under a temporary name and renamed into place, so that builds
// running at the same time never see half of it.
func (t trim) copyIn(info moduleInfo, cache string) (string, error) {
	if info.Version != t.version {
		return "", fmt.Errorf("go.mod asks for %s %s, and the browser build's trim of it is made for %s: update the trim in build/site/trims.go", t.module, info.Version, t.version)
	}
	added, err := t.added()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, p := range t.patches {
		fmt.Fprintf(h, "%q %q %q\n", p.file, p.old, p.new)
	}
	for _, name := range slices.Sorted(maps.Keys(added)) {
		fmt.Fprintf(h, "%q %q\n", name, added[name])
	}
	name := fmt.Sprintf("%s@%s-wasm-%s", strings.ReplaceAll(t.module, "/", "_"), info.Version, hex.EncodeToString(h.Sum(nil))[:12])
	dir := filepath.Join(cache, name)
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", fmt.Errorf("making the cache directory for the trimmed %s: %w", t.module, err)
	}
	tmp, err := os.MkdirTemp(cache, name+".tmp-")
	if err != nil {
		return "", fmt.Errorf("making the cache directory for the trimmed %s: %w", t.module, err)
	}
	defer os.RemoveAll(tmp)
	if err := copyModule(info.Dir, tmp, t.keep); err != nil {
		return "", err
	}
	if err := t.apply(tmp, info.Version, added); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another build got there first: its copy is the same.
		if _, statErr := os.Stat(filepath.Join(dir, "go.mod")); statErr == nil {
			return dir, nil
		}
		return "", fmt.Errorf("moving the trimmed %s into place: %w", t.module, err)
	}
	return dir, nil
}

// added returns the files t adds, by name: the non-test Go files of its
// directory of trimFiles.
func (t trim) added() (map[string][]byte, error) {
	entries, err := trimFiles.ReadDir(t.adds)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		data, err := trimFiles.ReadFile(path.Join(t.adds, e.Name()))
		if err != nil {
			return nil, err
		}
		files[e.Name()] = data
	}
	return files, nil
}

// copyModule copies the files of the module at src that keep takes into
// dst.
func copyModule(src, dst string, keep func(rel string) bool) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("copying %s: %w", src, err)
		}
		rel, err := filepath.Rel(src, p)
		if err != nil || d.IsDir() || !keep(filepath.ToSlash(rel)) {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("copying %s: %w", src, err)
		}
		out := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return fmt.Errorf("copying %s: %w", src, err)
		}
		return os.WriteFile(out, data, 0o644)
	})
}

// apply edits the copy of t's module (at version) in dir with t's patches
// and adds the files added.
func (t trim) apply(dir, version string, added map[string][]byte) error {
	what := t.module + " " + version
	for _, p := range t.patches {
		file := filepath.Join(dir, filepath.FromSlash(p.file))
		data, err := os.ReadFile(file)
		if err != nil {
			return fmt.Errorf("trimming %s: %w", what, err)
		}
		if n := bytes.Count(data, []byte(p.old)); n != 1 {
			first, _, _ := strings.Cut(strings.TrimSpace(p.old), "\n")
			return fmt.Errorf("%s: the browser build's edit of %s expects %q exactly once and found it %d times; "+
				"the file is not the one the edit was written for", what, p.file, first, n)
		}
		data = bytes.Replace(data, []byte(p.old), []byte(p.new), 1)
		if err := os.WriteFile(file, data, 0o644); err != nil {
			return fmt.Errorf("trimming %s: %w", what, err)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(added)) {
		file := filepath.Join(dir, filepath.FromSlash(t.into), name)
		if _, err := os.Stat(file); err == nil {
			return fmt.Errorf("%s: the browser build adds %s/%s, which the module has", what, t.into, name)
		}
		if err := os.WriteFile(file, added[name], 0o644); err != nil {
			return fmt.Errorf("trimming %s: %w", what, err)
		}
	}
	return nil
}
