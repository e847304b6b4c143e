package app

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/protocol"
	"yarnplay/wasm/bridge"
)

// ownWork returns storage holding work of one's own: the default lesson,
// three steps in.
func ownWork(t *testing.T) (bridge.Storage, string) {
	t.Helper()
	st := bridge.NewMemoryStorage()
	p, _ := mounted(t, st, "", "")
	for range 3 {
		p.Key(app.Context{}, "ArrowRight")
	}
	v, ok, err := st.Get(store.SaveKey)
	require.NoError(t, err)
	require.True(t, ok)
	return st, v
}

func TestALinkOpensBesideTheSavedWork(t *testing.T) {
	st, own := ownWork(t)
	src, _ := lessonStore(t, "elastic-borrowing", false, 5)
	link, err := src.Link()
	require.NoError(t, err)

	p, _ := mounted(t, st, "#"+link, "")
	require.Equal(t, 5, p.ctl.Frame().Step, "the link opened")
	kept := SavedWork{St: st}.Kept()
	require.Len(t, kept, 1, "the work is kept aside")
	require.Equal(t, own, kept[0].Saved)
	require.Contains(t, kept[0].Title, "at step 3")
	require.Contains(t, app.HTMLString(p), "Your earlier work is kept")

	// One click away: the earlier work opens, the link's goes aside.
	p.takeBack(0)
	require.Equal(t, 3, p.ctl.Frame().Step)
	kept = SavedWork{St: st}.Kept()
	require.Len(t, kept, 1)
	require.NotEqual(t, own, kept[0].Saved, "the link's work is kept in its place")
	now, _, _ := st.Get(store.SaveKey)
	require.Equal(t, own, now)

	// The same link again does not keep the same work twice.
	for range 2 {
		mounted(t, st, "#"+link, "")
	}
	require.Len(t, SavedWork{St: st}.Kept(), 2)
}

func TestALessonAndAFileOpenBesideTheSavedWork(t *testing.T) {
	st, own := ownWork(t)
	p, _ := mounted(t, st, "", "acls")
	require.Equal(t, "acls", p.ctl.Frame().Lesson)
	p.Key(app.Context{}, "ArrowRight") // stepping saves the lesson's work
	kept := SavedWork{St: st}.Kept()
	require.Len(t, kept, 1)
	require.Equal(t, own, kept[0].Saved, "stepping in a lesson keeps one's own work")

	// An import that fails changes nothing kept.
	require.NotEmpty(t, send(p.ctl, protocol.Command{Op: protocol.OpImportXML, Data: []byte("<configuration><property>")}).Err)
	require.Len(t, SavedWork{St: st}.Kept(), 1)
	now, _, _ := st.Get(store.SaveKey)
	require.NotEqual(t, own, now)
}

func TestSavedWorkThatDoesNotOpenIsKeptAside(t *testing.T) {
	for name, bad := range map[string]string{
		"newer version": `{"v":2,"link":"s=2.AAAA"}`,
		"newer link":    `{"v":1,"link":"s=9.AAAA"}`,
		"truncated":     `{"v":1,"link":"s=1.eJzsW`,
		"damaged link":  `{"v":1,"link":"s=1.%%%"}`,
	} {
		st := bridge.NewMemoryStorage()
		require.NoError(t, st.Set(store.SaveKey, bad))
		p, _ := mounted(t, st, "", "")
		f := p.ctl.Frame()
		require.Empty(t, f.Step, name)
		b, ok := SavedWork{St: st}.Broken()
		require.True(t, ok, name)
		require.Equal(t, bad, b.Saved, name)
		require.NotEmpty(t, b.Why, name)
		html := app.HTMLString(p)
		require.Contains(t, html, "Your saved work did not open", name)
		require.Contains(t, html, `id="saved-broken-download"`, name)

		// Stepping saves the new work; the broken one stays aside.
		p.Key(app.Context{}, "ArrowRight")
		b2, ok := SavedWork{St: st}.Broken()
		require.True(t, ok, name)
		require.Equal(t, b, b2, name)
		require.NoError(t, SavedWork{St: st}.DiscardBroken())
		_, ok = SavedWork{St: st}.Broken()
		require.False(t, ok)
	}
}

func TestKeptWorksAreBounded(t *testing.T) {
	st := bridge.NewMemoryStorage()
	w := SavedWork{St: st}
	for i := range maxKept + 2 {
		require.NoError(t, st.Set(store.SaveKey, `{"v":1,"link":"`+itoa(i)+`"}`))
		require.NoError(t, w.PutAside())
	}
	kept := w.Kept()
	require.Len(t, kept, maxKept)
	require.Equal(t, `{"v":1,"link":"`+itoa(maxKept+1)+`"}`, kept[0].Saved, "newest first")
	require.NoError(t, w.Discard(0))
	require.Len(t, w.Kept(), maxKept-1)
}
