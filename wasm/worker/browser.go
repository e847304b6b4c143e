//go:build js && wasm

package worker

import (
	"errors"
	"syscall/js"

	"yarnplay/app/store"
	"yarnplay/protocol"
)

// InWorker reports whether the program runs in a Web Worker: there is no
// document, and importScripts is there.
func InWorker() bool {
	g := js.Global()
	return g.Get("document").IsUndefined() && g.Get("importScripts").Type() == js.TypeFunction
}

// Serve applies the page's commands to a new store, one after another,
// and posts back each reply; it never returns. Messages that came before
// it listened (web/worker.js keeps them in self.early) go first.
func Serve() {
	sv := protocol.NewServer(store.New())
	var rw protocol.ReplyWriter
	var paint canvasPainter
	in := make(chan message, 16)
	g := js.Global()
	onMessage := js.FuncOf(func(_ js.Value, args []js.Value) any {
		data := args[0].Get("data")
		if cv := data.Get("canvas"); cv.Truthy() {
			// The page's node canvas, to paint from now on (OpCanvas
			// says how), taken in turn with the commands.
			go func() { in <- message{canvas: cv} }()
			return nil
		}
		b := bytesOf(data)
		go func() { in <- message{b: b} }()
		return nil
	})
	g.Set("onmessage", onMessage)
	if early := g.Get("early"); early.Truthy() {
		for i := range early.Length() {
			b := bytesOf(early.Index(i))
			go func() { in <- message{b: b} }()
		}
		g.Set("early", js.Undefined())
	}
	for m := range in {
		if m.b == nil {
			paint.take(m.canvas)
			continue
		}
		id, cmd, err := protocol.DecodeCommand(m.b)
		var rep protocol.Reply
		if err != nil {
			rep.Err = err.Error()
		} else {
			if cmd.Op == protocol.OpResync {
				rw.Reset()
			}
			rep = sv.Handle(cmd)
		}
		post(g, rw.Encode(id, rep))
		// The reply goes first: the page shows the step while its nodes
		// are painted.
		paint.paint(sv.Shown(), sv.Canvas())
	}
}

// message is one of the page's: a command's bytes, or else its node
// canvas.
type message struct {
	b      []byte
	canvas js.Value
}

// bytesOf copies a Uint8Array (or an ArrayBuffer) into Go.
func bytesOf(v js.Value) []byte {
	if v.InstanceOf(js.Global().Get("ArrayBuffer")) {
		v = js.Global().Get("Uint8Array").New(v)
	}
	b := make([]byte, v.Get("length").Int())
	js.CopyBytesToGo(b, v)
	return b
}

// post posts b to target as a Uint8Array, its buffer transferred.
func post(target js.Value, b []byte) {
	arr := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(arr, b)
	target.Call("postMessage", arr, []any{arr.Get("buffer")})
}

// client is the page's end: it posts commands to the worker and hands
// each reply, decoded, to the UI goroutine.
type client struct {
	w       js.Value
	post    func(func())
	rr      protocol.ReplyReader
	next    uint32
	waiting map[uint32]func(protocol.Reply)
	fn      js.Func
}

// NewClient starts the worker (script: ScriptPath under the site's root
// prefix) and returns the page's client of it; post runs a function on the page's UI goroutine (and renders the
// page after it), where replies are decoded and handed over in order.
func NewClient(script string, postUI func(func())) protocol.Client {
	c := &client{post: postUI, waiting: map[uint32]func(protocol.Reply){}}
	c.w = js.Global().Get("Worker").New(script)
	c.fn = js.FuncOf(func(_ js.Value, args []js.Value) any {
		b := bytesOf(args[0].Get("data"))
		c.post(func() { c.receive(b) })
		return nil
	})
	c.w.Set("onmessage", c.fn)
	return c
}

// Worker returns the page's Worker object (a js.Value), to hand it what
// only postMessage carries (the node canvas).
func (c *client) Worker() any { return c.w }

// Send posts c to the worker; done gets its reply.
func (c *client) Send(cmd protocol.Command, done func(protocol.Reply)) {
	c.next++
	id := c.next
	data, err := protocol.EncodeCommand(id, cmd)
	if err != nil {
		c.post(func() { done(protocol.Reply{Err: err.Error()}) })
		return
	}
	c.waiting[id] = done
	post(c.w, data)
}

// receive decodes a reply and hands it to its command's done.
func (c *client) receive(b []byte) {
	id, rep, err := c.rr.Decode(b)
	done, ok := c.waiting[id]
	if !ok {
		return
	}
	delete(c.waiting, id)
	if errors.Is(err, protocol.ErrResync) {
		// Later frames would change frames the page no longer holds:
		// the command's answer is lost, and the frame it left comes
		// whole instead.
		c.Send(protocol.Command{Op: protocol.OpResync}, done)
		return
	}
	if err != nil {
		rep = protocol.Reply{Err: "the simulation's reply does not read: " + err.Error()}
	}
	if done != nil {
		done(rep)
	}
}
