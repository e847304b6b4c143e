//go:build js && wasm

package worker

import (
	"errors"
	"runtime/debug"
	"syscall/js"
	"time"

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
func Serve() { serve(js.Global()) }

// serve is Serve in the worker whose global scope is g (the tests give it
// one of their own).
func serve(g js.Value) {
	perf := g.Get("performance")
	loadMeasure(perf, "worker go", 0)
	sv := protocol.NewServer(store.New())
	var rw protocol.ReplyWriter
	var out []byte // the last reply's bytes, posted as a copy (post)
	var paint canvasPainter
	in := make(chan message, 16)
	drew := make(chan uint32, 16)
	// openAhead opens the saved work the page's head sent before the page
	// could ask (EarlyScript), ahead of the commands
	// (protocol.Server.Prepare, which does nothing once one was handled).
	openAhead := func(v js.Value) {
		start := perf.Call("now").Float()
		prepare(sv, v.Get("prepare").String(), v.Get("slug").String())
		loadMeasure(perf, "worker prepare", start)
	}
	onMessage := js.FuncOf(func(_ js.Value, args []js.Value) any {
		data := args[0].Get("data")
		if isPrepare(data) {
			// The head's saved work, come once Go listens: the worker
			// was ready before the head had read it from localStorage
			// (a slow first read, or a worker quick to start). It goes
			// in turn with the page's commands, which come after it.
			go func() { in <- message{prepare: data} }()
			return nil
		}
		if d := data.Get("drawn"); d.Type() == js.TypeNumber {
			// The page has drawn the reply to command d (client.Drawn):
			// not a command, it waits for none.
			id := uint32(d.Int())
			go func() { drew <- id }()
			return nil
		}
		if cv := data.Get("canvas"); cv.Truthy() {
			// The page's node canvas, to paint from now on (OpCanvas
			// says how), taken in turn with the commands.
			go func() { in <- message{canvas: cv} }()
			return nil
		}
		m := message{b: bytesOf(data), at: perf.Call("now").Float()}
		go func() { in <- m }()
		return nil
	})
	g.Set("onmessage", onMessage)
	if early := g.Get("early"); early.Truthy() {
		for i := range early.Length() {
			if v := early.Index(i); isPrepare(v) {
				openAhead(v)
				continue
			}
			b := bytesOf(early.Index(i))
			go func() { in <- message{b: b} }()
		}
		g.Set("early", js.Undefined())
	}
	// quietPart does a part of the server's work for when the page is
	// quiet (protocol.Server.QuietPart): the saved work's later steps
	// (measured, "worker rest"), a part of catching up, or the
	// checkpoint due. The canvas first, then what the page gets of it,
	// unasked.
	quietPart := func() {
		rest, start := sv.Unread(), perf.Call("now").Float()
		if rep, done := sv.QuietPart(); done {
			paint.paint(sv.Painted(), sv.Canvas())
			out = rw.AppendEncode(out[:0], 0, rep)
			post(g, out)
		}
		if rest {
			loadMeasure(perf, "worker rest", start)
		}
	}
	// ahead plays the next step ahead (Server.Ahead), a "yarnplay:ahead"
	// measure when it does.
	ahead := func() {
		start := perf.Call("now").Float()
		if sv.Ahead() {
			measureAt(perf, "yarnplay:ahead", start, perf.Call("now").Float())
		}
	}
	measured := 0
	pause := catchUpAfter
	// aheadFor is the command whose reply the page is drawing, once the
	// frame shown is kept: the next step is played ahead (Server.Ahead)
	// once the page says it has drawn the reply (or aheadAfter went by),
	// so that the page's render has the machine to itself.
	var aheadFor uint32
	for {
		var m message
		if aheadFor != 0 {
			select {
			case m = <-in:
				aheadFor = 0 // a command came first: it goes instead
			case id := <-drew:
				if id == aheadFor { // (not an earlier reply's)
					aheadFor = 0
					ahead()
				}
				continue
			case <-time.After(aheadAfter):
				aheadFor = 0
				ahead()
				continue
			}
		} else if sv.QuietWork() {
			// Once the page has been quiet for a while, the server does
			// its work for then a part at a time, each part letting the
			// page's messages in (a timer returns to the browser's event
			// loop): the page shows a step kept while the canvas shows
			// another, and the store goes there; or the store takes the
			// checkpoint the last step called for.
			got := false
			select {
			case m = <-in:
				got = true
			case <-time.After(pause):
				select {
				case m = <-in:
					got = true
				default:
				}
			}
			if !got {
				pause = time.Millisecond
				quietPart()
				continue
			}
		} else {
			m = <-in
		}
		pause = catchUpAfter
		if sv.Unread() {
			pause = yieldPause // the page has drawn the step (restAfter)
		}
		if m.prepare.Truthy() {
			openAhead(m.prepare)
			continue
		}
		if m.b == nil {
			paint.take(m.canvas)
			continue
		}
		start := perf.Call("now").Float()
		id, cmd, err := protocol.DecodeCommand(m.b)
		if err == nil && cmd.Op != protocol.OpCanvas && sv.Unread() {
			// The command needs the saved work's later steps: they
			// are read first, and what the page gets of them goes
			// before its reply.
			quietPart()
		}
		var rep protocol.Reply
		if err != nil {
			rep.Err = err.Error()
		} else {
			if cmd.Op == protocol.OpResync {
				rw.Reset()
			}
			rep = sv.Handle(cmd)
		}
		handled := perf.Call("now").Float()
		out = rw.AppendEncode(out[:0], id, rep)
		post(g, out)
		if measured < loadCommands {
			// The first commands are the opening's: how long each
			// waited, took and took to encode and post, for benchmark 5.
			measured++
			name := "worker " + string(cmd.Op)
			loadMeasureAt(perf, name+" waited", m.at, start)
			loadMeasureAt(perf, name, start, handled)
			loadMeasure(perf, name+" posted", handled)
		}
		if sv.Unread() && cmd.Op == protocol.OpOpen {
			// The saved work opened ahead in two parts shows its step:
			// its other steps are read once the page has drawn it (its
			// next message, its canvas, comes then), or restAfter
			// after the opening, so that the page's first render has
			// the machine to itself; a command that comes first reads
			// them first.
			pause = restAfter
		}
		// The reply goes first: the page shows the step while its nodes
		// are painted. The page's next command, which may already be on
		// its way (a key pressed as the step showed), goes before the
		// painting and the keeping of the frame shown: each waits for
		// the browser's turn, and a command that came meanwhile is
		// handled first (its own reply paints the nodes of its step).
		if yieldTo(in) {
			continue
		}
		paint.paint(sv.Painted(), sv.Canvas())
		if yieldTo(in) {
			continue
		}
		sv.Compact(&rw) // keeping the frame shown, while the page draws it
		// The step → goes to next, played once the page has drawn this
		// one, while the learner reads it: → is then answered from the
		// kept frames.
		aheadFor = id
	}
}

// aheadAfter is how long the worker waits for the page to say it has
// drawn a reply (client.Drawn) before it plays the next step ahead anyway:
// a reply that brought no new frame is not drawn. (A variable: the tests
// wait longer.)
var aheadAfter = 50 * time.Millisecond

// restAfter is how long after the opening's reply the worker waits for
// the page to draw the step before it reads the saved work's later steps
// (protocol.Server.ReadRest): about the page's first render of a big
// cluster, which the reading would otherwise share the machine with.
const restAfter = 300 * time.Millisecond

// yieldTo lets the worker's event loop run (the messages that came while
// the worker was busy reach in) and reports whether a message waits.
func yieldTo(in chan message) bool {
	time.Sleep(yieldPause)
	return len(in) > 0
}

// yieldPause is the timer that returns the worker to its event loop: the
// shortest a browser gives.
const yieldPause = time.Millisecond

// catchUpAfter is how long the page must be quiet before the worker does
// the server's work for then (Server.QuietWork): a checkpoint due, or the
// state of a step shown from a kept frame rebuilt (Server.CatchUp):
// a part (a checkpoint's clone, a tick of ten thousand nodes) takes
// hundreds of milliseconds, up to a second on a busy machine, which a step
// back pressed right after the last (once the page has drawn it) would
// wait for.
const catchUpAfter = time.Second

// message is one of the page's: a command's bytes and when it came (the
// worker's clock, ms), or else its node canvas, or else the saved work its
// head sent ({prepare: saved, slug: lesson}, isPrepare).
type message struct {
	b       []byte
	at      float64
	canvas  js.Value
	prepare js.Value
}

// loadCommands is how many of the first commands the worker measures
// (loadMeasure).
const loadCommands = 4

// loadMeasure puts a phase of the opening on the worker's performance
// timeline, as a "yarnplay:load <name>" measure from start (its clock,
// in ms) to now: benchmark 5 logs them (bench/playground_load_test.go).
func loadMeasure(perf js.Value, name string, start float64) {
	loadMeasureAt(perf, name, start, perf.Call("now").Float())
}

// loadMeasureAt is loadMeasure from start to end.
func loadMeasureAt(perf js.Value, name string, start, end float64) {
	measureAt(perf, "yarnplay:load "+name, start, end)
}

// measureAt puts a performance measure named name from start to end (the
// worker's clock, ms) on the worker's timeline.
func measureAt(perf js.Value, name string, start, end float64) {
	perf.Call("measure", name, map[string]any{"start": start, "end": end})
}

// prepare opens the saved work ahead (protocol.Server.Prepare) with the
// collector running a fifth as often: opening a big scenario allocates
// much that it soon drops (the decoded document), and a fifth of its time
// went to collecting at Go's default. The memory limit bounds what it may
// take meanwhile; both come back after.
func prepare(sv *protocol.Server, saved, slug string) {
	defer debug.SetGCPercent(debug.SetGCPercent(500))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 30))
	sv.Prepare(saved, slug)
}

