package protocol

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/bench/workload"
	"yarnplay/scenarios"
	"yarnplay/scenarios/lessons"
)

// bigSaved is saved work of some two thousand steps standing on step k:
// it opens in two parts (store.Store.RestoreHeadFor). With broken set,
// its last step does not read, which only the second part finds.
func bigSaved(t *testing.T, k int, broken bool) string {
	t.Helper()
	sp := workload.Allocation()
	sp.Nodes, sp.Fanout, sp.Apps, sp.Users = 40, []int{2, 2}, 2000, 20
	sc := workload.Scenario(sp, 5)
	if broken {
		bad := *sc
		bad.Steps = append([]scenarios.Step(nil), sc.Steps...)
		bad.Steps[len(bad.Steps)-1] = scenarios.Step{FinishApp: "no-such-app"}
		sc = &bad
	}
	link, err := scenarios.EncodeLink(sc, k, "")
	require.NoError(t, err)
	return `{"v":1,"link":"` + link + `"}`
}

// page is the page's end of a server: what it reads of the replies.
type page struct {
	t  *testing.T
	rw ReplyWriter
	rr ReplyReader
	id uint32
}

// read takes a reply in as the page does, and returns the page's frame.
func (p *page) read(rep Reply) *store.Frame {
	p.t.Helper()
	p.id++
	_, _, err := p.rr.Decode(p.rw.Encode(p.id, rep))
	require.NoError(p.t, err)
	return p.rr.Last()
}

// Saved work the worker opened ahead in two parts reaches the page as it
// does opened in one: the step first, with the number of steps, and all
// but the users the later steps name (the page does not draw them), which
// come with the next reply once the rest is read, a save's included; the
// commands after it are answered alike.
func TestSavedWorkReadInTwoPartsReachesThePageWhole(t *testing.T) {
	for _, k := range []int{0, 7} {
		saved := bigSaved(t, k, false)
		open := Command{Op: OpOpen, Saved: saved}
		plain, prep := NewServer(store.New()), NewServer(store.New())
		prep.Prepare(saved, "")
		require.NotNil(t, prep.prepared)
		require.True(t, prep.prepared.store.Unread(), "opened in two parts")
		pp, pq := &page{t: t}, &page{t: t}
		want := pp.read(plain.Handle(open))

		rep := prep.Handle(open)
		require.Equal(t, Opened{Restored: true}, OpenedOf(rep))
		head := pq.read(rep)
		require.Equal(t, k, head.Step)
		require.Equal(t, want.Steps, head.Steps, "the step counts the steps still to read")
		require.True(t, prep.Store().Unread())

		_, push := prep.ReadRest()
		require.False(t, push, "nothing the page draws changed")
		require.False(t, prep.Store().Unread())
		require.NotEqual(t, want.Users, head.Users, "the later steps' users come with the next reply")
		g, w := *head, *want
		g.Revision, w.Revision = 0, 0
		g.Users = w.Users
		require.Equal(t, w, g, "step %d", k)
		_, push = prep.ReadRest()
		require.False(t, push, "nothing left to read")

		for _, c := range []Command{{Op: OpSave}, {Op: OpForward}, {Op: OpSave}, {Op: OpLast}, {Op: OpForwardTick}, {Op: OpBack}} {
			a, b := plain.Handle(c), prep.Handle(c)
			a.Took, b.Took = 0, 0
			a.Works, b.Works = 0, 0
			fa, fb := pp.read(a), pq.read(b)
			a.Frame, b.Frame = nil, nil
			require.Equal(t, a, b, "%s after step %d", c.Op, k)
			ga, gb := *fa, *fb
			ga.Revision, gb.Revision = 0, 0
			require.Equal(t, ga, gb, "%s after step %d", c.Op, k)
		}
	}
}

// Saved work whose later steps do not read, opened ahead in two parts,
// is replaced once they are read by what OpOpen would have opened
// instead, and the page is told as OpOpen would have told it.
func TestSavedWorkWhoseRestDoesNotReadOpensTheLessonInstead(t *testing.T) {
	saved := bigSaved(t, 0, true)
	open := Command{Op: OpOpen, Saved: saved}
	plain, prep := NewServer(store.New()), NewServer(store.New())
	prep.Prepare(saved, "")
	require.NotNil(t, prep.prepared)
	pp, pq := &page{t: t}, &page{t: t}
	wantRep := plain.Handle(open)
	want := pp.read(wantRep)
	require.NotEmpty(t, OpenedOf(wantRep).SavedErr)

	opened := prep.Handle(open)
	pq.read(opened)
	rest, push := prep.ReadRest()
	require.True(t, push)
	require.Equal(t, OpenedOf(wantRep), OpenedOf(rest))
	require.NotEqual(t, opened.Works, rest.Works, "the work is replaced")
	got := pq.read(rest)
	g, w := *got, *want
	g.Revision, w.Revision = 0, 0
	require.Equal(t, w, g)
	require.Equal(t, lessons.Default(), got.Lesson)
}

// A command that comes before the worker read the rest has it read first.
func TestACommandReadsTheRestFirst(t *testing.T) {
	saved := bigSaved(t, 0, false)
	plain, prep := NewServer(store.New()), NewServer(store.New())
	prep.Prepare(saved, "")
	open := Command{Op: OpOpen, Saved: saved}
	plain.Handle(open)
	prep.Handle(open)
	a, b := plain.Handle(Command{Op: OpSave}), prep.Handle(Command{Op: OpSave})
	require.Empty(t, b.Err)
	require.Equal(t, a.Text, b.Text, "the save holds every step")
	require.False(t, prep.Store().Unread())
}
