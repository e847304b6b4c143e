package site

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/andybalholm/brotli"
)

// Compression is how hard Precompress works.
type Compression int

const (
	// FastCompression takes a second or two for the whole site: for
	// development (`go run ./build run`).
	FastCompression Compression = iota
	// BestCompression is gzip's and brotli's best, for the site one deploys
	// (`go run ./build static`): libdeflate's gzip at level 12 where it is
	// installed (LibdeflateGzip), else compress/gzip's level 9. Brotli's
	// quality 11 takes about 40 s on app.wasm, for a file 13% smaller than
	// quality 9's.
	BestCompression
)

// Encodings of the precompressed copies, in the order Handler prefers them:
// the Content-Encoding token and the suffix of the copy.
var encodings = []struct{ token, suffix string }{
	{"br", ".br"},
	{"gzip", ".gz"},
}

// minCompressBytes is the smallest file worth a compressed copy.
const minCompressBytes = 1024

// compressible names the extensions of the files worth compressing (text
// and WebAssembly; images such as PNG are compressed already).
var compressible = map[string]bool{
	".html": true, ".js": true, ".css": true, ".svg": true,
	".wasm": true, ".webmanifest": true, ".json": true,
}

// Precompress writes beside every compressible file of at least 1 KiB
// under dist a gzip copy (name.gz) and a brotli copy (name.br), which
// Handler serves to browsers that accept them (as static hosts that
// support precompressed files do). A copy that would not be smaller is not
// written, and an older one is removed.
func Precompress(dist string, c Compression) error {
	return filepath.WalkDir(dist, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("compressing the site: %w", err)
		}
		if d.IsDir() || !compressible[filepath.Ext(path)] || hidden(path) {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("compressing the site: %w", err)
		}
		for _, enc := range encodings {
			var z []byte
			if len(data) >= minCompressBytes {
				if z, err = compress(enc.token, data, c); err != nil {
					return fmt.Errorf("compressing %s: %w", path, err)
				}
			}
			out := path + enc.suffix
			if len(z) == 0 || len(z) >= len(data) {
				if err := os.Remove(out); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return fmt.Errorf("removing an old compressed copy: %w", err)
				}
				continue
			}
			if err := writeFile(out, z); err != nil {
				return fmt.Errorf("writing a compressed copy: %w", err)
			}
		}
		return nil
	})
}

// isCompressedCopy reports whether the file is a compressed copy that
// Precompress wrote.
func isCompressedCopy(path string) bool {
	for _, enc := range encodings {
		if strings.HasSuffix(path, enc.suffix) {
			return true
		}
	}
	return false
}

// compress encodes data with gzip or brotli ("gzip", "br").
func compress(token string, data []byte, c Compression) ([]byte, error) {
	var b bytes.Buffer
	var w io.WriteCloser
	switch token {
	case "gzip":
		if c != BestCompression {
			return GzipLevel(data, gzip.DefaultCompression)
		}
		if z, ok := libdeflateGzip(data); ok {
			return z, nil
		}
		return GzipLevel(data, gzip.BestCompression)
	case "br":
		quality := 5
		if c == BestCompression {
			quality = brotli.BestCompression
		}
		w = brotli.NewWriterLevel(&b, quality)
	default:
		return nil, fmt.Errorf("unknown encoding %q", token)
	}
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// LibdeflateGzip is the gzip compressor of libdeflate (Debian's
// libdeflate-tools), whose level 12 searches harder than any level of
// gzip(1) or compress/gzip: app.wasm comes out 4% smaller than at their
// best, in a standard gzip stream any browser reads, in about 3 seconds.
const LibdeflateGzip = "libdeflate-gzip"

// libdeflateGzip compresses data with libdeflate-gzip -12 if that command
// is on PATH; ok is false if it is not or fails, and compress then uses
// compress/gzip's best level.
func libdeflateGzip(data []byte) (z []byte, ok bool) {
	path, err := exec.LookPath(LibdeflateGzip)
	if err != nil {
		return nil, false
	}
	cmd := exec.Command(path, "-12", "-c")
	cmd.Stdin = bytes.NewReader(data)
	out, err := cmd.Output()
	if err != nil || len(out) == 0 {
		return nil, false
	}
	return out, true
}

// GzipLevel returns data gzipped by compress/gzip at the level given.
func GzipLevel(data []byte, level int) ([]byte, error) {
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, level)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(data); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Gzip returns data gzipped as Precompress writes it at level c.
func Gzip(data []byte, c Compression) ([]byte, error) { return compress("gzip", data, c) }

// accepts reports whether an Accept-Encoding header accepts the encoding
// token: named without q=0, or else covered by "*" without q=0.
func accepts(header, token string) bool {
	wildcard := false
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(part, ";")
		name = strings.TrimSpace(name)
		q, hasQ := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q=")
		ok := !hasQ || strings.Trim(q, "0.") != ""
		switch {
		case strings.EqualFold(name, token):
			return ok
		case name == "*":
			wildcard = ok
		}
	}
	return wildcard
}
