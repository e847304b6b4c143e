package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"yarnplay/bench/workload"
	"yarnplay/build/headless"
	"yarnplay/build/site"
	"yarnplay/core"
)

// wasmWarm and wasmTicks are benchmark 4's warm-up and measured ticks.
const wasmWarm, wasmTicks = warmTicks, 20

// goEnv returns a value of `go env`.
func goEnv(b *testing.B, key string) string {
	b.Helper()
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		b.Fatalf("go env %s: %v", key, err)
	}
	return strings.TrimSpace(string(out))
}

// buildHarness compiles ./wasmharness for GOOS=js GOARCH=wasm into dir,
// with app.wasm's compiler flags, and threads its jumps as app.wasm's are
// (unless site.NoThreadEnv is set, as for app.wasm).
func buildHarness(b *testing.B, dir string) string {
	b.Helper()
	out := filepath.Join(dir, "bench.wasm")
	root, err := site.ModuleRoot(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	args := append([]string{"build", "-trimpath"}, site.WasmFlags(root)...)
	cmd := exec.Command("go", append(args, "-o", out, "./wasmharness")...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("building the wasm harness: %v\n%s", err, msg)
	}
	if os.Getenv(site.NoThreadEnv) != "" {
		b.Logf("%s is set: the harness is left as Go built it, its jumps not threaded", site.NoThreadEnv)
		return out
	}
	if _, err := site.ThreadWasm(out); err != nil {
		b.Fatal(err)
	}
	return out
}

// harnessResult finds the harness's RESULT line in its output.
func harnessResult(out string) (workload.HarnessRun, error) {
	for _, line := range strings.Split(out, "\n") {
		if j, ok := strings.CutPrefix(strings.TrimSpace(line), "RESULT "); ok {
			var r workload.HarnessRun
			return r, json.Unmarshal([]byte(j), &r)
		}
	}
	return workload.HarnessRun{}, fmt.Errorf("no RESULT line in the harness's output:\n%s", out)
}

func harnessArgs(level string) []string {
	return []string{"-record", level, "-warm", fmt.Sprint(wasmWarm), "-ticks", fmt.Sprint(wasmTicks)}
}

// runNode runs the harness under Node with Go's wasm_exec_node.js.
func runNode(b *testing.B, wasm, level string) workload.HarnessRun {
	b.Helper()
	execJS := filepath.Join(goEnv(b, "GOROOT"), "lib", "wasm", "wasm_exec_node.js")
	cmd := exec.Command("node", append([]string{execJS, wasm}, harnessArgs(level)...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		b.Fatalf("node %s: %v\n%s", wasm, err, out.String())
	}
	r, err := harnessResult(out.String())
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// harnessPage runs the harness in a dedicated Web Worker, where the
// playground runs its scheduler: the worker (harnessWorker) sends each line
// the program prints, and the page keeps them and sets window.benchDone when
// the program exits.
const harnessPage = `<!doctype html>
<meta charset="utf-8"><title>yarnplay wasm benchmark</title>
<script>
window.benchOut = [];
const w = new Worker("harness.js");
w.onmessage = e => {
  const m = e.data;
  if (m.line !== undefined) { window.benchOut.push(m.line); return; }
  if (m.error !== undefined) { window.benchError = m.error; }
  window.benchDone = true;
};
w.onerror = e => { window.benchError = String(e.message); window.benchDone = true; };
</script>
`

// harnessWorker loads wasm_exec.js (which prints through console.log) and
// the harness, and posts each printed line and the end to the page.
const harnessWorker = `importScripts("wasm_exec.js");
console.log = (...a) => postMessage({line: a.join(" ")});
const go = new Go();
go.argv = ["bench.wasm", ...ARGS];
WebAssembly.instantiateStreaming(fetch("bench.wasm"), go.importObject)
  .then(r => go.run(r.instance))
  .then(() => postMessage({done: true}), e => postMessage({error: String(e)}));
`

// newChromium starts headless Chromium with a fresh profile.
func newChromium(b *testing.B, ctx context.Context) (context.Context, context.CancelFunc) {
	b.Helper()
	if err := headless.Installed(); err != nil {
		b.Skip(err)
	}
	return headless.Start(ctx, b.TempDir())
}

// probedChromium is newChromium with a page of width x height that runs
// the script probe before each document's own scripts.
func probedChromium(b *testing.B, ctx context.Context, width, height int64, probe string) (context.Context, context.CancelFunc) {
	b.Helper()
	tab, closeTab := newChromium(b, ctx)
	err := chromedp.Do(tab, chromedp.EmulateViewport(width, height), chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: probe})
		return err
	}))
	if err != nil {
		closeTab()
		b.Fatalf("preparing Chromium's page: %v", err)
	}
	return tab, closeTab
}

