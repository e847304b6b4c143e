package worker

import "yarnplay/app/store"

// PaintNodes paints a frame's nodes for the page's node canvas (width CSS
// pixels of room, the dark palette or not, the node named focus
// outlined), in buf when it is large enough, and says the picture's size.
// The program sets it (app.PaintNodes) before Serve: the worker knows no
// views of its own.
var PaintNodes func(buf []byte, f *store.Frame, width int, dark bool, focus string) (pix []byte, w, h int)
