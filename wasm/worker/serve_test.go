//go:build js && wasm

package worker

import (
	"runtime"
	"syscall/js"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/protocol"
	"yarnplay/scenarios/lessons"
	"yarnplay/wasm/bridge"
)

// TestTheSavedWorkSentOnceGoListensIsOpenedAhead runs the worker's loop
// as web/worker.js does (under Node, in a scope of its own), with
// the page's head's saved work coming once Go listens rather than before
// (a worker quicker to start than the head's read of localStorage): the
// worker opens it ahead of the page's command to open it, whose reply is
// the saved work, as when it came first.
func TestTheSavedWorkSentOnceGoListensIsOpenedAhead(t *testing.T) {
	const slug = "user-limits"
	sc, err := lessons.Load(slug)
	require.NoError(t, err)
	s := store.New()
	require.NoError(t, s.Load(sc, slug))
	s.Jump(2)
	st := bridge.NewMemoryStorage()
	require.NoError(t, s.Save(st))
	saved, ok, err := st.Get(store.SaveKey)
	require.NoError(t, err)
	require.True(t, ok)

	w := newWorkerScope()
	w.send(map[string]any{"prepare": saved, "slug": ""})
	w.command(t, 1, protocol.Command{Op: protocol.OpOpen, Saved: saved})

	var rr protocol.ReplyReader
	id, rep, err := rr.Decode(<-w.posted)
	require.NoError(t, err)
	require.Equal(t, uint32(1), id)
	require.Empty(t, rep.Err)
	require.True(t, protocol.OpenedOf(rep).Restored, "the saved work opened")
	require.Equal(t, 2, rep.Frame.Step, "at its step")
	require.Equal(t, 1, w.count("yarnplay:load worker prepare"), "the worker opened the saved work ahead of the page's command")
}

// workerScope is a worker's global scope of a test's own, for serve: what
// the worker posts goes to posted, and its performance counts its
// measures by name. (The worker goes on after the test, blocked on its
// next message: its functions are never released.)
type workerScope struct {
	g      js.Value
	perf   js.Value
	posted chan []byte
}

func newWorkerScope() *workerScope {
	w := &workerScope{posted: make(chan []byte, 16)}
	w.g = js.Global().Get("Object").New()
	w.g.Set("postMessage", js.FuncOf(func(_ js.Value, args []js.Value) any {
		w.posted <- bytesOf(args[0])
		return nil
	}))
	w.perf = js.Global().Get("Function").New(`const real = performance; return {
  counts: {},
  now() { return real.now(); },
  measure(name) { this.counts[name] = (this.counts[name] || 0) + 1; },
};`).Invoke()
	w.g.Set("performance", w.perf)
	go serve(w.g)
	for !w.g.Get("onmessage").Truthy() {
		time.Sleep(time.Millisecond)
	}
	return w
}

// send is the page posting data to the worker.
func (w *workerScope) send(data any) {
	w.g.Get("onmessage").Invoke(map[string]any{"data": data})
	runtime.Gosched() // its turn, before the next message
}

// command sends c as the page's command id.
func (w *workerScope) command(t *testing.T, id uint32, c protocol.Command) {
	b, err := protocol.EncodeCommand(id, c)
	require.NoError(t, err)
	arr := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(arr, b)
	w.send(arr)
}

// count is how many measures named name the worker made.
func (w *workerScope) count(name string) int {
	n := w.perf.Get("counts").Get(name)
	if n.IsUndefined() {
		return 0
	}
	return n.Int()
}

// The worker plays the step → goes to next once the page says it has drawn
// the reply of the last command ({drawn: id}), so that the page's render
// has the machine to itself: not before, not for another command's reply,
// and not when the page's next command comes first (that command goes at
// once instead).
func TestTheNextStepIsPlayedAheadOnceThePageHasDrawn(t *testing.T) {
	defer func(d time.Duration) { aheadAfter = d }(aheadAfter)
	aheadAfter = time.Hour // the page always says it drew
	w := newWorkerScope()
	var rr protocol.ReplyReader
	reply := func(want uint32) *store.Frame {
		t.Helper()
		for {
			id, rep, err := rr.Decode(<-w.posted)
			require.NoError(t, err)
			if id == 0 {
				continue // unasked (the worker's quiet work)
			}
			require.Equal(t, want, id)
			require.Empty(t, rep.Err)
			return rr.Last()
		}
	}
	const played = "yarnplay:ahead"
	idle := func() { time.Sleep(30 * time.Millisecond) } // the worker's timers run

	w.command(t, 1, protocol.Command{Op: protocol.OpOpen, Name: lessons.Default()})
	require.Equal(t, 0, reply(1).Step)
	idle()
	require.Zero(t, w.count(played), "nothing played while the page draws")
	w.send(map[string]any{"drawn": 9})
	idle()
	require.Zero(t, w.count(played), "nothing played for another command's reply")
	w.send(map[string]any{"drawn": 1})
	require.Eventually(t, func() bool { return w.count(played) == 1 }, 10*time.Second, time.Millisecond,
		"step 1 played once the page drew step 0")

	w.command(t, 2, protocol.Command{Op: protocol.OpForward})
	require.Equal(t, 1, reply(2).Step)
	w.command(t, 3, protocol.Command{Op: protocol.OpForward}) // before the page drew step 1
	require.Equal(t, 2, reply(3).Step)
	w.send(map[string]any{"drawn": 2})
	idle()
	require.Equal(t, 1, w.count(played), "nothing played for the reply the next command replaced")
	w.send(map[string]any{"drawn": 3})
	require.Eventually(t, func() bool { return w.count(played) == 2 }, 10*time.Second, time.Millisecond,
		"step 3 played once the page drew step 2")
	w.command(t, 4, protocol.Command{Op: protocol.OpForward})
	require.Equal(t, 3, reply(4).Step)
}
