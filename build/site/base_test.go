package site

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestStaticSiteUnderABasePath builds the site for /yarnplay/ and serves
// it there, as a GitHub Pages project site is: every address a page, the
// loader, the manifest and the service worker name is under /yarnplay/
// and answers.
func TestStaticSiteUnderABasePath(t *testing.T) {
	dist := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dist, WebDir), 0o755))
	require.NoError(t, os.WriteFile(WasmPath(dist), []byte("\x00asm fake"), 0o644))
	require.NoError(t, GenerateStaticAt(moduleRoot(t), dist, "/yarnplay/"))

	mux := http.NewServeMux()
	mux.Handle("/yarnplay/", http.StripPrefix("/yarnplay", Handler(dist)))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	get := func(p string) string {
		t.Helper()
		res, err := http.Get(srv.URL + p)
		require.NoError(t, err)
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, res.StatusCode, p)
		return string(b)
	}
	addr := regexp.MustCompile(`(?:href|src)="([^"]*)"`)
	for _, page := range []string{"/yarnplay/", "/yarnplay/lessons/preemption"} {
		html := get(page)
		n := 0
		for _, m := range addr.FindAllStringSubmatch(html, -1) {
			u := m[1]
			if strings.HasPrefix(u, "http") || strings.HasPrefix(u, "#") {
				continue
			}
			require.True(t, strings.HasPrefix(u, "/yarnplay"), "%s names %s, outside /yarnplay/", page, u)
			if u == "/yarnplay" {
				u = "/yarnplay/"
			}
			get(u)
			n++
		}
		require.Greater(t, n, 10, page)
	}
	js := get("/yarnplay/app.js")
	require.Contains(t, js, "/yarnplay/web/app.wasm")
	require.Contains(t, js, "/yarnplay/app-worker.js")
	require.Contains(t, js, `"GOAPP_ROOT_PREFIX":"/yarnplay"`)
	require.Contains(t, get("/yarnplay/manifest.webmanifest"), "/yarnplay/web/icon.svg")
	require.Contains(t, get("/yarnplay/app-worker.js"), "/yarnplay/web/app.css")
}
