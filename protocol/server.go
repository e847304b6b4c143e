package protocol

import (
	"errors"
	"fmt"
	"time"

	"yarnplay/app/store"
	"yarnplay/scenarios/lessons"
)

// Server applies commands to a store: the worker's end, and natively the
// store InProcess answers from.
type Server struct {
	store *store.Store
	// sent is the last frame replied: as the store published it, or while
	// the store stands elsewhere the page's frame kept of the step shown
	// (navigate); a reply carries the page's frame of it (sentPage) only
	// when it is another.
	sent, sentPage *store.Frame
	// nav keeps the frames sent lately, to move among them without
	// replaying (navcache.go).
	nav navCache
	// canvas is the node canvas the simulation paints for the page
	// (OpCanvas), if it does.
	canvas Canvas
	// prepared is the saved work opened before the first command, and
	// handled is set once a command has been (prepare.go).
	prepared *prepared
	handled  bool
	// slug is the route's lesson of the OpOpen the prepared work
	// answered, for ReadRest.
	slug string
	// page is the page's frame of full with pageCanvas (pageFrame).
	full, page *store.Frame
	pageCanvas Canvas
	// stuck is set when catching up panicked (CatchUp), until the next
	// command.
	stuck bool
}

// publish puts in rep the frame the page is to be shown, if it does not
// hold it (or resend): fromKept, a kept frame (navigate); else the step
// shown while the store stands elsewhere; else the store's frame, kept.
func (sv *Server) publish(rep *Reply, fromKept *store.Frame, resend bool) {
	s := sv.store
	rep.Works = s.Works()
	var p *store.Frame
	switch {
	case fromKept != nil:
		if sv.canvas.Width > 0 && !fromKept.NodesBehind {
			// The canvas shows another step until CatchUp.
			g := *fromKept
			g.NodesBehind = true
			fromKept = &g
		}
		sv.sent, p = fromKept, fromKept
	case sv.nav.pending >= 0:
		p = sv.sent // the store stands elsewhere: the page keeps the step shown
	default:
		f := s.Frame()
		p = sv.pageFrame(f)
		sv.nav.keep(s.Works(), s.Scenario(), p, f, cutOf(sv.canvas))
		sv.sent = f
	}
	if p != sv.sentPage || resend {
		rep.Frame, sv.sentPage = p, p
	}
}

// Behind reports whether the node canvas shows another step than the
// page: the page was shown a kept frame while the simulation paints the
// canvas, and CatchUp is to bring the store there.
func (sv *Server) Behind() bool { return sv.nav.pending >= 0 && sv.canvas.Width > 0 && !sv.stuck }

// CatchUp does a part of bringing the store to the step the page was
// shown from a kept frame (store.Store.JumpPart), for the node canvas,
// when it is Behind. Once the store stands there, done is true and rep is
// the reply the page gets unasked: the step's frame from the store (the
// canvas to be painted from it, Painted). A panic in the store stops it
// until the next command (which goes to the step, and says what failed).
func (sv *Server) CatchUp() (rep Reply, done bool) {
	if !sv.Behind() {
		return Reply{}, false
	}
	start := time.Now()
	defer func() {
		if r := recover(); r != nil {
			sv.stuck = true
			rep, done = Reply{}, false
		}
	}()
	if !sv.store.JumpPart(sv.nav.pending) {
		return Reply{}, false
	}
	sv.nav.pending = -1
	sv.publish(&rep, nil, false)
	rep.Took = time.Since(start)
	return rep, true
}

// pageFrame is f as the page gets it, the same frame for the same f and
// canvas: the applications the page shows (store.Frame.ForPage: those of
// every node's containers while it paints them, else the opened node's)
// and, while the simulation paints the node canvas, the opened node's
// containers only (ForPaintedNodes).
func (sv *Server) pageFrame(f *store.Frame) *store.Frame {
	if f == nil {
		return nil
	}
	if f != sv.full || sv.canvas != sv.pageCanvas {
		painted := sv.canvas.Width > 0
		p := f.ForPage(sv.canvas.Focus, !painted)
		if p != f && sv.full != nil && sameList(f.Queues, sv.full.Queues) && f.Selected == sv.full.Selected {
			// The store kept its queues' views and the page shows the
			// same queues' users (a canvas change): the page keeps its
			// queues, which ForPage cut again.
			p.Queues = sv.page.Queues
		}
		if painted {
			p = p.ForPaintedNodes(sv.canvas.Focus)
		} else if p != f {
			p.OwnContainers() // the store reuses f's (NewServer)
		}
		sv.full, sv.page, sv.pageCanvas = f, p, sv.canvas
	}
	return sv.page
}

