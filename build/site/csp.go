package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// inlineScript matches a script element without a src: its text is what a
// Content-Security-Policy hash is of. go-app writes every external script
// as <script defer src=...>, so this is the pages' inline script (the
// head's OwnWorkScript).
var inlineScript = regexp.MustCompile(`(?s)<script>(.*?)</script>`)

// InlineScriptHashes returns the CSP sources ('sha256-…') of the inline
// scripts of an HTML page, sorted, each once.
func InlineScriptHashes(page []byte) []string {
	var out []string
	for _, m := range inlineScript.FindAllSubmatch(page, -1) {
		sum := sha256.Sum256(m[1])
		h := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
		if !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	slices.Sort(out)
	return out
}

// ContentSecurityPolicy is the policy of a page whose inline scripts have
// the given hashes: everything from the site's own origin, no inline
// script but those, no plugins, no <base> and no form posting elsewhere;
// WebAssembly may compile ('wasm-unsafe-eval') and the page may start
// workers of its own (worker-src, for the simulation's Web Worker and
// go-app's service worker). Styles may be inline: the views set custom
// properties in style attributes (a queue's hue, a bar's width), and the
// pre-rendered page's noscript rule is a <style>. header adds what only a
// header can say (a meta tag's frame-ancestors is ignored): no framing.
func ContentSecurityPolicy(hashes []string, header bool) string {
	script := append([]string{"'self'", "'wasm-unsafe-eval'"}, hashes...)
	p := []string{
		"default-src 'self'",
		"script-src " + strings.Join(script, " "),
		"worker-src 'self'",
		"style-src 'self' 'unsafe-inline'",
		"img-src 'self'",
		"connect-src 'self'",
		"manifest-src 'self'",
		"object-src 'none'",
		"base-uri 'none'",
		"form-action 'none'",
	}
	if header {
		p = append(p, "frame-ancestors 'none'")
	}
	return strings.Join(p, "; ")
}

// SetSecurityHeaders sets the headers every response of the site carries:
// no content sniffing, no framing (X-Frame-Options for browsers without
// frame-ancestors), and for a page, its Content-Security-Policy.
func SetSecurityHeaders(h http.Header, page []byte) {
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	if page != nil {
		h.Set("Content-Security-Policy", ContentSecurityPolicy(InlineScriptHashes(page), true))
	}
}

// charsetMeta is where the policy's meta tag goes: first in the head,
// before any script, as go-app writes it.
var charsetMeta = []byte(`<meta charset="UTF-8">`)

// addPolicyMeta writes into every page under dir a meta tag with its
// Content-Security-Policy, the hashes computed from the page's own inline
// scripts. A page that has one already is left as it is.
func addPolicyMeta(dir string) error {
	return filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".html" {
			return err
		}
		page, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("reading a pre-rendered page: %w", err)
		}
		if bytes.Contains(page, []byte(`http-equiv="Content-Security-Policy"`)) {
			return nil
		}
		i := bytes.Index(page, charsetMeta)
		if i < 0 {
			return fmt.Errorf("%s has no %s to put its Content-Security-Policy after", path, charsetMeta)
		}
		meta := `<meta http-equiv="Content-Security-Policy" content="` + ContentSecurityPolicy(InlineScriptHashes(page), false) + `">`
		end := i + len(charsetMeta)
		out := slices.Concat(page[:end], []byte("\n    "+meta), page[end:])
		if err := writeFile(path, out); err != nil {
			return fmt.Errorf("writing a pre-rendered page: %w", err)
		}
		return nil
	})
}
