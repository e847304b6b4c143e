package bridge

import "strings"

// Clipboard writes text to the system clipboard.
type Clipboard interface {
	// WriteText puts text on the clipboard. The browser's write finishes
	// later; an error here means the page has no clipboard at all.
	WriteText(text string) error
}

// Downloader saves bytes as a file the user downloads.
type Downloader interface {
	// Download offers data as a file called name of the given MIME type.
	Download(name, mime string, data []byte) error
}

// FileReader reads the file a user chose in an <input type="file">.
type FileReader interface {
	// ReadFile reads the first file chosen in the input element with the
	// given id and calls done with its name and text, or an error. In the
	// browser done runs later, on a JavaScript callback: the caller hands
	// the result to its UI goroutine.
	ReadFile(inputID string, done func(name string, data []byte, err error))
	// ReadFiles reads every file chosen in the input element with the
	// given id, in the order chosen, and calls done once with them all,
	// or with the first error.
	ReadFiles(inputID string, done func(files []File, err error))
}

// Key is a key press the page listens to.
type Key struct {
	// Key is the KeyboardEvent's key: " ", "ArrowLeft", "Home", "r", "?".
	Key string
	// Ctrl, Meta and Alt are the modifiers held; shortcuts ignore keys
	// pressed with them.
	Ctrl, Meta, Alt bool
	// Typing is true when the key went to a text field, a select or an
	// editable element: shortcuts must ignore it.
	Typing bool
	// Repeat is true when the key is held down and this press is the
	// browser's repetition of it (KeyboardEvent.repeat).
	Repeat bool
}

// Keyboard delivers the page's key presses.
type Keyboard interface {
	// Listen calls fn for every key pressed until stop is called. fn returns
	// true when it handled the key, which stops the browser's own action
	// (Space scrolling the page). In the browser fn runs on the JavaScript
	// event callback: it must decide quickly and hand work to the UI
	// goroutine.
	Listen(fn func(Key) bool) (stop func())
}

// File is a file held in memory: one a MemoryDownloader received, or one
// a MemoryFileReader returns.
type File struct {
	Name, MIME string
	Data       []byte
}

// MemoryClipboard is a Clipboard that keeps the last text written.
type MemoryClipboard struct{ Text string }

// WriteText implements Clipboard.
func (c *MemoryClipboard) WriteText(text string) error {
	c.Text = text
	return nil
}

// MemoryDownloader is a Downloader that keeps the files offered.
type MemoryDownloader struct{ Files []File }

// Download implements Downloader.
func (d *MemoryDownloader) Download(name, mime string, data []byte) error {
	d.Files = append(d.Files, File{Name: name, MIME: mime, Data: append([]byte(nil), data...)})
	return nil
}

// MemoryFileReader is a FileReader whose inputs hold files set in code.
// done is called at once.
type MemoryFileReader struct {
	Inputs map[string]File
	// Multi holds the inputs where several files are chosen.
	Multi map[string][]File
}

// ReadFile implements FileReader.
func (r *MemoryFileReader) ReadFile(inputID string, done func(string, []byte, error)) {
	f, ok := r.Inputs[inputID]
	if !ok {
		done("", nil, errNoFile)
		return
	}
	done(f.Name, append([]byte(nil), f.Data...), nil)
}

// ReadFiles implements FileReader: an input holds one file here.
func (r *MemoryFileReader) ReadFiles(inputID string, done func([]File, error)) {
	if fs, ok := r.Multi[inputID]; ok {
		out := make([]File, len(fs))
		for i, f := range fs {
			out[i] = File{Name: f.Name, MIME: f.MIME, Data: append([]byte(nil), f.Data...)}
		}
		done(out, nil)
		return
	}
	r.ReadFile(inputID, func(name string, data []byte, err error) {
		if err != nil {
			done(nil, err)
			return
		}
		done([]File{{Name: name, Data: data}}, nil)
	})
}

type noFileError struct{}

func (noFileError) Error() string { return "no file chosen" }

var errNoFile error = noFileError{}

// MemoryKeyboard is a Keyboard whose keys are pressed in code (Press).
type MemoryKeyboard struct {
	listeners map[int]func(Key) bool
	next      int
}

// Listen implements Keyboard.
func (k *MemoryKeyboard) Listen(fn func(Key) bool) func() {
	if k.listeners == nil {
		k.listeners = map[int]func(Key) bool{}
	}
	id := k.next
	k.next++
	k.listeners[id] = fn
	return func() { delete(k.listeners, id) }
}

// Press delivers a key to the listeners and reports whether one handled it.
func (k *MemoryKeyboard) Press(key Key) bool {
	handled := false
	for i := 0; i < k.next; i++ {
		if fn, ok := k.listeners[i]; ok && fn(key) {
			handled = true
		}
	}
	return handled
}

// IsTypingTarget reports whether an element of this tag name (any case)
// takes typed text, so that shortcuts must leave its keys alone.
func IsTypingTarget(tag string, editable bool) bool {
	switch strings.ToLower(tag) {
	case "input", "textarea", "select":
		return true
	}
	return editable
}
