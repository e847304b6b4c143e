package protocol

// A learner goes through a lesson with →, a step after another, and reads
// each. The step after the one shown is then the likeliest command, and on
// a small cluster playing it takes milliseconds, as does going back should
// the page ask for something else: the worker plays it once the page has
// drawn the step shown, while the learner reads it (Ahead), and keeps its
// frame, so that → is answered from the kept frames (navigate) with no step
// to play. Meanwhile the page is shown its step as after a step back to a
// kept frame: the store stands a step ahead, and the first command that
// needs the state of the step shown brings the store back to it (settle).
// The store publishes the same frame for the same step however it got there
// (its replay guarantee), so that the page sees what it would have seen
// without Ahead, which TestSteppingAheadShowsWhatStepsShow holds.

// aheadViews is the most views (queues, nodes, containers and applications)
// the frame shown may have for the server to play the next step ahead:
// every lesson's frames have fewer (TestEveryLessonIsPlayedAhead). A step
// played ahead, and going back from it, which a command other than → waits
// for, both grow with the cluster (BenchmarkAheadAndBack); at benchmark
// 5's scale going back replays from a checkpoint for a second or more.
const aheadViews = 1000

// Ahead plays the step after the one the page was last sent, when → would
// go there without adding a step (the work holds it) and the cluster is
// small (aheadViews): the store goes to it and the page's frame of it is
// kept, while the page is still shown its step (the store stands
// elsewhere, as after navigate). It does nothing when the page paints
// nothing of the store's current step: before the first command, while
// the saved work's later steps are unread, when the store already stands
// elsewhere or shows an error, or while the simulation paints the node
// canvas (which shows the store's step). It reports whether it played the
// step. The worker calls it once the page has drawn its reply (or a
// moment after, when it says nothing) and the frame shown is kept
// (Compact), unless another command came first.
func (sv *Server) Ahead() (played bool) {
	s := sv.store
	f := s.Frame()
	// f == sv.sent: the page was last sent the store's frame (publish),
	// whose page's frame is sv.sentPage.
	if !sv.handled || sv.stuck || sv.nav.pending >= 0 || s.Unread() || sv.canvas.Width > 0 ||
		f == nil || f != sv.sent || f.Err != "" || f.Step >= f.Steps || elements(f) > aheadViews {
		return false
	}
	k := f.Step
	cut := cutOf(sv.canvas)
	if g, _ := sv.nav.find(s.Works(), s.Scenario(), f, f, k+1, cut); g != nil {
		return false // → shows it from the kept frames already
	}
	// From here the page is shown step k while the store stands elsewhere:
	// the page's frame of it (which owns the lists the store reuses,
	// pageFrame) is the frame sent.
	sv.sent = sv.sentPage
	sv.nav.pending = k
	defer func() {
		if r := recover(); r != nil {
			// The store is where the panic left it: the next command
			// that needs a state goes to step k first (settle), and → is
			// played as if nothing had gone ahead, failing as it would
			// have.
			played = false
		}
	}()
	s.Jump(k + 1)
	g := s.Frame()
	if g.Step != k+1 || g.Err != "" {
		return false
	}
	sv.nav.keep(s.Works(), s.Scenario(), sv.pageFrame(g), g, cut)
	sv.nav.compact()
	return true
}
