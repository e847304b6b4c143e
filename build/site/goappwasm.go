package site

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// GoAppModule is the module path of go-app, the UI framework.
const GoAppModule = "github.com/maxence-charriere/go-app/v10"

// sourcePatch is one edit of a source file of go-app or of the Go
// runtime: old must occur exactly once in the file, and is replaced by
// new. An empty old adds the file, with new as its contents; it must not
// exist yet.
type sourcePatch struct {
	file, old, new string
}

// goAppPatches take go-app's server side out of its browser build.
//
// go-app's package app holds both the browser runtime and Handler, the
// net/http server that pre-renders pages. The linker cannot drop net/http
// from app.wasm even though the browser never serves HTTP: net/http's
// package initialisers keep crypto/tls and with it every cipher, X.509
// and the FIPS self-tests, about 420 KB of app.wasm gzipped (a fifth of
// go-app's own hello world). The browser build therefore compiles a copy of
// go-app in which Handler's file builds only for !wasm and the two wasm
// files that mention net/http or Handler drop those lines. The native build
// (the server, the static site generator, the tests) uses go-app unchanged.
//
// Each edit must apply exactly once, so a go-app upgrade that changes these
// files stops the build with a message naming the edit rather than
// producing a different binary.
var goAppPatches = []sourcePatch{
	{"pkg/app/http.go", "package app\n", "//go:build !wasm\n\npackage app\n"},
	{"pkg/app/resource.go", "import (\n\t\"net/http\"\n\t\"strings\"\n)", "import (\n\t\"strings\"\n)"},
	{"pkg/app/resource.go", "\t\tHandler:   http.FileServer(http.Dir(directory)),\n", ""},
	{"pkg/app/resource.go", "\thttp.Handler\n\tdirectory string\n", "\tdirectory string\n"},
	{"pkg/app/wasm.go", "import (\n\t\"runtime\"\n\n\t\"github.com/maxence-charriere/go-app/v10/pkg/errors\"\n)\n\n" +
		"func GenerateStaticWebsite(dir string, h *Handler, pages ...string) error {\n" +
		"\tpanic(errors.New(\"unsupported instruction\").\n" +
		"\t\tWithTag(\"architecture\", runtime.GOARCH))\n}\n\n", ""},
	// Context.Encrypt and Decrypt (AES-GCM keyed by the device ID), which
	// yarnplay never calls, bring crypto/aes and crypto/cipher's GCM into
	// app.wasm (61 KB, 11.5 KB of it gzipped): in the browser build,
	// crypto.go gives way to an encrypt and a decrypt that fail with an
	// error saying so.
	{"pkg/app/crypto.go", "package app\n", "//go:build !wasm\n\npackage app\n"},
	{"pkg/app/crypto_wasm.go", "", goAppNoCrypto},
}

// goAppNoCrypto is the browser build's crypto_wasm.go (built for wasm
// only, by its name).
const goAppNoCrypto = `package app

import "github.com/maxence-charriere/go-app/v10/pkg/errors"

// errNoCrypto is what encrypt and decrypt return: yarnplay's browser
// build leaves encryption out (yarnplay's build/site/goappwasm.go).
var errNoCrypto = errors.New("encryption is left out of yarnplay's browser build")

func encrypt(key string, v []byte) ([]byte, error) { return nil, errNoCrypto }

func decrypt(key string, v []byte) ([]byte, error) { return nil, errNoCrypto }
`

// goAppInfo is what `go list -m -json` says of go-app.
type goAppInfo struct {
	Version, Dir string
}

// wasmModFile prepares the browser build's module file: a copy of root's
// go.mod and go.sum, in a new directory under tmp, whose go.mod replaces
// go-app with the patched copy goAppForWasm keeps in the user's cache
// directory (yarnplay/go-app-<version>-wasm-<hash of the edits>). It
// returns the go.mod's path, for `go build -modfile`.
func wasmModFile(ctx context.Context, root, tmp string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-m", "-json", GoAppModule)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("finding %s with `go list -m` (run `go mod download`?): %w", GoAppModule, err)
	}
	var info goAppInfo
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		return "", fmt.Errorf("finding %s: `go list -m -json` gave no module directory (run `go mod download`)", GoAppModule)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	patched, err := goAppForWasm(info, filepath.Join(cache, "yarnplay"))
	if err != nil {
		return "", err
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		return "", err
	}
	mod = fmt.Appendf(mod, "\n// The browser build's go-app, without its server side (build/site/goappwasm.go).\nreplace %s => %s\n", GoAppModule, patched)
	modFile := filepath.Join(tmp, "wasm.mod")
	if err := os.WriteFile(modFile, mod, 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(tmp, "wasm.sum"), sum, 0o644); err != nil {
		return "", err
	}
	return modFile, nil
}

