package protocol

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/scenarios"
	"yarnplay/scenarios/lessons"
)

// asWorker is a server driven as the worker drives it: each reply crosses
// to a page (a ReplyReader), then the server keeps the frame shown
// (Compact) and, with ahead, plays the next step (Ahead). do returns the
// reply and the frame the page then holds; aheadUsed counts the → whose
// step the store stood on already (played ahead, or left there by a step
// back answered from the kept frames). skip, if set, says when the next
// command came before the page had drawn the reply (the worker then plays
// nothing ahead).
type asWorker struct {
	t         *testing.T
	sv        *Server
	ahead     bool
	skip      func() bool
	rw        ReplyWriter
	rr        ReplyReader
	id        uint32
	aheadUsed int
}

func (w *asWorker) do(c Command) (Reply, *store.Frame) {
	w.t.Helper()
	w.id++
	s := w.sv.Store()
	if c.Op == OpForward && w.sv.Shown() != nil && s.Step() == w.sv.Shown().Step+1 {
		w.aheadUsed++
	}
	rep := w.sv.Handle(c)
	_, got, err := w.rr.Decode(w.rw.Encode(w.id, rep))
	require.NoError(w.t, err)
	w.sv.Compact(&w.rw)
	if w.ahead && (w.skip == nil || !w.skip()) {
		w.sv.Ahead()
	}
	return got, w.rr.Last()
}

// Going through a lesson with →, the store plays each next step ahead
// once the page has drawn the last, and the page sees, after every
// command, what it sees from a server that never plays ahead: the same
// frames, the same errors, links and saved work. Commands that need the
// state of the step shown (a selection, an edit, "why") bring the store
// back to it. The commands are a fixed walk, then a seeded random one in
// which some commands come before the page drew the last reply, with
// nothing played ahead.
func TestSteppingAheadShowsWhatStepsShow(t *testing.T) {
	lesson := func(s *store.Store) error {
		sc, err := lessons.Load(lessons.Default())
		if err != nil {
			return err
		}
		return s.Load(sc, lessons.Default())
	}
	for _, tc := range []struct {
		name string
		open func(*store.Store) error
	}{
		{"default lesson", lesson},
		{"many apps", func(s *store.Store) error {
			sc := manyApps(30)
			for range 6 {
				tick := 1
				sc.Steps = append(sc.Steps, scenarios.Step{Tick: &tick})
			}
			return s.Load(sc, "")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			open := func(ahead bool) *asWorker {
				s := store.New()
				require.NoError(t, tc.open(s))
				return &asWorker{t: t, sv: NewServer(s), ahead: ahead}
			}
			plain, ahead := open(false), open(true)
			var leaves []string
			for _, q := range plain.sv.Store().Frame().Queues {
				if q.Leaf {
					leaves = append(leaves, q.Path)
				}
			}
			both := func(c Command) {
				t.Helper()
				want, wantF := plain.do(c)
				got, gotF := ahead.do(c)
				require.Equal(t, want.Frame == nil, got.Frame == nil, "%s: a frame sent by one only", c.Op)
				require.Equal(t, want.Err, got.Err, "%s", c.Op)
				require.Equal(t, want.Text, got.Text, "%s", c.Op)
				require.Equal(t, want.Works, got.Works, "%s", c.Op)
				require.Equal(t, want.Played, got.Played, "%s", c.Op)
				require.Equal(t, string(want.Data), string(got.Data), "%s", c.Op)
				equalFrames(t, wantF, gotF)
			}
			steps := plain.sv.Store().Frame().Steps
			both(Command{Op: OpResync})
			for range steps / 2 {
				both(Command{Op: OpForward})
			}
			require.Equal(t, steps/2, ahead.aheadUsed, "every → answered from the step played ahead")
			require.Zero(t, plain.aheadUsed)
			walk := []Command{}
			walk = append(walk,
				Command{Op: OpBack}, Command{Op: OpForward}, Command{Op: OpForward},
				Command{Op: OpSave}, Command{Op: OpLink}, Command{Op: OpForward},
				Command{Op: OpSelect, Queue: leaves[0]}, Command{Op: OpForward}, Command{Op: OpForward},
				Command{Op: OpSelect, Queue: leaves[0], Toggle: true}, Command{Op: OpForward},
				Command{Op: OpForwardTick}, Command{Op: OpForward},
				Command{Op: OpSubmit, Submit: &scenarios.Submit{App: "late", User: "u1", Queue: leaves[len(leaves)-1]}},
				Command{Op: OpForward}, Command{Op: OpFirst}, Command{Op: OpForward}, Command{Op: OpForward})
			for _, c := range walk {
				both(c)
			}

			// A command that comes before the page drew the last reply
			// finds nothing played ahead, one in four.
			coin := rand.New(rand.NewPCG(11, 0))
			ahead.skip = func() bool { return coin.IntN(4) == 0 }
			r := rand.New(rand.NewPCG(7, uint64(len(tc.name))))
			for i := range 300 {
				shown := plain.sv.Shown()
				var c Command
				switch n := r.IntN(20); {
				case n < 9:
					c = Command{Op: OpForward}
				case n < 11:
					c = Command{Op: OpBack}
				case n == 11:
					c = Command{Op: OpJump, Step: r.IntN(shown.Steps + 1)}
				case n == 12:
					c = Command{Op: OpFirst}
				case n == 13:
					c = Command{Op: OpSelect, Queue: leaves[r.IntN(len(leaves))], Toggle: r.IntN(2) == 0}
				case n == 14:
					c = Command{Op: OpSave}
				case n == 15:
					c = Command{Op: OpLink}
				case n == 16:
					c = Command{Op: OpForwardTick}
				case n == 17 && len(shown.Apps) > 0:
					c = Command{Op: OpWhy, App: shown.Apps[r.IntN(len(shown.Apps))].ID}
				case n == 18:
					c = Command{Op: OpSubmit, Submit: &scenarios.Submit{App: fmt.Sprint("r", i), User: "u2", Queue: leaves[r.IntN(len(leaves))]}}
				default:
					c = Command{Op: OpLast}
				}
				both(c)
			}
			require.Greater(t, ahead.aheadUsed-plain.aheadUsed, 20, "→ answered from steps played ahead")
		})
	}
}