// Canvas is the page's node canvas when the simulation paints it (the
// page gave the worker its canvas as an OffscreenCanvas): its width in
// CSS pixels, 0 while the page paints its nodes itself; its colour
// scheme; and the node the page opens as a card, outlined on it. While
// Width is set, the frames the page gets carry only that node's
// containers (store.Frame.ForPaintedNodes): at benchmark 5's scale the
// page would read and keep hundreds of thousands of them at every step
// only to paint them.
type Canvas struct {
	Width int
	Dark  bool
	Focus string
}

// Canvas returns the page's node canvas; its Width is 0 when the page
// paints it. It shows the frame Shown returns, whole.
func (sv *Server) Canvas() Canvas { return sv.canvas }

// NewServer returns a server over s. It has s reuse its views' lists
// (store.Store.ReuseViews): the server keeps the store's frames past its
// next steps only to know them again (by address), and the page's frames
// it cuts from them have their own containers (pageFrame). It has s defer
// its checkpoints too (store.Store.DeferCheckpoints), for when the page
// is quiet (QuietWork).
func NewServer(s *store.Store) *Server {
	s.ReuseViews()
	s.DeferCheckpoints()
	return &Server{store: s, nav: navCache{pending: -1}}
}

// QuietWork reports whether the server has work for when the page is
// quiet: the saved work's later steps to read (ReadRest), catching up
// (Behind), or the checkpoint the last step called for
// (store.Store.DeferCheckpoints), which the next step would otherwise
// take first.
func (sv *Server) QuietWork() bool { return sv.Behind() || sv.store.Due() || sv.store.Unread() }

// QuietPart does a part of that work: the saved work's later steps
// (ReadRest, whose reply the page gets unasked), else a part of catching
// up (CatchUp), the last of which gives the reply the page gets unasked
// (done), else the checkpoint due.
func (sv *Server) QuietPart() (rep Reply, done bool) {
	if sv.store.Unread() {
		return sv.ReadRest()
	}
	if sv.Behind() {
		return sv.CatchUp()
	}
	sv.takeCheckpoint()
	return Reply{}, false
}

// takeCheckpoint takes the store's checkpoint due, if any. A panic there
// leaves the checkpoint untaken, and the store as it was.
func (sv *Server) takeCheckpoint() {
	defer func() { _ = recover() }()
	sv.store.Settle()
}

// Store returns the store the server applies commands to.
func (sv *Server) Store() *store.Store { return sv.store }

