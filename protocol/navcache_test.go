package protocol

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/core"
	"yarnplay/scenarios"
	"yarnplay/scenarios/lessons"
)

// A step shown from the kept frames (the store not moved) is the step a
// replay from the start shows, with the same selection, at every level the
// store records a step at (store.Store.play picks it): in full (a step
// shown, small enough to narrate), by its decisions (a step played for the
// first time, a big one too when preemption runs, or a step an
// expectation follows) or not at all (a step replayed on the way, a big
// step shown); and the first command that needs the state finds the store
// on the step shown.
func TestGoingBackShowsWhatReplayShows(t *testing.T) {
	for _, tc := range []struct {
		name string
		open func(*store.Store) error
	}{
		{"many apps", func(s *store.Store) error { return s.Load(manyApps(120), "") }},
		{"ticks summed up", func(s *store.Store) error {
			// More heartbeats a tick than the store narrates
			// (store.FullRecordHeartbeats): steps recorded at every level.
			sc := manyApps(120)
			sc.Nodes[0].Count = store.FullRecordHeartbeats + 10
			return s.Load(sc, "")
		}},
		{"ticks summed up, preemption on", func(s *store.Store) error {
			// A big step played for the first time is recorded by its
			// decisions (preemption reads them), replayed not at all.
			sc := manyApps(120)
			sc.Nodes[0].Count = store.FullRecordHeartbeats + 10
			sc.Config["yarn.resourcemanager.scheduler.monitor.enable"] = "true"
			return s.Load(sc, "")
		}},
		{"steps checked by expectations", func(s *store.Store) error {
			// A step an expectation follows is recorded by its
			// decisions, however it is reached.
			sc := manyApps(120)
			for range 3 {
				tick := 1
				sc.Steps = append(sc.Steps, scenarios.Step{Tick: &tick},
					scenarios.Step{Expect: &scenarios.Expect{QueueExists: map[string]bool{"root.a": true}}})
			}
			return s.Load(sc, "")
		}},
		{"big steps checked by expectations", func(s *store.Store) error {
			sc := manyApps(120)
			sc.Nodes[0].Count = store.FullRecordHeartbeats + 10
			for range 3 {
				tick := 1
				sc.Steps = append(sc.Steps, scenarios.Step{Tick: &tick},
					scenarios.Step{Expect: &scenarios.Expect{QueueExists: map[string]bool{"root.a": true}}})
			}
			return s.Load(sc, "")
		}},
		{"default lesson", func(s *store.Store) error {
			sc, err := lessons.Load(lessons.Default())
			if err != nil {
				return err
			}
			return s.Load(sc, lessons.Default())
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := store.New()
			require.NoError(t, tc.open(s))
			sv := NewServer(s)
			do := crossing(t, sv)
			// replayed is step k with the selection, from a store that
			// opened the work as it now is and went nowhere else (its
			// revision counts no edits).
			replayed := func(k int, sel string, shown *store.Frame) *store.Frame {
				t.Helper()
				r := store.New()
				require.NoError(t, r.Load(s.Scenario(), s.Lesson()))
				r.Select(sel)
				r.Jump(k)
				g := *r.Frame().ForPage("", true) // as the page gets it
				g.Revision = shown.Revision
				return &g
			}
			var leaves []string
			for _, q := range s.Frame().Queues {
				if q.Leaf {
					leaves = append(leaves, q.Path)
				}
			}
			a, b := leaves[0], leaves[len(leaves)-1]
			do(Command{Op: OpSelect, Queue: a})
			do(Command{Op: OpLast})
			end := sv.Shown().Step
			for range 3 {
				do(Command{Op: OpForwardTick})
			}
			end += 3
			moved := 0
			for i := 1; i <= 5; i++ {
				f := do(Command{Op: OpBack})
				require.Equal(t, end-i, f.Step)
				if s.Step() != f.Step {
					moved++ // shown from a kept frame
				}
				equalFrames(t, replayed(end-i, a, f), f)
			}
			require.Positive(t, moved, "steps back come from kept frames")
			f := do(Command{Op: OpForward})
			require.Equal(t, end-4, f.Step)
			equalFrames(t, replayed(end-4, a, f), f)
			// The state is needed: the store goes to the step shown.
			f = do(Command{Op: OpSelect, Queue: b})
			require.Equal(t, end-4, s.Step())
			equalFrames(t, replayed(end-4, b, f), f)
			f = do(Command{Op: OpJump, Step: end - 1})
			equalFrames(t, replayed(end-1, b, f), f)
		})
	}
}

// An action at an earlier step replaces the steps after it: the frames
// kept of those steps are never shown again, while those before it still
// are.
func TestKeptFramesAreOfTheWorkShown(t *testing.T) {
	s := store.New()
	require.NoError(t, s.Load(manyApps(30), ""))
	sv := NewServer(s)
	sv.Handle(Command{Op: OpLast})
	end := sv.Shown().Step
	sv.Handle(Command{Op: OpForwardTick})
	sv.Handle(Command{Op: OpForwardTick})
	sv.Handle(Command{Op: OpBack})
	sv.Handle(Command{Op: OpBack})
	require.Equal(t, end, sv.Shown().Step)
	require.Equal(t, end+2, s.Step(), "shown from kept frames")
	rep := sv.Handle(Command{Op: OpSubmit, Submit: &scenarios.Submit{App: "late", User: "u1", Queue: "a"}})
	require.Empty(t, rep.Err)
	require.Equal(t, end+1, sv.Shown().Steps, "the ticks after the step are replaced")
	sv.Handle(Command{Op: OpBack})
	require.Equal(t, end, sv.Shown().Step)
	require.Equal(t, end+1, s.Step(), "the step before the submit, kept")
	f := sv.Handle(Command{Op: OpForward}).Frame
	require.Equal(t, "submit", f.Kind, "the submit, not the tick kept at its step")
	require.Equal(t, end+1, f.Steps)
}

