package site

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// tempPrefix starts the names of the files a build writes before moving
// them into place. They are hidden (CopyAssets, Version and Precompress
// pass hidden files over) and removed by the build that made them, unless
// it was killed outright.
const tempPrefix = ".yarnplay-tmp-"

// writeFile writes data to path as a whole or not at all: into a
// temporary file beside it, then renamed over it, so that a build that
// is interrupted leaves either the old file or the new one, never half
// of one.
func writeFile(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), tempPrefix+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// moveTree moves every file under src to the same place under dst, each
// with one rename (src and dst are on one file system), creating the
// directories it needs: the files of a finished stage replace the old
// ones one by one, each whole.
func moveTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if err := os.Rename(path, target); err != nil {
			return fmt.Errorf("moving %s into place: %w", target, err)
		}
		return nil
	})
}

// hidden reports whether a file's name starts with a dot (the build's
// temporary files, editors' and the system's own).
func hidden(path string) bool {
	return strings.HasPrefix(filepath.Base(path), ".")
}
