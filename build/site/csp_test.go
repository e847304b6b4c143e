package site

import (
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/app"
)

// ownWorkHash is the CSP source of app.OwnWorkScript's text, computed here
// apart from InlineScriptHashes.
func ownWorkHash() string {
	js := strings.TrimSuffix(strings.TrimPrefix(app.OwnWorkScript, "<script>"), "</script>")
	sum := sha256.Sum256([]byte(js))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

func TestContentSecurityPolicyAllowsOnlyTheSitesScript(t *testing.T) {
	page := []byte(`<head><script defer src="/app.js"></script>` + app.OwnWorkScript + `<script>b()</script>` + app.OwnWorkScript)
	hashes := InlineScriptHashes(page)
	require.Len(t, hashes, 2, "each inline script once, external ones not")
	require.Contains(t, hashes, ownWorkHash())

	p := ContentSecurityPolicy(hashes, false)
	require.Contains(t, p, "script-src 'self' 'wasm-unsafe-eval' '")
	require.Contains(t, p, "worker-src 'self'")
	require.Contains(t, p, "object-src 'none'")
	require.NotContains(t, p, "unsafe-inline'; script", "no inline script but by hash")
	require.NotContains(t, strings.SplitN(strings.Split(p, "script-src")[1], ";", 2)[0], "unsafe-inline")
	require.NotContains(t, p, "frame-ancestors", "a meta tag cannot say it")
	require.Contains(t, ContentSecurityPolicy(hashes, true), "frame-ancestors 'none'")
}

func TestStaticPagesCarryTheirPolicyAndServeWithHeaders(t *testing.T) {
	dist := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dist, WebDir), 0o755))
	require.NoError(t, os.WriteFile(WasmPath(dist), []byte("\x00asm fake"), 0o644))
	require.NoError(t, GenerateStatic(moduleRoot(t), dist))
	require.NoError(t, GenerateStatic(moduleRoot(t), dist), "building twice writes one policy")

	pages := 0
	require.NoError(t, filepath.WalkDir(dist, func(path string, d os.DirEntry, err error) error {
		if err != nil || filepath.Ext(path) != ".html" {
			return err
		}
		pages++
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		page := string(b)
		require.Equal(t, 1, strings.Count(page, `http-equiv="Content-Security-Policy"`), path)
		meta := strings.Index(page, `http-equiv="Content-Security-Policy"`)
		require.Less(t, meta, strings.Index(page, "<script"), "the policy comes before any script: %s", path)
		require.Contains(t, page, ownWorkHash(), path)
		return nil
	}))
	require.Greater(t, pages, 5)

	srv := httptest.NewServer(Handler(dist))
	defer srv.Close()
	for _, p := range []string{"/", "/lessons/preemption", "/web/app.css", "/app.js"} {
		res, err := http.Get(srv.URL + p)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		require.Equal(t, http.StatusOK, res.StatusCode, p)
		require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"), p)
		require.Equal(t, "DENY", res.Header.Get("X-Frame-Options"), p)
		if strings.HasSuffix(res.Header.Get("Content-Type"), "charset=utf-8") && strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
			csp := res.Header.Get("Content-Security-Policy")
			require.Contains(t, csp, ownWorkHash(), p)
			require.Contains(t, csp, "frame-ancestors 'none'", p)
		}
	}
}