// goAppForWasm returns the directory of go-app's patched copy under cache,
// making it if it is not there yet: go.mod, LICENSE and the non-test Go files of
// pkg/, with goAppPatches applied. The directory's name carries the
// version and a hash of the patches, and it is made under a temporary
// name and renamed into place, so that builds running at the same time
// never see half of it.
func goAppForWasm(info goAppInfo, cache string) (string, error) {
	h := sha256.New()
	for _, p := range goAppPatches {
		fmt.Fprintf(h, "%q %q %q\n", p.file, p.old, p.new)
	}
	dir := filepath.Join(cache, fmt.Sprintf("go-app-%s-wasm-%s", info.Version, hex.EncodeToString(h.Sum(nil))[:12]))
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", fmt.Errorf("making the cache directory for go-app's browser copy: %w", err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".tmp-")
	if err != nil {
		return "", fmt.Errorf("making the cache directory for go-app's browser copy: %w", err)
	}
	defer os.RemoveAll(tmp)
	if err := copyGoApp(info.Dir, tmp); err != nil {
		return "", err
	}
	if err := patchGoApp(tmp, info.Version); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another build got there first: its copy is the same.
		if _, statErr := os.Stat(filepath.Join(dir, "go.mod")); statErr == nil {
			return dir, nil
		}
		return "", fmt.Errorf("moving go-app's browser copy into place: %w", err)
	}
	return dir, nil
}

// copyGoApp copies go.mod, LICENSE and pkg/'s non-test Go files of the
// module at src into dst.
func copyGoApp(src, dst string) error {
	keep := func(rel string) bool {
		switch {
		case rel == "go.mod" || rel == "LICENSE":
			return true
		case !strings.HasPrefix(rel, "pkg"+string(filepath.Separator)):
			return false
		default:
			return strings.HasSuffix(rel, ".go") && !strings.HasSuffix(rel, "_test.go")
		}
	}
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("copying go-app: %w", err)
		}
		rel, err := filepath.Rel(src, path)
		if err != nil || d.IsDir() || !keep(rel) {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("copying go-app: %w", err)
		}
		out := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return fmt.Errorf("copying go-app: %w", err)
		}
		return os.WriteFile(out, data, 0o644)
	})
}

// patchGoApp applies goAppPatches to the copy of go-app in dir.
func patchGoApp(dir, version string) error {
	for _, p := range goAppPatches {
		path := filepath.Join(dir, filepath.FromSlash(p.file))
		if p.old == "" {
			if _, err := os.Stat(path); err == nil {
				return fmt.Errorf("go-app %s: the browser build adds %s, which go-app now has: update goAppPatches in build/site/goappwasm.go", version, p.file)
			}
			if err := os.WriteFile(path, []byte(p.new), 0o644); err != nil {
				return fmt.Errorf("patching go-app %s for the browser: %w", version, err)
			}
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("patching go-app %s for the browser: %w", version, err)
		}
		if n := bytes.Count(data, []byte(p.old)); n != 1 {
			return patchMismatch(p, "go-app "+version, "goAppPatches in build/site/goappwasm.go", n)
		}
		data = bytes.Replace(data, []byte(p.old), []byte(p.new), 1)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return fmt.Errorf("patching go-app %s for the browser: %w", version, err)
		}
	}
	return nil
}

// patchMismatch explains a patch of what (the source it edits, with its
// version) that does not apply; where names the edits to update.
func patchMismatch(p sourcePatch, what, where string, found int) error {
	first, _, _ := strings.Cut(strings.TrimSpace(p.old), "\n")
	return fmt.Errorf("%s: the browser build's edit of %s expects %q exactly once and found it %d times; "+
		"the file has changed since the edit was written: update %s", what, p.file, first, found, where)
}