// Handle applies c to the store and says what came of it. A command the
// store refuses has its error in Err (and in the frame's Err, in words);
// a panic in the store is an error too, and the store is left as the
// panic left it (its actions undo what they did when they fail).
func (sv *Server) Handle(c Command) (rep Reply) {
	fromPrepared := !sv.handled && sv.takePrepared(c)
	sv.stuck = false
	start := time.Now()
	// fromKept is the frame kept of the step the command moved to, when
	// the store did not move (navigate).
	var fromKept *store.Frame
	// resend sends the frame shown again (as the page now gets it).
	resend := false
	defer func() {
		rep.Took = time.Since(start)
		if r := recover(); r != nil {
			rep.Err = fmt.Sprintf("internal error (%s): %v", c.Op, r)
		}
		sv.publish(&rep, fromKept, resend)
	}()
	if !fromPrepared && c.Op != OpCanvas && sv.store.Unread() {
		// The saved work's later steps, which the worker reads once the
		// page has drawn the opening (ReadRest): every command but the
		// opening and the page's canvas needs them. This reply brings
		// the frame they make.
		sv.readRest()
	}
	s := sv.store
	if c.Op == OpCanvas {
		// The page's canvas changed: the frame shown goes again, with
		// the containers the page now needs (from the store, when the
		// kept frame shown was cut for another canvas).
		was := cutOf(sv.canvas)
		sv.canvas = Canvas{Width: max(c.N, 0), Dark: c.Toggle, Focus: c.Node}
		if cutOf(sv.canvas) != was {
			sv.settle()
		}
		if sv.nav.pending >= 0 {
			fromKept = sv.sent
		}
		resend = true
		return rep
	}
	if f, moved := sv.navigate(c); moved {
		fromKept = f
		return rep
	}
	// The step shown, which a link and the saved work name without
	// needing the store there (the page saves after every step); the
	// worker's memory is measured where it stands.
	step := s.Step()
	switch c.Op {
	case OpLink, OpSave:
		if sv.nav.pending >= 0 {
			step = sv.nav.pending
		}
	case OpMemory:
	default:
		sv.settle()
	}
	errText := func(err error) string {
		if err == nil {
			return ""
		}
		rep.Issue = store.IssueOf(err)
		return err.Error()
	}
	switch c.Op {
	case OpJump:
		s.Jump(c.Step)
	case OpFirst:
		s.First()
	case OpLast:
		s.Last()
	case OpBack:
		s.Back()
	case OpForward:
		rep.Err = errText(s.Forward())
	case OpForwardTick:
		rep.Err = errText(s.ForwardTick())
	case OpPlayStep:
		rep.Played = s.PlayStep()
	case OpReset:
		s.Reset()
	case OpFork:
		rep.Err = errText(s.Fork())
	case OpSelect:
		q := c.Queue
		if c.Toggle && s.Frame().Selected == q {
			q = ""
		}
		s.Select(q)
	case OpSelectPartition:
		s.SelectPartition(c.Name)
	case OpSelectUser:
		s.SelectUser(c.User)
	case OpClearError:
		s.ClearError()
	case OpReport:
		if c.Text != "" {
			s.Report(errors.New(c.Text))
		}
	case OpSubmit:
		if c.Submit == nil {
			rep.Err = "protocol: submit without the application"
			return rep
		}
		rep.Err = errText(s.Submit(*c.Submit))
	case OpRequest:
		rep.Err = errText(s.Request(c.Asks...))
	case OpHeartbeat:
		rep.Err = errText(s.Heartbeat(c.Node))
	case OpTick:
		rep.Err = errText(s.Tick(c.N))
	case OpFinishContainers:
		rep.Err = errText(s.FinishContainers(c.App, c.N, c.Node))
	case OpFinishApp:
		rep.Err = errText(s.FinishApp(c.App))
	case OpKillApp:
		rep.Err = errText(s.KillApp(c.App, c.User))
	case OpAddNodes:
		if c.Nodes == nil {
			rep.Err = "protocol: add-nodes without the nodes"
			return rep
		}
		if l := c.Nodes.Label; l != "" {
			if err := s.AddNodeLabel(l, c.Exclusive); err != nil {
				rep.Err = errText(err)
				return rep
			}
		}
		rep.Err = errText(s.AddNodes(*c.Nodes))
	case OpRemoveNode:
		rep.Err = errText(s.RemoveNode(c.Node))
	case OpSetGroups:
		rep.Err = errText(s.SetGroups(c.User, c.Groups))
	case OpSetConfig:
		// A draft Hadoop refuses is the editor's to show, on its queue: the
		// store and its frame stay as they were.
		if err := s.CheckConfig(c.Conf); err != nil {
			rep.Err = errText(err)
			return rep
		}
		rep.Err = errText(s.SetConfig(c.Conf))
	case OpImportScenario:
		rep.Err = errText(s.ImportScenario(c.Name, c.Data))
	case OpImportXML:
		rep.Err = errText(s.ImportXML(c.Data))
	case OpImportXMLText:
		rep.Err = errText(s.ImportXMLText(c.Text))
	case OpImportSnapshot:
		rep.Err = errText(s.ImportSnapshot(c.Files))
	case OpBlank:
		rep.Err = errText(s.Load(store.Blank(), ""))
	case OpOpen:
		o := Opened{Restored: true} // the work Prepare opened
		if !fromPrepared {
			o = sv.open(c.Name, c.Text, c.Saved)
		}
		rep.Played = o.Link
		answer(&rep, o)
	case OpRestoreSaved:
		answer(&rep, sv.restore(c.Saved))
	case OpRestoreUndo:
		if c.Point == nil {
			rep.Err = "protocol: restore-undo without the work"
			return rep
		}
		rep.Err = errText(restoreUndo(s, *c.Point))
	case OpOpenLink:
		rep.Err = errText(s.OpenLink(c.Text))
	case OpCheckConfig:
		rep.Err = errText(s.CheckConfig(c.Conf))
	case OpLink:
		frag, err := s.LinkAt(step)
		rep.Text, rep.Err = frag, errText(err)
	case OpExportYAML:
		data, err := s.ExportYAML()
		rep.Data, rep.Err = data, errText(err)
	case OpExportXML:
		rep.Data = s.ExportXML()
	case OpResync:
		// The frame goes again, whole: the worker's end resets its
		// writer (ReplyWriter.Reset) for this command.
		sv.sentPage = nil
	case OpSave:
		st := &savedWork{}
		rep.Err = errText(s.SaveAt(st, step))
		rep.Text = st.value
	case OpUndoPoint:
		p, err := undoPoint(s)
		if err != nil {
			rep.Err = err.Error()
			return rep
		}
		answer(&rep, p)
	case OpWhy:
		if v := verdict(s, c.App); v != nil {
			answer(&rep, v)
		}
	case OpExportSnapshot:
		files, err := s.ExportSnapshot()
		if rep.Err = errText(err); err == nil {
			answer(&rep, files)
		}
	case OpMemory:
		// What the history will hold: with the checkpoint due taken.
		sv.takeCheckpoint()
		answer(&rep, sv.memory())
	default:
		rep.Err = fmt.Sprintf("protocol: no command %q", c.Op)
	}
	return rep
}