// isPrepare reports whether a message is the saved work the page's head
// sends ahead ({prepare: saved, slug: lesson}), not a command's bytes.
func isPrepare(v js.Value) bool {
	return v.Type() == js.TypeObject && v.Get("prepare").Type() == js.TypeString && v.Get("slug").Type() == js.TypeString
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
	// pushed gets the replies the worker posts unasked (id 0).
	pushed func(protocol.Reply)
	// later are the replies waiting to be handed over in a task of
	// their own (handOver), oldest first.
	later []func()
	// last is the command whose reply came last.
	last uint32
}

// Drawn tells the worker that the page has drawn the last reply's frame:
// the worker plays the next step ahead then, not while the page draws.
func (c *client) Drawn() {
	if c.last != 0 {
		c.w.Call("postMessage", map[string]any{"drawn": c.last})
	}
}

// OnPush has fn get the replies the simulation posts unasked (the frame
// shown again once the node canvas caught up: protocol.Server.CatchUp),
// on the page's UI goroutine.
func (c *client) OnPush(fn func(protocol.Reply)) { c.pushed = fn }

// NewClient starts the worker (script: ScriptPath under the site's root
// prefix), or takes the one the page's head started (EarlyScript), and
// returns the page's client of it; post runs a function on the page's UI goroutine (and renders the
// page after it), where replies are decoded and handed over in order.
func NewClient(script string, postUI func(func())) protocol.Client {
	c := &client{post: postUI, waiting: map[uint32]func(protocol.Reply){}}
	if w := js.Global().Get(EarlyGlobal); w.Truthy() && w.InstanceOf(js.Global().Get("Worker")) {
		// The page's head started it (EarlyScript): it is loading, and
		// maybe opening the saved work, already.
		c.w = w
		js.Global().Delete(EarlyGlobal)
	} else {
		c.w = js.Global().Get("Worker").New(script)
	}
	c.fn = js.FuncOf(func(_ js.Value, args []js.Value) any {
		// The reply is decoded here, in the message's own task (c.rr is
		// this callback's: the replies come one at a time, in order),
		// and handed to the UI goroutine, which draws it (handOver).
		start := time.Now()
		id, rep, err := c.rr.Decode(bytesOf(args[0].Get("data")))
		c.handOver(func() { c.receive(id, rep, err) }, time.Since(start))
		return nil
	})
	c.w.Set("onmessage", c.fn)
	return c
}

