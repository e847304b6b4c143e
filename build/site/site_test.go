package site

import (
	"context"
	"html"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"yarnplay/app"
	"yarnplay/app/store"
	"yarnplay/scenarios/lessons"
)

func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := ModuleRoot(context.Background())
	require.NoError(t, err)
	require.FileExists(t, filepath.Join(root, "go.mod"))
	return root
}

func TestGenerateStaticNeedsTheWasmFirst(t *testing.T) {
	err := GenerateStatic(moduleRoot(t), t.TempDir())
	require.ErrorContains(t, err, "go run ./build wasm")
}

func TestGenerateStaticWritesAStaticSite(t *testing.T) {
	dist := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dist, WebDir), 0o755))
	require.NoError(t, os.WriteFile(WasmPath(dist), []byte("\x00asm fake"), 0o644))

	require.NoError(t, GenerateStatic(moduleRoot(t), dist))

	for _, f := range []string{"index.html", "app.js", "wasm_exec.js", "app-worker.js",
		"manifest.webmanifest", "app.css", "web/app.css", "web/icon.svg", "web/app.wasm"} {
		require.FileExists(t, filepath.Join(dist, filepath.FromSlash(f)))
	}
	index, err := os.ReadFile(filepath.Join(dist, "index.html"))
	require.NoError(t, err)
	page := string(index)
	require.Contains(t, page, `href="/web/app.css"`)
	require.Contains(t, page, "<title>yarnplay")
	require.Contains(t, page, "Starting the scheduler", "the pre-rendered page says the browser is loading")
	require.Contains(t, page, app.OwnWorkScript, "the head hides the lesson from a visitor with work of their own")
	require.Contains(t, page, `rel="preload" href="/web/app.wasm"`)

	appJS, err := os.ReadFile(filepath.Join(dist, "app.js"))
	require.NoError(t, err)
	require.Contains(t, string(appJS), "/web/app.wasm")
	require.Contains(t, string(appJS), `goappWasmContentLength = "9"`, "the loader's progress counts the uncompressed size")
}

// queueTreeOf returns the pre-rendered queue tree of a page: from its list
// to the end of its section.
func queueTreeOf(t *testing.T, page string) string {
	t.Helper()
	start := strings.Index(page, `id="queue-tree"`)
	require.NotEqual(t, -1, start, "the page has no pre-rendered queue tree")
	end := strings.Index(page[start:], "</section>")
	require.NotEqual(t, -1, end)
	return page[start : start+end]
}

func TestGenerateStaticPreRendersTheDefaultQueueTree(t *testing.T) {
	root := moduleRoot(t)
	dist := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dist, WebDir), 0o755))
	require.NoError(t, os.WriteFile(WasmPath(dist), []byte("\x00asm fake"), 0o644))
	require.NoError(t, GenerateStatic(root, dist))
	index, err := os.ReadFile(filepath.Join(dist, "index.html"))
	require.NoError(t, err)
	page := string(index)
	require.Contains(t, page, `class="page playground prerendered"`)
	require.Regexp(t, `<div (class="pg" inert|inert class="pg")>`, page, "the pre-rendered playground is inert")
	require.Contains(t, page, `id="tl-forward"`)
	require.NotRegexp(t, falseBoolean, page, `a boolean attribute written "false" is true in HTML`)
	require.Contains(t, page, `root&#39;s default &#34;*&#34; that`, "attribute values are HTML, not Go strings")

	// Every row of the default lesson's tree, with its numbers, as the
	// golden file shared with package app's tests and the browser tests
	// has them: "  root.a | 60.0% | ... | 600 GB, 480 vcores | ...".
	tree := queueTreeOf(t, page)
	golden, err := os.ReadFile(filepath.Join(root, "testdata", "default-queue-tree.txt"))
	require.NoError(t, err)
	rows := strings.Split(strings.TrimSpace(string(golden)), "\n")[1:]
	require.Len(t, rows, strings.Count(tree, `<li `), "one row per queue, no more")
	for _, line := range rows {
		cells := strings.Split(line, " | ")
		path := strings.TrimSpace(cells[0])
		at := strings.Index(tree, `data-queue="`+path+`"`)
		require.NotEqual(t, -1, at, "no row for %s", path)
		row := tree[at:]
		if next := strings.Index(row[1:], "data-queue="); next >= 0 {
			row = row[:next+1]
		}
		for _, c := range cells[1:] {
			require.Contains(t, row, ">"+c+"<", "row %s", path)
		}
	}
}

