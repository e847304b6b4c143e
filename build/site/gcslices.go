package site

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// runtimePatches make the Go runtime's garbage collector mark in slices
// in the browser, so that a collection never holds the page for longer
// than a few milliseconds at a time.
//
// Go's collector marks concurrently, but WebAssembly in a browser has one
// thread and the runtime returns control to the browser only when no
// goroutine can run. Before it does, its scheduler runs the idle mark
// worker (findRunnable in runtime/proc.go, just before beforeIdle), and
// that worker marks until nothing else can run, which on js/wasm means
// until the whole heap is marked: at the playground's largest scale, a
// heap of 100 to 160 MB, one task of 300 to 1,600 ms every few seconds
// (golang/go#54444 describes the same freezes). Slicing the application's
// own work cannot help, since the marking happens when it yields.
//
// With these edits the idle and the fractional mark workers on js/wasm
// stop after jsIdleMarkSlice of marking, and the scheduler then returns
// to the browser instead of starting them again, with a timeout set
// jsIdleMarkGap later so that marking goes on after the browser has run
// its tasks and drawn a frame; the background sweeper likewise sleeps
// once a browser task has run that long. Any call from the browser into
// Go (an event, a callback, a timeout) allows the next slice. Marking done
// by allocating goroutines (assists) is unchanged, so the collector keeps
// pace with allocation as before.
//
// The edits apply to the Go toolchain's own runtime sources through `go
// build -overlay`; nothing is installed and other builds are unaffected.
// Each edit must apply exactly once. With a Go whose runtime differs, the
// browser build warns and goes without them (the page then pauses for
// whole collections as before); TestRuntimePatchesApplyToThisGo fails
// until the edits are brought up to date.
var runtimePatches = []sourcePatch{
	// The idle worker does not start again once it has used its slice...
	{"runtime/proc.go",
		"\tif gcBlackenEnabled != 0 && gcShouldScheduleWorker(pp) && gcController.addIdleMarkWorker() {\n",
		"\tif gcBlackenEnabled != 0 && gcShouldScheduleWorker(pp) && !jsIdleMarkYield && gcController.addIdleMarkWorker() {\n"},
	// ...and the scheduler goes back to the browser, and comes back soon.
	// (Unless an event handler the browser called has not returned: then
	// the scheduler cannot go back, and on its way to stopping
	// checkIdleGCNoP runs the idle worker as before, in slices, so that a
	// handler waiting for the collector is never left waiting forever.)
	{"runtime/proc.go",
		"\tgp, otherReady := beforeIdle(now, pollUntil)\n",
		"\tif jsIdleMarkYield && gcBlackenEnabled != 0 {\n\t\tpollUntil = jsIdleMarkResume(pollUntil)\n\t}\n" +
			"\tgp, otherReady := beforeIdle(now, pollUntil)\n"},
	// Nor does the fractional worker, which on js/wasm runs until it has
	// had a quarter of the time since marking began, however long the
	// browser ran in between...
	{"runtime/mgcpacer.go",
		"\tif !gcShouldScheduleWorker(pp) {\n\t\t// No good reason to schedule a worker.",
		"\tif jsIdleMarkYield {\n\t\treturn false, now\n\t}\n\tif !gcShouldScheduleWorker(pp) {\n\t\t// No good reason to schedule a worker."},
	// ...and which stops after a slice too.
	{"runtime/mgc.go",
		"\tp := getg().m.p.ptr()\n\tselfTime := p.gcFractionalMarkTime.Load() + (now - p.gcMarkWorkerStartTime)\n",
		"\tp := getg().m.p.ptr()\n\tif jsMarkSliceUsed(now) {\n\t\treturn true\n\t}\n" +
			"\tselfTime := p.gcFractionalMarkTime.Load() + (now - p.gcMarkWorkerStartTime)\n"},
	// The idle worker stops after its slice.
	{"runtime/mgcmark.go",
		"\t\t\tcheck = pollWork\n",
		"\t\t\tcheck = jsPollIdleMark\n"},
	// The background sweeper, which otherwise sweeps the whole heap in
	// one go after each collection, yields to the browser too.
	{"runtime/mgcsweep.go",
		"\t\t\tif nSwept%sweepBatchSize == 0 {\n\t\t\t\tgoschedIfBusy()\n\t\t\t}\n",
		"\t\t\tif nSwept%sweepBatchSize == 0 {\n\t\t\t\tgoschedIfBusy()\n\t\t\t\tjsSweepYield()\n\t\t\t}\n"},
	// An assist marks no more than jsAssistMaxWork before its goroutine
	// waits (parked, as when the collector has no work to give it) for
	// the mark workers' slices to pay the rest of its debt: one big
	// allocation at the start of a mark would otherwise mark most of the
	// heap in one go.
	{"runtime/mgcmark.go",
		"\tif scanWork < gcOverAssistWork {\n\t\tscanWork = gcOverAssistWork\n\t\tdebtBytes = int64(assistBytesPerWork * float64(scanWork))\n\t}\n",
		"\tif scanWork < gcOverAssistWork {\n\t\tscanWork = gcOverAssistWork\n\t\tdebtBytes = int64(assistBytesPerWork * float64(scanWork))\n\t}\n" +
			"\tif scanWork > jsAssistMaxWork {\n\t\tscanWork = jsAssistMaxWork\n\t\tdebtBytes = int64(assistBytesPerWork * float64(scanWork))\n\t}\n"},
	// Every call from the browser allows another slice.
	{"runtime/lock_js.go",
		"func handleEvent() {\n\tsched.idleTime.Add(nanotime() - idleStart)\n",
		"func handleEvent() {\n\tsched.idleTime.Add(nanotime() - idleStart)\n\tjsIdleMarkYield = false\n\tjsTaskStart = nanotime()\n"},
	{"runtime/lock_js.go",
		"func setEventHandler(fn func() bool) {\n\teventHandler = fn\n}\n",
		"func setEventHandler(fn func() bool) {\n\teventHandler = fn\n}\n" + jsIdleMarkSource},
}