// handOver hands a decoded reply to the UI goroutine, which draws it at
// once, in the task the reply arrived in (the browser build's go-app
// renders in the dispatch's task: build/site's goAppTrim), so that the
// browser shows it in its next frame. A reply whose decoding took longer
// than splitAfter (a tick of a big cluster) is handed over in a task of
// its own instead, after the browser's turn: decoding and drawing it in
// one task would make one task over 50 ms where two shorter ones run.
// The replies after it wait their turn: they reach the UI goroutine in
// the order they came. (The page's goroutines take turns only where they
// block, so c.later needs no lock.)
func (c *client) handOver(fn func(), took time.Duration) {
	if len(c.later) == 0 && took < splitAfter {
		c.post(fn)
		return
	}
	c.later = append(c.later, fn)
	if len(c.later) > 1 {
		return
	}
	go func() {
		time.Sleep(yieldPause) // a timer: the browser's turn first
		later := c.later
		c.later = nil
		for _, fn := range later {
			c.post(fn)
		}
	}()
}

// splitAfter is how long a reply's decoding may take for the page to draw
// it in the same task: half a frame.
const splitAfter = 8 * time.Millisecond

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

// receive hands a decoded reply (or its error) to its command's done, or
// to pushed when the worker posted it unasked (id 0).
func (c *client) receive(id uint32, rep protocol.Reply, err error) {
	if id == 0 {
		// Unasked; one that does not read leaves the page without the
		// frames the next are deltas of: it asks for the frame whole.
		switch {
		case errors.Is(err, protocol.ErrResync):
			c.Send(protocol.Command{Op: protocol.OpResync}, c.pushed)
		case err == nil && c.pushed != nil:
			c.pushed(rep)
		}
		return
	}
	done, ok := c.waiting[id]
	if !ok {
		return
	}
	delete(c.waiting, id)
	c.last = id
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