func TestGenerateStaticPreRendersEachLesson(t *testing.T) {
	dist := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dist, WebDir), 0o755))
	require.NoError(t, os.WriteFile(WasmPath(dist), []byte("\x00asm fake"), 0o644))
	require.NoError(t, GenerateStatic(moduleRoot(t), dist))
	for _, l := range lessons.All() {
		t.Run(l.Slug, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dist, "lessons", l.Slug+".html"))
			require.NoError(t, err)
			page := string(data)
			require.Contains(t, page, `class="page playground prerendered"`)
			require.Contains(t, page, html.EscapeString(l.Title))

			sc, err := lessons.Load(l.Slug)
			require.NoError(t, err)
			s := store.New()
			require.NoError(t, s.Load(sc, l.Slug))
			tree := queueTreeOf(t, page)
			for _, q := range s.Frame().Queues {
				require.Contains(t, tree, `data-queue="`+q.Path+`"`)
			}
		})
	}
}

func TestVersionIsAContentHash(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, d := range []string{a, b} {
		require.NoError(t, os.WriteFile(filepath.Join(d, "x.css"), []byte("body{}"), 0o644))
	}
	va, err := Version(a)
	require.NoError(t, err)
	vb, err := Version(b)
	require.NoError(t, err)
	require.Equal(t, va, vb)
	require.Len(t, va, 16)

	require.NoError(t, os.WriteFile(filepath.Join(b, "x.css"), []byte("body{ }"), 0o644))
	vb, err = Version(b)
	require.NoError(t, err)
	require.NotEqual(t, va, vb)
}

func TestCopyAssetsSkipsGoAndHiddenFiles(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	for _, f := range []string{"app.css", "embed.go", ".hidden", "img/a.svg"} {
		p := filepath.Join(src, filepath.FromSlash(f))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(f), 0o644))
	}
	require.NoError(t, CopyAssets(src, dst))
	require.FileExists(t, filepath.Join(dst, "app.css"))
	require.FileExists(t, filepath.Join(dst, "img", "a.svg"))
	require.NoFileExists(t, filepath.Join(dst, "embed.go"))
	require.NoFileExists(t, filepath.Join(dst, ".hidden"))
}

func TestHandlerServesAStaticSite(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"index.html":           "<p>home</p>",
		"lesson.html":          "<p>lesson</p>",
		"web/app.wasm":         "\x00asm",
		"web/app.css":          "body{}",
		"app.js":               "//",
		"manifest.webmanifest": "{}",
	}
	for f, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()

	tests := []struct{ path, contentType, body string }{
		{"/", "text/html; charset=utf-8", "<p>home</p>"},
		{"/lesson", "text/html; charset=utf-8", "<p>lesson</p>"},
		{"/web/app.wasm", "application/wasm", "\x00asm"},
		{"/web/app.css", "text/css; charset=utf-8", "body{}"},
		{"/app.js", "text/javascript; charset=utf-8", "//"},
		{"/manifest.webmanifest", "application/manifest+json", "{}"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			res, err := http.Get(srv.URL + tt.path)
			require.NoError(t, err)
			defer res.Body.Close()
			body, err := io.ReadAll(res.Body)
			require.NoError(t, err)
			require.Equal(t, http.StatusOK, res.StatusCode)
			require.Equal(t, tt.contentType, res.Header.Get("Content-Type"))
			require.Equal(t, tt.body, string(body))
		})
	}

	res, err := http.Get(srv.URL + "/missing")
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusNotFound, res.StatusCode)
}

func TestServeStopsWithItsContext(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "index.html"), []byte("hi"), 0o644))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	urls := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, "127.0.0.1:0", dir, func(u string) { urls <- u }) }()

	var url string
	select {
	case url = <-urls:
	case err := <-done:
		t.Fatalf("Serve returned before listening: %v", err)
	}
	res, err := http.Get(url)
	require.NoError(t, err)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, "hi", string(body))

	cancel()
	require.NoError(t, <-done)
}

func TestServeSaysWhatToBuild(t *testing.T) {
	err := Serve(context.Background(), "127.0.0.1:0", t.TempDir(), nil)
	require.ErrorContains(t, err, "go run ./build")
}

