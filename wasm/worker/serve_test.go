//go:build js && wasm

package worker

import (
	"runtime"
	"syscall/js"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/protocol"
	"yarnplay/scenarios/lessons"
	"yarnplay/wasm/bridge"
)

// TestTheSavedWorkSentOnceGoListensIsOpenedAhead runs Serve as
// web/worker.js does (under Node, with the worker's globals stubbed), with
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

	g := js.Global()
	replies := make(chan []byte, 8)
	posted := js.FuncOf(func(_ js.Value, args []js.Value) any {
		replies <- bytesOf(args[0])
		return nil
	})
	defer posted.Release()
	g.Set("postMessage", posted)
	g.Set("early", js.ValueOf([]any{})) // web/worker.js kept nothing
	go Serve()
	for !g.Get("onmessage").Truthy() {
		runtime.Gosched()
	}
	send := func(data any) {
		g.Get("onmessage").Invoke(map[string]any{"data": data})
		runtime.Gosched() // its turn, before the next message
	}
	send(map[string]any{"prepare": saved, "slug": ""})
	cmd, err := protocol.EncodeCommand(1, protocol.Command{Op: protocol.OpOpen, Saved: saved})
	require.NoError(t, err)
	arr := js.Global().Get("Uint8Array").New(len(cmd))
	js.CopyBytesToJS(arr, cmd)
	send(arr)

	var rr protocol.ReplyReader
	id, rep, err := rr.Decode(<-replies)
	require.NoError(t, err)
	require.Equal(t, uint32(1), id)
	require.Empty(t, rep.Err)
	require.True(t, protocol.OpenedOf(rep).Restored, "the saved work opened")
	require.Equal(t, 2, rep.Frame.Step, "at its step")
	prepared := g.Get("performance").Call("getEntriesByName", "yarnplay:load worker prepare")
	require.Equal(t, 1, prepared.Length(), "the worker opened the saved work ahead of the page's command")
}
