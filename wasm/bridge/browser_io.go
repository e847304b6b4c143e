//go:build js && wasm

package bridge

import (
	"errors"
	"fmt"

	"github.com/hack-pad/safejs"
)

// SystemClipboard returns navigator.clipboard.
func SystemClipboard() Clipboard { return browserClipboard{} }

// Downloads returns a Downloader that saves through a Blob and an object
// URL.
func Downloads() Downloader { return browserDownloads{} }

// Files returns a FileReader over the page's <input type="file"> elements.
func Files() FileReader { return browserFiles{} }

// PageKeyboard returns the document's keydown events.
func PageKeyboard() Keyboard { return browserKeyboard{} }

// global returns globalThis[name], or an error when it is missing.
func global(name string) (safejs.Value, error) {
	v, err := safejs.Global().Get(name)
	if err != nil {
		return safejs.Value{}, fmt.Errorf("%s: %w", name, err)
	}
	if v.IsUndefined() || v.IsNull() {
		return safejs.Value{}, fmt.Errorf("%s is not available in this page", name)
	}
	return v, nil
}

type browserClipboard struct{}

func (browserClipboard) WriteText(text string) error {
	nav, err := global("navigator")
	if err != nil {
		return err
	}
	cb, err := nav.Get("clipboard")
	if err != nil || cb.IsUndefined() || cb.IsNull() {
		return errors.New("the clipboard is not available in this page (it needs https or localhost)")
	}
	p, err := cb.Call("writeText", text)
	if err != nil {
		return fmt.Errorf("navigator.clipboard.writeText: %w", err)
	}
	// A refusal (no permission, page not focused) rejects the promise
	// later: swallow it, the link stays on screen to copy by hand.
	ignore, err := safejs.FuncOf(func(safejs.Value, []safejs.Value) any { return nil })
	if err == nil {
		_, _ = p.Call("catch", ignore)
	}
	return nil
}

type browserDownloads struct{}

func (browserDownloads) Download(name, mime string, data []byte) error {
	u8, err := global("Uint8Array")
	if err != nil {
		return err
	}
	arr, err := u8.New(len(data))
	if err != nil {
		return fmt.Errorf("Uint8Array: %w", err)
	}
	if _, err := safejs.CopyBytesToJS(arr, data); err != nil {
		return fmt.Errorf("copying the file: %w", err)
	}
	blobType, err := global("Blob")
	if err != nil {
		return err
	}
	opts, err := safejs.ValueOf(map[string]any{"type": mime})
	if err != nil {
		return err
	}
	parts, err := safejs.ValueOf([]any{safejs.Unsafe(arr)})
	if err != nil {
		return err
	}
	blob, err := blobType.New(parts, opts)
	if err != nil {
		return fmt.Errorf("Blob: %w", err)
	}
	urlType, err := global("URL")
	if err != nil {
		return err
	}
	href, err := urlType.Call("createObjectURL", blob)
	if err != nil {
		return fmt.Errorf("URL.createObjectURL: %w", err)
	}
	doc, err := global("document")
	if err != nil {
		return err
	}
	a, err := doc.Call("createElement", "a")
	if err != nil {
		return err
	}
	body, err := doc.Get("body")
	if err != nil {
		return err
	}
	for k, v := range map[string]any{"href": href, "download": name} {
		if err := a.Set(k, v); err != nil {
			return err
		}
	}
	if err := a.Set("hidden", true); err != nil {
		return err
	}
	if _, err := body.Call("appendChild", a); err != nil {
		return err
	}
	if _, err := a.Call("click"); err != nil {
		return fmt.Errorf("starting the download: %w", err)
	}
	_, _ = a.Call("remove")
	// Revoke once the browser has started the download.
	var revoke safejs.Func
	revoke, err = safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
		_, _ = urlType.Call("revokeObjectURL", href)
		revoke.Release()
		return nil
	})
	if err == nil {
		if st, err := global("setTimeout"); err == nil {
			_, _ = st.Invoke(revoke, 10000)
		}
	}
	return nil
}

type browserFiles struct{}

func (b browserFiles) ReadFile(inputID string, done func(string, []byte, error)) {
	b.ReadFiles(inputID, func(files []File, err error) {
		if err != nil {
			done("", nil, err)
			return
		}
		done(files[0].Name, files[0].Data, nil)
	})
}

