package browsertest

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"yarnplay/build/site"
)

// countingWriter counts the bytes of a response's body.
type countingWriter struct {
	http.ResponseWriter
	n *int64
	m *sync.Mutex
}

func (w countingWriter) Write(b []byte) (int, error) {
	w.m.Lock()
	*w.n += int64(len(b))
	w.m.Unlock()
	return w.ResponseWriter.Write(b)
}

// TestBrowserFirstVisitDownloadsOneAppWasm counts the WebAssembly a first
// visit downloads, as served (compressed): the page and the simulation's
// Web Worker run the same app.wasm, which comes once (the worker's fetch
// is answered from the browser's caches), within the budget of 2.5 MB.
func TestBrowserFirstVisitDownloadsOneAppWasm(t *testing.T) {
	requireChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	root, err := site.ModuleRoot(ctx)
	require.NoError(t, err)
	dist := t.TempDir()
	var goOut bytes.Buffer
	require.NoError(t, site.BuildWasm(ctx, root, dist, &goOut), "building app.wasm:\n%s", goOut.String())
	require.NoError(t, site.GenerateStatic(root, dist))
	// Compressed as the build compresses it quickly (make dist compresses
	// harder: smaller still).
	require.NoError(t, site.Precompress(dist, site.FastCompression))
	var mu sync.Mutex
	var wasmBytes int64
	requests := 0
	h := site.Handler(dist)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".wasm") {
			mu.Lock()
			requests++
			mu.Unlock()
			t.Logf("%s %s (Accept-Encoding %q, If-None-Match %q, If-Modified-Since %q)", r.Method, r.URL.Path,
				r.Header.Get("Accept-Encoding"), r.Header.Get("If-None-Match"), r.Header.Get("If-Modified-Since"))
			w = countingWriter{ResponseWriter: w, n: &wasmBytes, m: &mu}
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()

	p, problems := newPage(ctx, t, srv.URL+"/", screenshotDir(t, root))
	p.open(srv.URL + "/")
	p.waitFor(`!!document.querySelector(`+q(liveTree)+`)`, "the live page, its frame from the worker", renderTimeout)
	p.click("#tl-forward")
	p.wait(counter+`.startsWith('step 1 of')`, "a step played in the worker")
	mu.Lock()
	defer mu.Unlock()
	t.Logf("a first visit downloaded %d bytes of WebAssembly in %d requests", wasmBytes, requests)
	require.Positive(t, wasmBytes)
	require.LessOrEqual(t, wasmBytes, int64(2_500_000), "a first visit downloads at most 2.5 MB of WebAssembly")
	require.Empty(t, problems())
}