// The kept frames are the newest, within navFrames and the bytes their
// deltas may take, one per step and selection, and each reads back as it
// was kept.
func TestKeptFramesAreBounded(t *testing.T) {
	var nc navCache
	doc := &scenarios.Scenario{}
	cut := pageCut{}
	keep := func(works int, f *store.Frame) {
		nc.keep(works, doc, f, f, cut)
		nc.compact()
	}
	var frames []*store.Frame
	for i := range 2 * navFrames {
		f := &store.Frame{Step: i, Label: fmt.Sprintf("step %d", i), Queues: []core.QueueView{{Path: "root", NumApps: i}}}
		frames = append(frames, f)
		keep(1, f)
	}
	require.Len(t, nc.frames, navFrames)
	require.Equal(t, 2*navFrames-1, nc.frames[len(nc.frames)-1].head.step)
	for _, e := range nc.frames {
		equalFrames(t, frames[e.head.step], nc.frame(e))
	}
	keep(1, &store.Frame{Step: 2*navFrames - 1, Selected: "root.a"})
	keep(1, &store.Frame{Step: 2*navFrames - 1, Selected: "root.a"})
	require.Len(t, nc.frames, navFrames, "a step and selection kept once")
	// Frames whose deltas are big: a few fit.
	big := func(step int) *store.Frame {
		f := &store.Frame{Step: step, Apps: make([]core.AppView, 5_000)}
		for j := range f.Apps {
			f.Apps[j].ID = fmt.Sprintf("app-%d-%d", step, j)
		}
		return f
	}
	for i := range 6 {
		keep(1, big(2000+i))
	}
	total := 0
	for _, e := range nc.frames {
		total += len(e.enc)
	}
	require.LessOrEqual(t, total, navFloor, "the deltas within the bytes they may take")
	require.Less(t, len(nc.frames), 6)
	require.Equal(t, 2005, nc.frames[len(nc.frames)-1].head.step)
	equalFrames(t, big(2004), nc.frame(nc.frames[len(nc.frames)-2]))
	keep(2, &store.Frame{Step: 0})
	require.Len(t, nc.frames, 1, "another work's frames go")
	keep(2, &store.Frame{Step: 1, Err: "refused"})
	require.Len(t, nc.frames, 1, "a frame with an error is not kept")
}

// Saving the work and a share link name the step shown without moving the
// store there: the page saves after every step, and a save that replayed
// would cost what the kept frame saved.
func TestSavingAStepShownFromAKeptFrameDoesNotReplay(t *testing.T) {
	s, sv := ticksAtTheEnd(t, 1)
	sv.Handle(Command{Op: OpBack})
	shown := sv.Shown().Step
	require.NotEqual(t, shown, s.Step(), "shown from a kept frame")
	played := s.Step()
	rep := sv.Handle(Command{Op: OpSave})
	require.Nil(t, rep.Frame, "the page keeps the step shown")
	saved := rep.Text
	rep = sv.Handle(Command{Op: OpLink})
	require.Nil(t, rep.Frame)
	link := rep.Text
	require.Equal(t, played, s.Step(), "the store did not move")
	require.Equal(t, shown, sv.Shown().Step)

	other := NewServer(store.New())
	require.True(t, OpenedOf(other.Handle(Command{Op: OpRestoreSaved, Saved: saved})).Restored)
	require.Equal(t, shown, other.Store().Step())
	require.Empty(t, other.Handle(Command{Op: OpOpenLink, Text: link}).Err)
	require.Equal(t, shown, other.Store().Step())
}

// A command that needs the state of a step shown from a kept frame brings
// the store there, and the page, which holds that step's frame, does not
// get it again unless the command changes it: a page given the frame again
// takes it for a new step of the same work (the queue editor's draft and
// the "why" answer would be drawn anew).
func TestSettlingSendsNoFrameThePageHolds(t *testing.T) {
	s, sv := ticksAtTheEnd(t, 2)
	rep := sv.Handle(Command{Op: OpBack})
	require.NotNil(t, rep.Frame)
	shown := rep.Frame.Step
	require.NotEqual(t, shown, s.Step(), "shown from a kept frame")
	rep = sv.Handle(Command{Op: OpWhy, App: "app_1"})
	require.Empty(t, rep.Err)
	require.Equal(t, shown, s.Step(), "the store went to the step shown")
	require.Nil(t, rep.Frame, "the page holds the step's frame")
	rep = sv.Handle(Command{Op: OpSelect, Queue: "root.a"})
	require.NotNil(t, rep.Frame, "a command that changes the frame sends it")
	require.Equal(t, "root.a", rep.Frame.Selected)
	rep = sv.Handle(Command{Op: OpFirst})
	require.NotNil(t, rep.Frame)
	require.Nil(t, sv.Handle(Command{Op: OpBack}).Frame, "← at the start shows what the page holds")
}

// ticksAtTheEnd is a server over a scenario of 30 applications gone to its
// end and then ticks ticks further.
func ticksAtTheEnd(t *testing.T, ticks int) (*store.Store, *Server) {
	t.Helper()
	s := store.New()
	require.NoError(t, s.Load(manyApps(30), ""))
	sv := NewServer(s)
	sv.Handle(Command{Op: OpLast})
	for range ticks {
		sv.Handle(Command{Op: OpForwardTick})
	}
	return s, sv
}
