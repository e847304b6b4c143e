// Package site builds and serves yarnplay's static website: the browser
// binary (app.wasm, compiled from ./wasm), the pages go-app pre-renders from
// the routes of package app, go-app's scripts and the assets of web/.
//
// The output directory (dist/ by default) is a plain static site: any static
// host can serve it from the root of a domain.
//
//	dist/index.html             pre-rendered pages (one per route)
//	dist/app.js, wasm_exec.js   go-app's loader, Go's wasm support
//	dist/app-worker.js          go-app's service worker
//	dist/manifest.webmanifest   the web app manifest
//	dist/app.css                go-app's own loader styles
//	dist/web/app.wasm           the playground, compiled for the browser
//	dist/web/...                copied from web/ (app.css, icon.svg)
//	dist/**/*.br, *.gz          compressed copies (Precompress), for Handler
//
// The command ./build is a thin front end; the browser tests call the same
// functions.
package site

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app"
	"yarnplay/build/wasmjump"
)

// Names inside the output directory.
const (
	// WebDir is the directory of static resources, served at /web/.
	WebDir = "web"
	// WasmFile is the browser binary's name inside WebDir.
	WasmFile = "app.wasm"
)

// ModuleRoot returns the directory holding yarnplay's go.mod, asking the go
// command from the current directory, so that the build works from any
// directory inside the module.
func ModuleRoot(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("finding the module root with `go env GOMOD`: %w (is the go command on PATH?)", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("not inside the yarnplay module: run the build from the repository (the directory holding go.mod)")
	}
	return filepath.Dir(gomod), nil
}

// WasmPath is where BuildWasm writes the browser binary under dist.
func WasmPath(dist string) string {
	return filepath.Join(dist, WebDir, WasmFile)
}

// WasmGCFlags are the compiler flags of the browser build: no inlining,
// except in the runtime, in the scheduler's core and its resource
// arithmetic, whose heartbeat loop needs it, and in package math, whose
// small functions (math.Float32bits, 10 calls per heartbeat) can be
// inlined into the core only if math is compiled with inlining: in Go's
// WebAssembly a call costs about 70 instructions (benchmark 4 builds its
// harness with the same flags). Inlining copies callees' bodies into their
// callers, and the copies compress poorly: without it app.wasm is 9%
// smaller gzipped (2.60 to 2.38 MB). The heartbeat keeps its speed; the
// store's replay around it is 10 to 20% slower (bench/results/log.md,
// step 16).
var WasmGCFlags = []string{
	"-gcflags=all=-l",
	"-gcflags=runtime=",
	"-gcflags=internal/runtime/...=",
	"-gcflags=yarnplay/core=",
	"-gcflags=yarnplay/core/resource=",
	"-gcflags=math=",
}

// WasmFlags are the compiler flags of the browser build, for the module
// at root: WasmGCFlags. The build once took a profile of the heartbeats
// for profile-guided inlining too: 7.5 to 9% fewer instructions per
// heartbeat, under the 10% a speed trick must save, for some 9 KB of
// app.wasm gzipped (bench/results/log.md, steps 33 and 50).
func WasmFlags(root string) []string {
	return slices.Clip(WasmGCFlags)
}

// KeepNamesEnv is the environment variable that, set to anything,
// makes BuildWasm keep app.wasm's name section (-ldflags=-w, without -s),
// so that a browser's profiles and stack traces name Go's functions
// instead of numbering them (wasm-function[643]): 322 KB more, 65 KB
// gzipped, for profiling only (`YARNPLAY_WASM_NAMES=1 go run ./build run`;
// benchmark 5 sets it when it writes a profile).
const KeepNamesEnv = "YARNPLAY_WASM_NAMES"

// NoThreadEnv, set, makes BuildWasm leave app.wasm as Go built it,
// without ThreadWasm's rewrite: to measure what the rewrite saves in the
// browser (issue 33 keeps build/wasmjump only if it saves 10% of
// benchmark 4's or 5's wall time).
const NoThreadEnv = "YARNPLAY_NO_WASMJUMP"

// wasmLdflags is the browser build's linker flags: no symbol table, no
// DWARF, and no name section unless KeepNamesEnv is set.
func wasmLdflags() string {
	if os.Getenv(KeepNamesEnv) != "" {
		return "-ldflags=-w"
	}
	return "-ldflags=-s -w"
}

