package site

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/stretchr/testify/require"
)

func TestAccepts(t *testing.T) {
	tests := []struct {
		header, token string
		want          bool
	}{
		{"gzip, deflate, br, zstd", "br", true},
		{"gzip, deflate, br, zstd", "gzip", true},
		{"gzip", "br", false},
		{"", "gzip", false},
		{"identity", "gzip", false},
		{"br;q=0, gzip", "br", false},
		{"br;q=0.0, gzip;q=0.5", "gzip", true},
		{"BR", "br", true},
		{"*", "br", true},
		{"*;q=0", "gzip", false},
		{"gzip;q=0, *", "gzip", false},
		{"*, gzip;q=0", "gzip", false},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, accepts(tt.header, tt.token), "Accept-Encoding %q, %s", tt.header, tt.token)
	}
}

// inflate decodes a gzip or brotli copy.
func inflate(t *testing.T, token string, data []byte) []byte {
	t.Helper()
	var r io.Reader
	switch token {
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(data))
		require.NoError(t, err)
		r = zr
	case "br":
		r = brotli.NewReader(bytes.NewReader(data))
	}
	out, err := io.ReadAll(r)
	require.NoError(t, err)
	return out
}

func TestPrecompressWritesSmallerCopies(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("<p>the same line, again and again</p>\n", 200)
	files := map[string]string{
		"index.html":   big,
		"web/app.wasm": "\x00asm" + big,
		"web/tiny.css": "body{}",
		"web/icon.png": big,
	}
	for f, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	// A copy left from an earlier build of a file now too small to compress.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "web", "tiny.css.br"), []byte("old"), 0o644))

	require.NoError(t, Precompress(dir, FastCompression))

	for _, f := range []string{"index.html", "web/app.wasm"} {
		for _, enc := range encodings {
			data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)+enc.suffix))
			require.NoError(t, err, "%s has no %s copy", f, enc.token)
			require.Less(t, len(data), len(files[f]))
			require.Equal(t, files[f], string(inflate(t, enc.token, data)))
		}
	}
	for _, f := range []string{"web/tiny.css.br", "web/tiny.css.gz", "web/icon.png.br", "web/icon.png.gz"} {
		require.NoFileExists(t, filepath.Join(dir, filepath.FromSlash(f)))
	}

	// The copies are derived: the site's version ignores them.
	v, err := Version(filepath.Join(dir, WebDir))
	require.NoError(t, err)
	for _, f := range []string{"web/app.wasm.br", "web/app.wasm.gz"} {
		require.NoError(t, os.Remove(filepath.Join(dir, filepath.FromSlash(f))))
	}
	again, err := Version(filepath.Join(dir, WebDir))
	require.NoError(t, err)
	require.Equal(t, v, again)
}

func TestHandlerServesPrecompressedCopies(t *testing.T) {
	dir := t.TempDir()
	page := strings.Repeat("<p>pre-rendered</p>\n", 200)
	wasm := "\x00asm" + strings.Repeat("code", 500)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "web"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "lessons"), 0o755))
	for f, body := range map[string]string{"index.html": page, "lessons/a.html": page, "web/app.wasm": wasm} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, filepath.FromSlash(f)), []byte(body), 0o644))
	}
	require.NoError(t, Precompress(dir, FastCompression))
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()

	get := func(path, acceptEncoding string) (*http.Response, []byte) {
		req, err := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		require.NoError(t, err)
		// Set explicitly, the header also stops the client from
		// decompressing on its own.
		req.Header.Set("Accept-Encoding", acceptEncoding)
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, res.StatusCode)
		return res, body
	}
	tests := []struct{ path, accept, encoding, contentType, body string }{
		{"/", "gzip, deflate, br", "br", "text/html; charset=utf-8", page},
		{"/lessons/a", "gzip, deflate, br", "br", "text/html; charset=utf-8", page},
		{"/web/app.wasm", "gzip, deflate, br", "br", "application/wasm", wasm},
		{"/web/app.wasm", "gzip", "gzip", "application/wasm", wasm},
		{"/web/app.wasm", "identity", "", "application/wasm", wasm},
	}
	for _, tt := range tests {
		res, body := get(tt.path, tt.accept)
		require.Equal(t, tt.encoding, res.Header.Get("Content-Encoding"), "%s with %q", tt.path, tt.accept)
		require.Equal(t, tt.contentType, res.Header.Get("Content-Type"), tt.path)
		require.Equal(t, "Accept-Encoding", res.Header.Get("Vary"), tt.path)
		if tt.encoding != "" {
			body = inflate(t, tt.encoding, body)
		}
		require.Equal(t, tt.body, string(body), "%s with %q", tt.path, tt.accept)
	}

	// A binary rebuilt after its copies were made is served as it is.
	later := time.Now().Add(time.Minute)
	require.NoError(t, os.Chtimes(filepath.Join(dir, "web", "app.wasm"), later, later))
	res, body := get("/web/app.wasm", "gzip, br")
	require.Empty(t, res.Header.Get("Content-Encoding"))
	require.Equal(t, wasm, string(body))
}

func TestGzipBestCompressionRoundTrips(t *testing.T) {
	// Something like a binary: repetitive, with varied bytes.
	var data []byte
	for i := 0; i < 20000; i++ {
		data = append(data, byte(i), byte(i>>3), byte(i*7), 'x', 'y', byte(i%13))
	}
	best, err := Gzip(data, BestCompression)
	require.NoError(t, err)
	require.Equal(t, data, inflate(t, "gzip", best))
	fast, err := Gzip(data, FastCompression)
	require.NoError(t, err)
	require.Equal(t, data, inflate(t, "gzip", fast))
	require.LessOrEqual(t, len(best), len(fast))
	if _, err := exec.LookPath(LibdeflateGzip); err != nil {
		t.Logf("%s is not installed: BestCompression used compress/gzip", LibdeflateGzip)
		return
	}
	std, err := GzipLevel(data, gzip.BestCompression)
	require.NoError(t, err)
	require.Equal(t, data, inflate(t, "gzip", std))
	require.Less(t, len(best), len(std), "libdeflate's level 12 beats compress/gzip's best")
}