// jsIdleMarkSource is the code the edits add to runtime/lock_js.go.
const jsIdleMarkSource = `
// Added by yarnplay's browser build (build/site/gcslices.go): the idle
// and fractional mark workers mark in slices, and the background sweeper
// sweeps in slices, letting the browser run in between.

// jsIdleMarkSlice is how long a mark worker marks before it yields, and
// jsIdleMarkGap how long the browser has before marking resumes; after
// jsIdleMarkRun of marking in slices so close together, the browser has
// jsIdleMarkFrameGap, a frame's time, so that it renders one (it runs
// the timer's tasks before it renders, and the frame came late).
const (
	jsIdleMarkSlice    = 3e6  // ns
	jsIdleMarkGap      = 1e6  // ns
	jsIdleMarkRun      = 9e6  // ns
	jsIdleMarkFrameGap = 17e6 // ns
)

// jsMarkRun is the marking done in slices since the last frame's gap.
var jsMarkRun int64

// jsAssistMaxWork is the most scan work (bytes) an assist does at a time,
// about 2 ms of marking in a browser: a goroutine with more debt waits for
// the mark workers' slices to pay it.
const jsAssistMaxWork = 512 << 10

// jsIdleMarkYield is set when a mark worker has used its slice, and
// cleared by the next call from the browser: until then no mark worker
// starts again.
var jsIdleMarkYield bool

// jsTaskStart is when the browser last called into Go.
var jsTaskStart int64

// jsMarkSliceUsed reports whether the running mark worker has used its
// slice by now, and if so sets jsIdleMarkYield.
func jsMarkSliceUsed(now int64) bool {
	if d := now - getg().m.p.ptr().gcMarkWorkerStartTime; d >= jsIdleMarkSlice {
		jsIdleMarkYield = true
		jsMarkRun += d
		return true
	}
	return false
}

// jsSweepYield lets the browser run once the call from the browser under
// way has run for jsIdleMarkSlice. Goroutines that allocate sweep what
// they need, so the background sweeper may wait.
func jsSweepYield() {
	if nanotime()-jsTaskStart >= jsIdleMarkSlice {
		timeSleep(jsIdleMarkGap)
	}
}

// jsPollIdleMark is the idle mark worker's check: it stops for other
// goroutines, as pollWork, and after jsIdleMarkSlice.
func jsPollIdleMark() bool {
	return pollWork() || jsMarkSliceUsed(nanotime())
}

// jsMarking reports whether the collector is marking. yarnplay's page
// reads it (as runtime.jsMarking) to let a mark end before it runs the
// scheduler; the build sets the tag yarnplay_gcslices when these edits
// apply.
//
//go:linkname jsMarking
func jsMarking() bool { return gcphase != _GCoff }

// jsIdleMarkResume returns pollUntil brought forward to jsIdleMarkGap
// from now (jsIdleMarkFrameGap after jsIdleMarkRun of marking), so that
// the browser calls back to go on marking.
func jsIdleMarkResume(pollUntil int64) int64 {
	gap := int64(jsIdleMarkGap)
	if jsMarkRun >= jsIdleMarkRun {
		gap, jsMarkRun = jsIdleMarkFrameGap, 0
	}
	at := nanotime() + gap
	if pollUntil == 0 || pollUntil > at {
		return at
	}
	return pollUntil
}
`