// BuildWasm compiles the browser entry point root/wasm with GOOS=js
// GOARCH=wasm, -trimpath, -ldflags="-s -w" (-w alone with KeepNamesEnv set)
// and WasmFlags into
// dist/web/app.wasm, against trimmed copies of go-app and yaml.v3 (trims:
// without go-app's server side, crypto and package regexp), with Go's own
// runtime, then rewrites its jumps as direct branches (ThreadWasm).
//
// It compiles into a directory of its own and moves the result into place
// whole, whatever dist holds already (a binary of an earlier build, threaded
// or not, or nothing): an interrupted build leaves the previous app.wasm.
// A step that cannot apply (a trim made for another version of its
// dependency, the threading) prints a warning and leaves that step out:
// the binary works, only larger or more slowly. The go command's
// diagnostics and the warnings go to stderr.
func BuildWasm(ctx context.Context, root, dist string, stderr io.Writer) error {
	out, err := filepath.Abs(WasmPath(dist))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return fmt.Errorf("creating the output directory: %w", err)
	}
	tmp, err := os.MkdirTemp("", "yarnplay-wasm-build-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	modFile, err := wasmModFile(ctx, root, tmp, trims, stderr)
	if err != nil {
		return err
	}
	args := append([]string{"build", "-modfile", modFile, "-trimpath", wasmLdflags()}, WasmFlags(root)...)
	// A fresh output path: given the path of an earlier build's binary,
	// the go command may find it up to date and leave it as it is, already
	// threaded.
	built := filepath.Join(tmp, WasmFile)
	cmd := exec.CommandContext(ctx, "go", append(args, "-o", built, "./wasm")...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	cmd.Stdout = stderr
	cmd.Stderr = stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("GOOS=js GOARCH=wasm go build ./wasm (in %s): %w", root, err)
	}
	threadOrWarn(built, stderr)
	binary, err := os.ReadFile(built)
	if err != nil {
		return err
	}
	// Compressed copies of the previous binary would be stale (Precompress
	// makes new ones): they go first, so that no moment serves them beside
	// the new binary.
	for _, enc := range encodings {
		if err := os.Remove(out + enc.suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing a stale compressed copy: %w", err)
		}
	}
	return writeFile(out, binary)
}

// threadOrWarn threads the jumps of the browser binary at path
// (ThreadWasm) unless NoThreadEnv is set. A binary it cannot thread, such
// as one from a Go whose layout package wasmjump does not know, stays as Go
// built it, with a warning on stderr: it works, more slowly, and the build
// goes on.
func threadOrWarn(path string, stderr io.Writer) {
	if os.Getenv(NoThreadEnv) != "" {
		fmt.Fprintf(stderr, "%s is set: app.wasm is left as Go built it, its jumps not threaded\n", NoThreadEnv)
		return
	}
	if _, err := ThreadWasm(path); err != nil {
		fmt.Fprintf(stderr, "warning: %v; app.wasm is left as Go built it (it works, more slowly)\n", err)
	}
}

// ThreadWasm rewrites the Go WebAssembly binary at path with its forward
// jumps made direct branches, a direct way into each function for a call,
// and its call-free loops WebAssembly loops (package wasmjump): the same
// program, with 21% fewer instructions per heartbeat of benchmark 4 in
// Node's compiler (bash bench/wasmprofile.sh), 93% fewer indirect jumps
// (valgrind's branch simulation; bench/results/log.md, step 36), and 4%
// less code. It is an error if the binary has no jump to thread: threaded
// already, or Go's layout has changed and wasmjump must follow it.
func ThreadWasm(path string) (wasmjump.Stats, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return wasmjump.Stats{}, err
	}
	out, st, err := threadBytes(b)
	if err != nil {
		return st, fmt.Errorf("threading the jumps of %s: %w", path, err)
	}
	switch {
	case st.Dispatched == 0:
		return st, fmt.Errorf("threading the jumps of %s: none of its %d functions has Go's jump table: has Go's WebAssembly changed?", path, st.Functions)
	case st.Threaded == 0:
		return st, fmt.Errorf("threading the jumps of %s: its %d jumps through Go's jump tables all go backward: is it threaded already?", path, st.Jumps)
	}
	return st, writeFile(path, out)
}

// threadBytes is wasmjump.Thread, with a panic in it, from a layout it
// does not expect, returned as an error.
func threadBytes(b []byte) (out []byte, st wasmjump.Stats, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("wasmjump failed on this binary: %v", r)
		}
	}()
	return wasmjump.Thread(b)
}

// GenerateStatic writes the static site into dist: it copies root/web into
// dist/web, then pre-renders every route of package app with go-app and
// writes go-app's scripts beside the pages. Each page carries its lesson
// at the start, rendered natively by the same store and views as in the
// browser (see app.Page). Compressed copies are Precompress's job. The browser binary must already
// be at dist/web/app.wasm (BuildWasm); its contents and the assets' make the
// site's version, so go-app's service worker refreshes exactly when they
// change.
func GenerateStatic(root, dist string) error { return GenerateStaticAt(root, dist, "/") }

