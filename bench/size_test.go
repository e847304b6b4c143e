package bench

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"math"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"yarnplay/build/site"
)

// budgetFile holds the most app.wasm may weigh gzipped, in bytes: the
// size it had when the budget was last set, with a little room, so that
// growth is a decision. The target is 2,300,000 bytes.
const budgetFile = "../build/wasm-size-budget.txt"

// firstTree is the first queue row of the page: pre-rendered in the HTML,
// then rendered again by the WebAssembly.
const firstTree = `#queue-tree li.queue`

// interactive is the same row once the app has mounted (the page marks
// its root data-app="live") and rendered the store's first frame.
const interactive = `.playground[data-app="live"] #queue-tree li.queue`

// startProbe runs in the page before its own scripts: it notes the time
// from navigation (performance.now) of the first animation frame after
// the first queue row appears (the frame that paints it) and after the
// page goes live.
const startProbe = `(() => {
  const at = window.__yarnplayStart = {};
  const seen = {};
  const note = (key, sel) => {
    if (seen[key] || !document.querySelector(sel)) return;
    seen[key] = true;
    requestAnimationFrame(t => { at[key] = t; });
  };
  new MutationObserver(() => { note('tree', ` + "`" + firstTree + "`" + `); note('live', ` + "`" + interactive + "`" + `); })
    .observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ['data-app']});
})()`

// wasmSizes builds the site's app.wasm (as `go run ./build wasm` does) into
// dist and returns its size raw, gzipped by compress/gzip at its best
// level, and compressed as `go run ./build static` serves it: gzipped by
// site.Gzip at BestCompression (libdeflate's level 12 where installed) and
// brotli-compressed (quality 11).
func wasmSizes(tb testing.TB, dist string, served bool) (raw, gz, servedGz, br int) {
	tb.Helper()
	ctx := context.Background()
	root, err := site.ModuleRoot(ctx)
	require.NoError(tb, err)
	var out bytes.Buffer
	require.NoError(tb, site.BuildWasm(ctx, root, dist, &out), "building app.wasm:\n%s", out.String())
	data, err := os.ReadFile(site.WasmPath(dist))
	require.NoError(tb, err)
	zb, err := site.GzipLevel(data, gzip.BestCompression)
	require.NoError(tb, err)
	if served {
		z, err := site.Gzip(data, site.BestCompression)
		require.NoError(tb, err)
		servedGz = len(z)
		bw := brotli.NewWriterLevel(io.Discard, brotli.BestCompression)
		cw := &countingWriter{w: bw}
		bw.Reset(cw)
		_, err = bw.Write(data)
		require.NoError(tb, err)
		require.NoError(tb, bw.Close())
		br = cw.n
	}
	return len(data), len(zb), servedGz, br
}

type countingWriter struct {
	w io.Writer
	n int
}

func (c *countingWriter) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }

// TestWasmSizeBudget fails when app.wasm, gzipped, grows past the budget
// in build/wasm-size-budget.txt.
func TestWasmSizeBudget(t *testing.T) {
	b, err := os.ReadFile(budgetFile)
	require.NoError(t, err)
	budget, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(t, err, "%s must hold a number of bytes", budgetFile)
	raw, gz, _, _ := wasmSizes(t, t.TempDir(), false)
	t.Logf("app.wasm: %d bytes, %d gzipped (budget %d)", raw, gz, budget)
	require.LessOrEqual(t, gz, budget, "app.wasm gzipped is %d bytes, over the budget of %d in build/wasm-size-budget.txt: make it smaller, or raise the budget in the same change and say why", gz, budget)
}

// BenchmarkSize is benchmark 6: app.wasm gzipped and brotli-compressed,
// and, on the site `go run ./build run` serves (pre-rendered pages, fast
// precompressed copies) from 127.0.0.1 in headless Chromium with a fresh
// profile (cold), then once more (warm: the browser's caches and go-app's
// service worker are filled), the time from navigation to
//
//   - ms-first-tree: the first frame that paints the queue tree (the
//     pre-rendered one), the figure;
//   - ms-interactive: the first frame after the WebAssembly has mounted
//     the page and rendered the store's first frame.
func BenchmarkSize(b *testing.B) {
	b.StopTimer()
	dist := b.TempDir()
	raw, gz, servedGz, br := wasmSizes(b, dist, true)
	b.ReportMetric(float64(raw)/1e6, "MB-raw")
	b.ReportMetric(float64(gz)/1e6, "MB-gzip9")
	b.ReportMetric(float64(servedGz)/1e6, "MB-gzip")
	b.ReportMetric(float64(br)/1e6, "MB-brotli")
	root, err := site.ModuleRoot(context.Background())
	require.NoError(b, err)
	require.NoError(b, site.GenerateStatic(root, dist))
	require.NoError(b, site.Precompress(dist, site.FastCompression))
	srv := httptest.NewServer(site.Handler(dist))
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	tab, closeTab := probedChromium(b, ctx, 1280, 900, startProbe)
	defer closeTab()
	for _, run := range []string{"cold", "warm"} {
		err := chromedp.Do(tab, chromedp.Navigate(srv.URL+"/"),
			chromedp.WaitVisible(chromedp.CSS(firstTree)), chromedp.WaitVisible(chromedp.CSS(interactive)))
		require.NoError(b, err, "the queue tree did not render")
		at, err := chromedp.Run(tab, chromedp.Poll[map[string]float64](
			`(a => a.tree !== undefined && a.live !== undefined && a)(window.__yarnplayStart)`))
		require.NoError(b, err, "the page did not note its start times")
		b.ReportMetric(math.Round(at["tree"]), "ms-first-tree-"+run)
		b.ReportMetric(math.Round(at["live"]), "ms-interactive-"+run)
	}
}
