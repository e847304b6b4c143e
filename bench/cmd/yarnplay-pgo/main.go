// Command yarnplay-pgo writes the CPU profile that the browser build is
// optimised with (site.WasmProfile, wasm/default.pgo): benchmark 4's
// workload played natively, its heartbeats only.
//
//	go run ./bench/cmd/yarnplay-pgo [-o wasm/default.pgo] [-ticks 600]
//
// `make pgo` runs it with the defaults, in about 10 seconds. The workload
// is built and warmed (40 ticks) before the profile starts, so that it
// holds the ticks; `go tool pprof -focus` then keeps the samples under
// core's heartbeat, so that the compiler inlines only what the heartbeat
// calls (the whole profile made benchmark 4's harness 19.7 KB bigger
// gzipped instead of 9.8 to 11.7, for about as many instructions). The profile is rewritten when the
// heartbeat's code changes much: the compiler ignores what it no longer
// matches, so an old profile only optimises less.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"

	"yarnplay/bench/workload"
	"yarnplay/build/site"
	"yarnplay/core"
)

// focus is the function whose samples the profile keeps, for pprof.
const focus = `^yarnplay/core\.\(\*Scheduler\)\.heartbeat$`

func main() {
	out := flag.String("o", "", "where to write the profile (default: "+site.WasmProfile+" at the module root)")
	ticks := flag.Int("ticks", 600, "ticks profiled, after 40 warm ones")
	flag.Parse()
	if err := run(*out, *ticks); err != nil {
		fmt.Fprintln(os.Stderr, "yarnplay-pgo:", err)
		os.Exit(1)
	}
}

func run(out string, ticks int) error {
	if out == "" {
		root, err := site.ModuleRoot(context.Background())
		if err != nil {
			return err
		}
		out = filepath.Join(root, filepath.FromSlash(site.WasmProfile))
	}
	tmp, err := os.MkdirTemp("", "yarnplay-pgo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	raw := filepath.Join(tmp, "ticks.pprof")
	if err := profileTicks(raw, ticks); err != nil {
		return err
	}
	cmd := exec.Command("go", "tool", "pprof", "-proto", "-focus="+focus, "-output="+out, raw)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go tool pprof -focus: %w\n%s", err, msg)
	}
	fmt.Printf("wrote %s: %d ticks of %s\n", out, ticks, workload.Wasm())
	return nil
}

// profileTicks plays benchmark 4's workload without recording, and writes
// a CPU profile of its ticks after the warm ones to path.
func profileTicks(path string, ticks int) error {
	sp := workload.Wasm()
	sp.Record = core.RecordNone
	w, err := workload.New(sp)
	if err != nil {
		return err
	}
	for range 40 {
		w.Step()
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		return err
	}
	for range ticks {
		w.Step()
	}
	pprof.StopCPUProfile()
	return f.Close()
}
