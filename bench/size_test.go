package bench

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
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

// firstTree is the first queue row the playground renders.
const firstTree = `#queue-tree li.queue`

// wasmSizes builds the site's app.wasm (as `go run ./build wasm` does) into
// dist and returns its size raw, gzipped (best compression) and
// brotli-compressed (quality 11), as a static host would serve it.
func wasmSizes(tb testing.TB, dist string, withBrotli bool) (raw, gz, br int) {
	tb.Helper()
	ctx := context.Background()
	root, err := site.ModuleRoot(ctx)
	require.NoError(tb, err)
	var out bytes.Buffer
	require.NoError(tb, site.BuildWasm(ctx, root, dist, &out), "building app.wasm:\n%s", out.String())
	data, err := os.ReadFile(site.WasmPath(dist))
	require.NoError(tb, err)
	var zb bytes.Buffer
	zw, err := gzip.NewWriterLevel(&zb, gzip.BestCompression)
	require.NoError(tb, err)
	_, err = zw.Write(data)
	require.NoError(tb, err)
	require.NoError(tb, zw.Close())
	if withBrotli {
		bw := brotli.NewWriterLevel(io.Discard, brotli.BestCompression)
		cw := &countingWriter{w: bw}
		bw.Reset(cw)
		_, err = bw.Write(data)
		require.NoError(tb, err)
		require.NoError(tb, bw.Close())
		br = cw.n
	}
	return len(data), zb.Len(), br
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
	raw, gz, _ := wasmSizes(t, t.TempDir(), false)
	t.Logf("app.wasm: %d bytes, %d gzipped (budget %d)", raw, gz, budget)
	require.LessOrEqual(t, gz, budget, "app.wasm gzipped is %d bytes, over the budget of %d in build/wasm-size-budget.txt: make it smaller, or raise the budget in the same change and say why", gz, budget)
}

// BenchmarkSize is benchmark 6: app.wasm gzipped and brotli-compressed,
// and the time from navigation to the first rendered queue tree on
// 127.0.0.1 in headless Chromium with a fresh profile (cold), then after
// a reload (warm: the browser's caches are filled).
func BenchmarkSize(b *testing.B) {
	b.StopTimer()
	dist := b.TempDir()
	raw, gz, br := wasmSizes(b, dist, true)
	b.ReportMetric(float64(raw)/1e6, "MB-raw")
	b.ReportMetric(float64(gz)/1e6, "MB-gzip")
	b.ReportMetric(float64(br)/1e6, "MB-brotli")
	root, err := site.ModuleRoot(context.Background())
	require.NoError(b, err)
	require.NoError(b, site.GenerateStatic(root, dist))
	srv := httptest.NewServer(site.Handler(dist))
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	tab, closeTab := newChromium(b, ctx)
	defer closeTab()
	require.NoError(b, chromedp.Do(tab, chromedp.EmulateViewport(1280, 900)))
	for _, run := range []string{"cold", "warm"} {
		start := time.Now()
		err := chromedp.Do(tab, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(firstTree)))
		require.NoError(b, err, "the queue tree did not render")
		b.ReportMetric(float64(time.Since(start).Milliseconds()), "ms-first-tree-"+run)
	}
}