// Ahead plays nothing where the page would not go with → or could not be
// shown the step played: at the end of the work, on a frame with an
// error, before the first command, and while the simulation paints the
// node canvas.
func TestAheadPlaysOnlyWhatTheNextStepShows(t *testing.T) {
	open := func() *Server {
		s := store.New()
		require.NoError(t, s.Load(manyApps(4), ""))
		return NewServer(s)
	}
	sv := open()
	require.False(t, sv.Ahead(), "before the first command")
	sv.Handle(Command{Op: OpResync})
	require.True(t, sv.Ahead())
	require.Equal(t, 1, sv.Store().Step(), "the store went ahead")
	require.Equal(t, 0, sv.Shown().Step, "the page still shows its step")
	require.False(t, sv.Ahead(), "once")

	sv.Handle(Command{Op: OpLast})
	require.False(t, sv.Ahead(), "at the end, → adds a step")

	sv = open()
	sv.Handle(Command{Op: OpSubmit, Submit: &scenarios.Submit{App: "x", User: "u", Queue: "nowhere"}})
	require.NotEmpty(t, sv.Shown().Err)
	require.False(t, sv.Ahead(), "a frame with an error")

	sv = open()
	sv.Handle(Command{Op: OpCanvas, N: 600})
	require.False(t, sv.Ahead(), "the simulation paints the store's step")
}

// Every lesson is small enough for the server to play its next step ahead
// (aheadViews), at each of its steps.
func TestEveryLessonIsPlayedAhead(t *testing.T) {
	for _, l := range lessons.All() {
		sc, err := lessons.Load(l.Slug)
		require.NoError(t, err)
		s := store.New()
		require.NoError(t, s.Load(sc, l.Slug), l.Slug)
		for k := 0; k <= s.Frame().Steps; k++ {
			s.Jump(k)
			require.LessOrEqual(t, elements(s.Frame()), aheadViews, "%s, step %d", l.Slug, k)
		}
	}
}

// BenchmarkAheadAndBack is a tick of about aheadViews views (500
// applications on 125 nodes) played ahead (ms-ahead), and the store
// brought back to the step shown by the next command that needs its state
// (ms-back): what a command other than → then waits for. Only these two
// are timed, not the opening of the work each time.
func BenchmarkAheadAndBack(b *testing.B) {
	sc := manyApps(500)
	sc.Nodes[0].Count = 125
	for range 6 {
		tick := 1
		sc.Steps = append(sc.Steps, scenarios.Step{Tick: &tick})
	}
	at := len(sc.Steps) - 4
	var ahead, back time.Duration
	for b.Loop() {
		// A server of its own each time: a step kept is not played again.
		s := store.New()
		require.NoError(b, s.Load(sc, ""))
		sv := NewServer(s)
		sv.Handle(Command{Op: OpJump, Step: at})
		require.LessOrEqual(b, elements(s.Frame()), aheadViews)
		start := time.Now()
		require.True(b, sv.Ahead())
		ahead += time.Since(start)
		start = time.Now()
		require.Empty(b, sv.Handle(Command{Op: OpClearError}).Err)
		back += time.Since(start)
		require.Equal(b, at, s.Step())
	}
	b.ReportMetric(float64(ahead.Microseconds())/1e3/float64(b.N), "ms-ahead")
	b.ReportMetric(float64(back.Microseconds())/1e3/float64(b.N), "ms-back")
}
