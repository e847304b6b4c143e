package site

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// contentTypes are set explicitly: the system's MIME tables vary, and
// browsers only stream-compile WebAssembly served as application/wasm.
var contentTypes = map[string]string{
	".wasm":        "application/wasm",
	".webmanifest": "application/manifest+json",
	".js":          "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".svg":         "image/svg+xml",
	".html":        "text/html; charset=utf-8",
	".json":        "application/json",
}

// Handler serves the static site in dir as a static host would: files as
// they are, "/page" from "page.html" when there is no file "page", with
// explicit content types and no caching (for development: every reload gets
// the newest build). A file's precompressed copy (Precompress: name.br,
// name.gz) is served instead, with its Content-Encoding, to a browser that
// accepts it, unless the copy is older than the file.
func Handler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := path.Clean("/" + r.URL.Path)
		if p != "/" && path.Ext(p) == "" {
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
				if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p)+".html")); err == nil {
					r2 := r.Clone(r.Context())
					r2.URL.Path = p + ".html"
					p = r2.URL.Path
					r = r2
				}
			}
		}
		ext := path.Ext(p)
		if p == "/" || strings.HasSuffix(p, "/") {
			ext = ".html"
		}
		if ct, ok := contentTypes[ext]; ok {
			w.Header().Set("Content-Type", ct)
		}
		w.Header().Set("Cache-Control", "no-cache")
		name := p
		if strings.HasSuffix(name, "/") {
			name += "index.html"
		}
		var page []byte
		if ext == ".html" {
			page, _ = os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		}
		SetSecurityHeaders(w.Header(), page)
		if servePrecompressed(w, r, filepath.Join(dir, filepath.FromSlash(name))) {
			return
		}
		files.ServeHTTP(w, r)
	})
}

// servePrecompressed serves the compressed copy of file the request
// accepts, if there is one as new as the file, and reports whether it did.
func servePrecompressed(w http.ResponseWriter, r *http.Request, file string) bool {
	orig, err := os.Stat(file)
	if err != nil || orig.IsDir() {
		return false
	}
	vary := false
	for _, enc := range encodings {
		st, err := os.Stat(file + enc.suffix)
		if err != nil || st.IsDir() || st.ModTime().Before(orig.ModTime()) {
			continue
		}
		if !vary {
			w.Header().Add("Vary", "Accept-Encoding")
			vary = true
		}
		if !accepts(r.Header.Get("Accept-Encoding"), enc.token) {
			continue
		}
		f, err := os.Open(file + enc.suffix)
		if err != nil {
			return false
		}
		defer f.Close()
		w.Header().Set("Content-Encoding", enc.token)
		http.ServeContent(w, r, filepath.Base(file), st.ModTime(), f)
		return true
	}
	return false
}

// Serve serves the site in dir on addr (host:port; port 0 picks a free one)
// until ctx is done. Once it listens it calls ready with the site's address,
// such as "http://127.0.0.1:8080/".
func Serve(ctx context.Context, addr, dir string, ready func(url string)) error {
	if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
		return fmt.Errorf("%s has no index.html: build the site first with `go run ./build wasm && go run ./build static` (or `go run ./build run`)", dir)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w (is the port taken? pick another with -addr, or PORT= with make)", addr, err)
	}
	srv := &http.Server{Handler: Handler(dir), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	if ready != nil {
		ready(URL(ln.Addr()))
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(shutdown); err != nil {
			return err
		}
		if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}

// URL is the http address of a listener, with an unspecified host (":8080",
// "0.0.0.0") shown as 127.0.0.1 so that it can be opened as printed.
func URL(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return "http://" + a.String() + "/"
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}