func TestURLShowsAnOpenableAddress(t *testing.T) {
	require.Equal(t, "http://127.0.0.1:8080/", URL(&net.TCPAddr{IP: net.IPv4zero, Port: 8080}))
	require.Equal(t, "http://127.0.0.1:8080/", URL(&net.TCPAddr{IP: net.IPv6unspecified, Port: 8080}))
	require.Equal(t, "http://192.0.2.1:80/", URL(&net.TCPAddr{IP: net.ParseIP("192.0.2.1"), Port: 80}))
	require.Equal(t, "http://[::1]:80/", URL(&net.TCPAddr{IP: net.IPv6loopback, Port: 80}))
}

func TestFixPreRenderedWritesWhatTheBrowserSideRenders(t *testing.T) {
	dir := t.TempDir()
	page := `<html><head><script>var a=/\//.test(" x=\"1\"")</script></head><body>` +
		`<button disabled="false" type="button" aria-pressed="false">a</button>` +
		`<option selected="false" value="1">one</option><details open>d</details>` +
		`<a title="the root's \"*\" and C:\\x" href="/x">\"text\"</a></body></html>`
	want := `<html><head><script>var a=/\//.test(" x=\"1\"")</script></head><body>` +
		`<button type="button" aria-pressed="false">a</button>` +
		`<option value="1">one</option><details open>d</details>` +
		`<a title="the root&#39;s &#34;*&#34; and C:\x" href="/x">\"text\"</a></body></html>`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "index.html"), []byte(page), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "app.js"), []byte(`f(" disabled="false")`), 0o644))
	require.NoError(t, fixPreRendered(dir))
	got, err := os.ReadFile(filepath.Join(dir, "index.html"))
	require.NoError(t, err)
	require.Equal(t, want, string(got))
	js, err := os.ReadFile(filepath.Join(dir, "app.js"))
	require.NoError(t, err)
	require.Equal(t, `f(" disabled="false")`, string(js), "only pages are rewritten")
}

// TestWasmLdflagsKeepNamesOnlyWhenAsked checks that app.wasm drops its name
// section (-s) unless KeepNamesEnv asks for it.
func TestWasmLdflagsKeepNamesOnlyWhenAsked(t *testing.T) {
	t.Setenv(KeepNamesEnv, "")
	require.Equal(t, "-ldflags=-s -w", wasmLdflags())
	t.Setenv(KeepNamesEnv, "1")
	require.Equal(t, "-ldflags=-w", wasmLdflags())
}

// TestThreadOrWarnLeavesWhatItCannotThread checks issue 33's rule for
// build/wasmjump: a binary it does not recognise (Go's layout changed, or
// threaded already) gets a warning and stays as Go built it; the build does
// not fail.
func TestThreadOrWarnLeavesWhatItCannotThread(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		warn string
	}{
		{"a module without Go's jump tables", []byte("\x00asm\x01\x00\x00\x00"), "none of its 0 functions has Go's jump table"},
		{"not WebAssembly", []byte("<!doctype html>"), "not a WebAssembly module"},
		{"a code section cut short", []byte("\x00asm\x01\x00\x00\x00\x0a\x05\x01\x03"), "warning: threading the jumps of"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(NoThreadEnv, "")
			path := filepath.Join(t.TempDir(), WasmFile)
			require.NoError(t, os.WriteFile(path, tc.in, 0o644))
			var stderr strings.Builder
			threadOrWarn(path, &stderr)
			require.Contains(t, stderr.String(), "warning: ")
			require.Contains(t, stderr.String(), tc.warn)
			require.Contains(t, stderr.String(), "app.wasm is left as Go built it")
			got, err := os.ReadFile(path)
			require.NoError(t, err)
			require.Equal(t, tc.in, got, "the binary stays as it was")
		})
	}
	t.Run(NoThreadEnv, func(t *testing.T) {
		t.Setenv(NoThreadEnv, "1")
		path := filepath.Join(t.TempDir(), WasmFile)
		require.NoError(t, os.WriteFile(path, []byte("\x00asm\x01\x00\x00\x00"), 0o644))
		var stderr strings.Builder
		threadOrWarn(path, &stderr)
		require.Equal(t, NoThreadEnv+" is set: app.wasm is left as Go built it, its jumps not threaded\n", stderr.String())
	})
}