// goEnv is what `go env -json GOROOT GOVERSION` says.
type goEnv struct {
	GOROOT, GOVERSION string
}

// runtimeOverlay writes the runtime's edited files and an overlay file
// naming them into dir, and returns the overlay's path for `go build
// -overlay`. If the edits do not apply to the Go toolchain at hand, it
// returns "" and a warning saying why.
func runtimeOverlay(ctx context.Context, root, dir string) (overlay, warning string, err error) {
	cmd := exec.CommandContext(ctx, "go", "env", "-json", "GOROOT", "GOVERSION")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return "", "", fmt.Errorf("finding the Go toolchain with `go env`: %w", err)
	}
	var env goEnv
	if err := json.Unmarshal(out, &env); err != nil || env.GOROOT == "" {
		return "", "", fmt.Errorf("finding the Go toolchain: `go env -json` gave no GOROOT")
	}
	files, err := patchRuntime(filepath.Join(env.GOROOT, "src"), env.GOVERSION)
	if err != nil {
		return "", err.Error() + "; app.wasm is built without it, and the page pauses for each whole garbage collection", nil
	}
	replace := map[string]string{}
	for rel, data := range files {
		copyPath := filepath.Join(dir, strings.ReplaceAll(rel, "/", "_"))
		if err := os.WriteFile(copyPath, data, 0o644); err != nil {
			return "", "", fmt.Errorf("writing the runtime's edited %s: %w", rel, err)
		}
		replace[filepath.Join(env.GOROOT, "src", filepath.FromSlash(rel))] = copyPath
	}
	data, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return "", "", err
	}
	overlay = filepath.Join(dir, "runtime-overlay.json")
	if err := os.WriteFile(overlay, data, 0o644); err != nil {
		return "", "", fmt.Errorf("writing the runtime overlay: %w", err)
	}
	return overlay, "", nil
}

// patchRuntime applies runtimePatches to the sources under src (a
// GOROOT's src directory, of Go version, such as "go1.26.8") and returns the edited files by their path
// under src. It reads, and never writes, src.
func patchRuntime(src, version string) (map[string][]byte, error) {
	files := map[string][]byte{}
	for _, p := range runtimePatches {
		data, ok := files[p.file]
		if !ok {
			var err error
			data, err = os.ReadFile(filepath.Join(src, filepath.FromSlash(p.file)))
			if err != nil {
				return nil, fmt.Errorf("%s: reading the runtime for the browser build's edit: %w", version, err)
			}
		}
		if n := bytes.Count(data, []byte(p.old)); n != 1 {
			return nil, patchMismatch(p, version+"'s runtime", "runtimePatches in build/site/gcslices.go", n)
		}
		files[p.file] = bytes.Replace(data, []byte(p.old), []byte(p.new), 1)
	}
	return files, nil
}

// GCSlicesTag is the build tag of a browser build whose runtime has the
// edits of runtimePatches, and so runtime.jsMarking.
const GCSlicesTag = "yarnplay_gcslices"
