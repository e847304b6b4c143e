// Command build builds and serves yarnplay's static website.
//
//	go run ./build wasm     compile ./wasm to dist/web/app.wasm (GOOS=js GOARCH=wasm)
//	go run ./build static   pre-render the pages, copy web/ into dist/ and
//	                        write compressed copies (gzip -9, brotli 11: ~40 s)
//	go run ./build serve    serve dist/ [-addr 127.0.0.1:8080]
//	go run ./build run      wasm, static (with fast compression), then serve
//	go run ./build flags    print the compiler flags of the browser build
//	go run ./build thread FILE...
//	                        rewrite the jumps of Go WebAssembly binaries as
//	                        direct branches, in place, as wasm does to app.wasm
//
// Every command takes -dist (default: dist/ at the module root). The work is
// done by package yarnplay/build/site, which the browser tests share.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"yarnplay/build/site"
)

const usage = `usage: go run ./build <command> [flags]

commands:
  wasm     compile ./wasm to <dist>/web/app.wasm (GOOS=js GOARCH=wasm)
  static   pre-render the pages into <dist>, copy web/ into <dist>/web and
           write compressed copies (.gz, .br) at the best levels (~40 s)
  serve    serve <dist> over HTTP (the compressed copies to browsers that take them)
  run      wasm, static with fast compression (a second or two), then serve
  flags    print the browser build's compiler flags, one per line (for
           building other WebAssembly as app.wasm is: bench/wasmcount.sh)
  thread FILE...
           rewrite the jumps of Go WebAssembly binaries as direct branches
           (forward jumps, calls' ways in, loops), in place, as wasm does to
           app.wasm (package build/wasmjump)

flags:
  -dist dir    output directory (default: dist/ at the module root)
  -addr addr   serve and run: address to listen on (default 127.0.0.1:8080)
  -base path   static and run: the path the site will be served under
               (default /; /yarnplay/ for a GitHub Pages project site)
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "build:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command given")
	}
	cmd := args[0]
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	dist := fs.String("dist", "", "output directory (default: dist/ at the module root)")
	base := fs.String("base", "/", "static and run: the path the site is served under (/yarnplay/ for a GitHub Pages project site)")
	addr := "127.0.0.1:8080"
	if cmd == "serve" || cmd == "run" {
		fs.StringVar(&addr, "addr", addr, "address to listen on")
	}
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if cmd == "thread" {
		return thread(fs.Args(), stdout)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%s: unexpected arguments %q", cmd, fs.Args())
	}

	root, err := site.ModuleRoot(ctx)
	if err != nil {
		return err
	}
	if *dist == "" {
		*dist = filepath.Join(root, "dist")
	}

	wasm := func() error {
		fmt.Fprintf(stdout, "compiling ./wasm to %s\n", site.WasmPath(*dist))
		return site.BuildWasm(ctx, root, *dist, stderr)
	}
	static := func(c site.Compression) func() error {
		return func() error {
			fmt.Fprintf(stdout, "writing the static site into %s\n", *dist)
			if err := site.GenerateStaticAt(root, *dist, *base); err != nil {
				return err
			}
			fmt.Fprintln(stdout, "compressing it (.gz and .br copies)")
			return site.Precompress(*dist, c)
		}
	}
	serve := func() error {
		return site.Serve(ctx, addr, *dist, func(url string) {
			fmt.Fprintf(stdout, "yarnplay is running at %s\n", url)
		})
	}

	switch cmd {
	case "wasm":
		return wasm()
	case "static":
		return static(site.BestCompression)()
	case "serve":
		return serve()
	case "flags":
		_, err := fmt.Fprintln(stdout, strings.Join(site.WasmFlags(root), "\n"))
		return err
	case "run":
		for _, step := range []func() error{wasm, static(site.FastCompression), serve} {
			if err := step(); err != nil {
				return err
			}
		}
		return nil
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	default:
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("unknown command %q", cmd)
	}
}

// thread threads the jumps of each file, in place, and says what it did.
func thread(files []string, stdout io.Writer) error {
	if len(files) == 0 {
		return errors.New("thread: no file given")
	}
	for _, f := range files {
		st, err := site.ThreadWasm(f)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: %d of %d jumps made direct (%d br_if), %d loops made loops, a way in for calls to %d functions; code %d bytes, was %d\n",
			f, st.Direct+st.Conditional, st.Jumps, st.Conditional, st.Loops, st.Entries, st.CodeAfter, st.CodeBefore)
	}
	return nil
}
