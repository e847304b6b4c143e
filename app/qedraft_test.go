package app

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/core/config"
	"yarnplay/wasm/bridge"
)

// A draft Hadoop refuses is kept across a reload (a new editor on the same
// storage) until it is applied or discarded, and only on its own work.
func TestQueueEditorKeepsARefusedDraftAcrossReloads(t *testing.T) {
	st := bridge.NewMemoryStorage()
	s := store.New()
	ctl := NewLocalController(s)
	e := app.NewTestEngine()
	qe := &QueueEditor{F: s.Frame(), Ctl: ctl, Storage: st}
	render(t, e, qe)
	key := config.QueueKey("root.default", config.SuffixCapacity)

	qe.apply(app.Context{}, store.SetQueueProperty(s.Frame().Conf, "root.default", config.SuffixCapacity, "60"))
	require.True(t, qe.dirty, "60 is refused: the children sum to 60%")

	reload := func(st bridge.Storage) *QueueEditor {
		again := &QueueEditor{F: s.Frame(), Ctl: ctl, Storage: st}
		render(t, e, again)
		return again
	}
	again := reload(st)
	require.True(t, again.dirty, "the refused draft comes back")
	require.Equal(t, "60", again.draft[key])
	require.NotNil(t, again.issue, "with Hadoop's message")
	require.Contains(t, app.HTMLString(again), "Hadoop refuses this")
	require.Equal(t, "100", s.Frame().Conf[key], "and is not applied")

	// Other work does not get it.
	other := store.New()
	require.NoError(t, other.Load(s.Scenario(), "user-limits"))
	require.Nil(t, keptDraft(st, other.Frame()))

	// Discarded, it is gone after a reload.
	again.discard(app.Context{}, app.Event{})
	require.False(t, reload(st).dirty)

	// Refused again, then made right: applied, it is gone too.
	qe.apply(app.Context{}, store.SetQueueProperty(s.Frame().Conf, "root.default", config.SuffixCapacity, "60"))
	require.NotNil(t, keptDraft(st, s.Frame()))
	c, err := store.AddQueue(qe.draft, "root", "b")
	require.NoError(t, err)
	qe.apply(app.Context{}, store.SetQueueProperty(c, "root.b", config.SuffixCapacity, "40"))
	require.False(t, qe.dirty)
	require.Equal(t, "60", s.Frame().Conf[key])
	require.Nil(t, keptDraft(st, s.Frame()))
	require.False(t, reload(st).dirty)

	// Garbage under the key is ignored.
	bad := bridge.NewMemoryStorage()
	require.NoError(t, bad.Set(DraftKey, "{not json"))
	require.False(t, reload(bad).dirty)
}