// GenerateStaticAt is GenerateStatic for a site served under base
// ("/yarnplay/" for a GitHub Pages project site): the pages, go-app's
// loader and its service worker address everything under it.
func GenerateStaticAt(root, dist, base string) error {
	wasm := WasmPath(dist)
	wasmInfo, err := os.Stat(wasm)
	if err != nil {
		return fmt.Errorf("%s is missing: build it first with `go run ./build wasm` (or use `go run ./build run`)", wasm)
	}
	if err := CopyAssets(filepath.Join(root, WebDir), filepath.Join(dist, WebDir)); err != nil {
		return err
	}
	version, err := Version(filepath.Join(dist, WebDir))
	if err != nil {
		return err
	}
	app.Routes()
	h := app.NewHandlerAt(version, base)
	// go-app's loader shows its progress against this size: a compressed
	// copy's Content-Length would be the wrong measure.
	h.WasmContentLength = strconv.FormatInt(wasmInfo.Size(), 10)
	// The pages are written into a stage inside dist, then moved into place
	// file by file, each whole: an interrupted build leaves the old pages.
	stage, err := os.MkdirTemp(dist, tempPrefix+"pages-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	if err := goapp.GenerateStaticWebsite(stage, h, app.Paths()...); err != nil {
		return fmt.Errorf("pre-rendering the pages into %s: %w", dist, err)
	}
	if err := fixPreRendered(stage); err != nil {
		return err
	}
	if err := addPolicyMeta(stage); err != nil {
		return err
	}
	return moveTree(stage, dist)
}

// falseBoolean matches a boolean attribute go-app wrote with the value
// "false" (it writes Disabled(false) as disabled="false"): in HTML any
// value makes it true, whereas the browser side sets the property to
// false. Quotes inside attribute values and text are escaped, so the
// pattern only matches attributes.
var falseBoolean = regexp.MustCompile(` (?:async|autofocus|autoplay|checked|default|defer|disabled|hidden|ismap|loop|multiple|muted|open|readonly|required|reversed|selected)="false"`)

// goQuoted matches an attribute value with a backslash in it: go-app
// quotes attribute values with strconv.Quote, so a '"' in a value comes
// out as \" , which HTML does not read as an escape.
var goQuoted = regexp.MustCompile(` [a-zA-Z_:][-a-zA-Z0-9_:.]*="(?:[^"\\]|\\.)*\\.(?:[^"\\]|\\.)*"`)

// fixPreRendered rewrites what go-app's HTML encoder gets wrong in the
// pre-rendered pages under dist, so that they render as the browser side
// does: it drops the false boolean attributes and writes Go-quoted
// attribute values as HTML.
func fixPreRendered(dist string) error {
	return filepath.WalkDir(dist, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".html" {
			return err
		}
		page, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("reading a pre-rendered page: %w", err)
		}
		fixed := falseBoolean.ReplaceAll(page, nil)
		fixed = goQuoted.ReplaceAllFunc(fixed, func(attr []byte) []byte {
			name, quoted, _ := bytes.Cut(attr, []byte("="))
			value, err := strconv.Unquote(string(quoted))
			if err != nil {
				return attr
			}
			return []byte(string(name) + `="` + html.EscapeString(value) + `"`)
		})
		if !bytes.Equal(fixed, page) {
			if err := writeFile(path, fixed); err != nil {
				return fmt.Errorf("writing a pre-rendered page: %w", err)
			}
		}
		return nil
	})
}

// CopyAssets copies the static assets of src (web/) into dst, keeping the
// directory structure. Go files (package web's own) and hidden files are not
// assets and stay behind.
func CopyAssets(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("reading the assets: %w", err)
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		name := d.Name()
		if rel != "." && strings.HasPrefix(name, ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if strings.HasSuffix(name, ".go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("reading asset: %w", err)
		}
		if err := writeFile(target, data); err != nil {
			return fmt.Errorf("writing asset: %w", err)
		}
		return nil
	})
}

// Version returns a short content hash of every file under dir (names and
// bytes, in name order) but the compressed copies Precompress derives from
// them: the same inputs give the same version.
func Version(dir string) (string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && !isCompressedCopy(path) && !hidden(path) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("hashing the site's assets: %w", err)
	}
	sort.Strings(files)
	h := sha256.New()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return "", fmt.Errorf("hashing the site's assets: %w", err)
		}
		rel, _ := filepath.Rel(dir, f)
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(rel), len(data))
		_, _ = io.Copy(h, bytes.NewReader(data))
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}