// open brings in the work for a route (slug, "" on /): a share link in
// the fragment wins; else the saved work (what Save returned, "" for
// none) when it is on /, or on the page of the lesson it started from;
// else the route's lesson, or the default one. A link that does not open
// says why, over the work loaded instead; so does saved work that does
// not open (Opened.SavedErr: the page keeps it aside).
func (sv *Server) open(slug, fragment, saved string) Opened {
	s := sv.store
	var linkErr error
	if fragment != "" {
		if linkErr = s.OpenLink(fragment); linkErr == nil {
			return Opened{Link: true}
		}
	}
	st := &savedWork{value: saved, ok: saved != ""}
	restored, err := s.RestoreFor(st, slug)
	if restored {
		if linkErr != nil {
			s.Report(linkErr)
		}
		return Opened{Restored: true}
	}
	return sv.openInstead(slug, err, linkErr)
}

// openInstead opens the route's lesson (slug; the default one on /), as
// open does when neither the link nor the saved work opens: savedErr is
// why the saved work did not (nil when there is none, or it is of another
// lesson), linkErr why the link did not; the first of them is shown.
func (sv *Server) openInstead(slug string, savedErr, linkErr error) Opened {
	s := sv.store
	defer func() {
		if linkErr != nil {
			s.Report(linkErr)
		}
	}()
	var o Opened
	if savedErr != nil {
		o.SavedErr = savedErr.Error()
		if linkErr == nil {
			linkErr = savedErr
		}
	}
	if slug == "" {
		slug = lessons.Default()
	}
	sc, err := lessons.Load(slug)
	if err != nil {
		if linkErr == nil {
			linkErr = err
		}
		return o
	}
	if err := s.Load(sc, slug); err != nil && linkErr == nil {
		linkErr = err
	}
	return o
}

// restore opens the saved work (what Save returned): the work stays when
// it does not open, and the answer says why.
func (sv *Server) restore(saved string) Opened {
	restored, err := sv.store.Restore(&savedWork{value: saved, ok: saved != ""})
	if err != nil {
		return Opened{SavedErr: err.Error()}
	}
	return Opened{Restored: restored}
}

// savedWork is the one value of store.SaveKey, as the page keeps it.
type savedWork struct {
	value string
	ok    bool
}

func (w *savedWork) Get(key string) (string, bool, error) {
	if key != store.SaveKey {
		return "", false, nil
	}
	return w.value, w.ok, nil
}

func (w *savedWork) Set(key, value string) error {
	if key == store.SaveKey {
		w.value, w.ok = value, true
	}
	return nil
}

// sameList reports whether a and b are the same list (the same array and
// length), not merely equal ones.
func sameList[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