// runChromium runs the harness in a Web Worker of a page of headless
// Chromium, served from 127.0.0.1.
func runChromium(b *testing.B, dir, level string) workload.HarnessRun {
	b.Helper()
	wasmExec, err := os.ReadFile(filepath.Join(goEnv(b, "GOROOT"), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		b.Fatal(err)
	}
	args, _ := json.Marshal(harnessArgs(level))
	worker := strings.Replace(harnessWorker, "...ARGS", "..."+string(args), 1)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, harnessPage)
	})
	mux.HandleFunc("/harness.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprint(w, worker)
	})
	mux.HandleFunc("/wasm_exec.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		_, _ = w.Write(wasmExec)
	})
	mux.HandleFunc("/bench.wasm", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/wasm")
		http.ServeFile(w, r, filepath.Join(dir, "bench.wasm"))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	tab, closeTab := newChromium(b, ctx)
	defer closeTab()
	if err := chromedp.Do(tab, chromedp.Navigate(srv.URL+"/")); err != nil {
		b.Fatalf("Chromium: %v", err)
	}
	if _, err := chromedp.Run(tab, chromedp.Poll[bool]("window.benchDone === true", chromedp.WithPollingInterval(250*time.Millisecond), chromedp.WithPollingTimeout(15*time.Minute))); err != nil {
		b.Fatalf("Chromium: waiting for the harness: %v", err)
	}
	out, err := chromedp.Run(tab, chromedp.Evaluate[string](`(window.benchError ? "ERROR " + window.benchError + "\n" : "") + window.benchOut.join("\n")`))
	if err != nil {
		b.Fatal(err)
	}
	r, err := harnessResult(out)
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// BenchmarkWasm is benchmark 4: benchmark 1 scaled to 5,000 nodes and 500
// leaves, natively, under Node and in a Web Worker of headless Chromium (as
// the playground runs its scheduler) in the same run, with recording off.
// Ratios are wasm time over native time per heartbeat.
func BenchmarkWasm(b *testing.B) {
	b.StopTimer()
	dir := b.TempDir()
	wasm := buildHarness(b, dir)
	sp := workload.Wasm()
	sp.Record = core.RecordNone
	native, err := workload.Measure(sp, wasmWarm, wasmTicks)
	if err != nil {
		b.Fatal(err)
	}
	node := runNode(b, wasm, "none")
	chromium := runChromium(b, dir, "none")
	// Wall time on every side: WebAssembly has no CPU clock.
	b.ReportMetric(native.NsPerHeartbeatWall, "ns/heartbeat-native")
	b.ReportMetric(node.NsPerHeartbeatWall, "ns/heartbeat-node")
	b.ReportMetric(chromium.NsPerHeartbeatWall, "ns/heartbeat-chromium")
	b.ReportMetric(node.NsPerHeartbeatWall/native.NsPerHeartbeatWall, "x-node")
	b.ReportMetric(chromium.NsPerHeartbeatWall/native.NsPerHeartbeatWall, "x-chromium")
	b.ReportMetric(float64(node.AllMaxGCPauseNs)/1e6, "ms-max-gc-pause-node")
	b.ReportMetric(float64(chromium.AllMaxGCPauseNs)/1e6, "ms-max-gc-pause-chromium")
	b.ReportMetric(float64(node.FirstGCPauseNs)/1e6, "ms-first-gc-pause-node")
	b.ReportMetric(float64(chromium.FirstGCPauseNs)/1e6, "ms-first-gc-pause-chromium")
	b.ReportMetric(float64(chromium.MaxTickNs)/1e6, "ms-max-tick-chromium")
	b.ReportMetric(float64(chromium.AllGCs), "gcs-chromium")
	if native.Allocations != node.Allocations || native.Allocations != chromium.Allocations {
		b.Fatalf("the same workload allocated %d containers natively, %d under Node and %d in Chromium", native.Allocations, node.Allocations, chromium.Allocations)
	}
}
