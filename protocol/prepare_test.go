package protocol

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
)

// A server that prepared the saved work answers its first command, and
// the next, exactly as one that did not: from the prepared store when the
// first command is the OpOpen it prepared for, else as if it had not.
func TestPreparedOpeningAnswersAsTheOpening(t *testing.T) {
	work := NewServer(store.New())
	require.Empty(t, work.Handle(Command{Op: OpOpen, Name: "acls"}).Err)
	for range 3 {
		work.Handle(Command{Op: OpForward})
	}
	saved := work.Handle(Command{Op: OpSave}).Text
	link := work.Handle(Command{Op: OpLink}).Text
	work.Handle(Command{Op: OpForward})
	other := work.Handle(Command{Op: OpSave}).Text
	require.NotEqual(t, saved, other)

	for _, c := range []struct {
		name  string
		slug  string // the route Prepare was told
		first Command
		taken bool
	}{
		{"on /", "", Command{Op: OpOpen, Saved: saved}, true},
		{"on the lesson's page", "acls", Command{Op: OpOpen, Name: "acls", Saved: saved}, true},
		{"on another lesson's page", "", Command{Op: OpOpen, Name: "user-limits", Saved: saved}, false},
		{"with a share link", "", Command{Op: OpOpen, Text: link, Saved: saved}, false},
		{"with other saved work", "", Command{Op: OpOpen, Saved: other}, false},
		{"without saved work", "", Command{Op: OpOpen}, false},
		{"another command first", "", Command{Op: OpForward}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			plain := NewServer(store.New())
			prep := NewServer(store.New())
			prep.Prepare(saved, c.slug)
			require.NotNil(t, prep.prepared, "the saved work opens")
			preparedStore := prep.prepared.store
			for i, cmd := range []Command{c.first, {Op: OpForward}, {Op: OpSave}} {
				want, got := plain.Handle(cmd), prep.Handle(cmd)
				want.Took, got.Took = 0, 0
				require.Equal(t, want, got, "command %d (%s)", i, cmd.Op)
			}
			require.Equal(t, c.taken, prep.Store() == preparedStore, "the prepared store is the server's")
			require.Nil(t, prep.prepared)
		})
	}
}

// Prepare keeps nothing for work that would not open on the route, nor
// once a command has been handled.
func TestPrepareSkipsWorkThatWouldNotOpen(t *testing.T) {
	work := NewServer(store.New())
	work.Handle(Command{Op: OpOpen, Name: "acls"})
	saved := work.Handle(Command{Op: OpSave}).Text

	sv := NewServer(store.New())
	sv.Prepare(saved, "user-limits")
	require.Nil(t, sv.prepared, "saved work of another lesson does not open on its page")
	sv.Prepare(`{"v":1,"link":"s=1.@@@"}`, "")
	require.Nil(t, sv.prepared, "saved work that does not read")
	sv.Prepare("", "")
	require.Nil(t, sv.prepared)

	sv.Handle(Command{Op: OpOpen})
	sv.Prepare(saved, "")
	require.Nil(t, sv.prepared, "too late: a command has been handled")
}