func (browserFiles) ReadFiles(inputID string, done func([]File, error)) {
	fail := func(err error) { done(nil, err) }
	doc, err := global("document")
	if err != nil {
		fail(err)
		return
	}
	input, err := doc.Call("getElementById", inputID)
	if err != nil || input.IsNull() || input.IsUndefined() {
		fail(fmt.Errorf("no file input %q in the page", inputID))
		return
	}
	files, err := input.Get("files")
	if err != nil {
		fail(err)
		return
	}
	n, err := files.Length()
	if err != nil || n == 0 {
		fail(errNoFile)
		return
	}
	out := make([]File, n)
	left, failed := n, false
	for i := range n {
		file, err := files.Index(i)
		if err != nil {
			fail(err)
			return
		}
		readBytes(file, func(name string, data []byte, err error) {
			if failed {
				return
			}
			if err != nil {
				failed = true
				fail(err)
				return
			}
			out[i] = File{Name: name, Data: data}
			if left--; left == 0 {
				done(out, nil)
			}
		})
	}
}

// readBytes reads one File object of the page as bytes, as they are: its
// text is the parser's to decode (an XML file may declare ISO-8859-1 or be
// UTF-16).
func readBytes(file safejs.Value, done func(string, []byte, error)) {
	nameV, _ := file.Get("name")
	name, _ := nameV.String()
	fail := func(err error) { done(name, nil, err) }
	frType, err := global("FileReader")
	if err != nil {
		fail(err)
		return
	}
	fr, err := frType.New()
	if err != nil {
		fail(err)
		return
	}
	var onload, onerror safejs.Func
	release := func() { onload.Release(); onerror.Release() }
	onload, err = safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
		defer release()
		res, err := fr.Get("result")
		if err != nil {
			fail(err)
			return nil
		}
		data, err := fileBytes(res)
		if err != nil {
			fail(err)
			return nil
		}
		done(name, data, nil)
		return nil
	})
	if err != nil {
		fail(err)
		return
	}
	onerror, err = safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
		defer release()
		fail(fmt.Errorf("the file %s cannot be read", name))
		return nil
	})
	if err != nil {
		onload.Release()
		fail(err)
		return
	}
	_ = fr.Set("onload", onload)
	_ = fr.Set("onerror", onerror)
	if _, err := fr.Call("readAsArrayBuffer", file); err != nil {
		release()
		fail(fmt.Errorf("FileReader.readAsArrayBuffer: %w", err))
	}
}

type browserKeyboard struct{}

func (browserKeyboard) Listen(fn func(Key) bool) func() {
	doc, err := global("document")
	if err != nil {
		return func() {}
	}
	str := func(v safejs.Value, p string) string {
		x, err := v.Get(p)
		if err != nil {
			return ""
		}
		s, _ := x.String()
		return s
	}
	flag := func(v safejs.Value, p string) bool {
		x, err := v.Get(p)
		if err != nil {
			return false
		}
		b, _ := x.Bool()
		return b
	}
	handler, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		if len(args) == 0 {
			return nil
		}
		e := args[0]
		k := Key{Key: str(e, "key"), Ctrl: flag(e, "ctrlKey"), Meta: flag(e, "metaKey"), Alt: flag(e, "altKey"), Repeat: flag(e, "repeat")}
		if t, err := e.Get("target"); err == nil && !t.IsNull() && !t.IsUndefined() {
			k.Typing = IsTypingTarget(str(t, "tagName"), flag(t, "isContentEditable"))
		}
		if fn(k) {
			_, _ = e.Call("preventDefault")
		}
		return nil
	})
	if err != nil {
		return func() {}
	}
	if _, err := doc.Call("addEventListener", "keydown", handler); err != nil {
		handler.Release()
		return func() {}
	}
	return func() {
		_, _ = doc.Call("removeEventListener", "keydown", handler)
		handler.Release()
	}
}

// fileBytes copies a FileReader's ArrayBuffer result into Go.
func fileBytes(buf safejs.Value) ([]byte, error) {
	u8, err := global("Uint8Array")
	if err != nil {
		return nil, err
	}
	arr, err := u8.New(buf)
	if err != nil {
		return nil, fmt.Errorf("Uint8Array: %w", err)
	}
	n, err := arr.Length()
	if err != nil {
		return nil, err
	}
	data := make([]byte, n)
	if _, err := safejs.CopyBytesToGo(data, arr); err != nil {
		return nil, err
	}
	return data, nil
}
