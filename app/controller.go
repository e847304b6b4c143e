package app

import (
	"errors"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/internal/noeq"
	"yarnplay/protocol"
	"yarnplay/wasm/bridge"
)

// Controller is how components reach the simulation: from their event
// handlers they send it commands (protocol.Command: the store's actions
// and questions as data); the simulation answers each with a reply and
// the frame it published, and the page renders the frame. Components
// never change a frame.
//
// The controller is an asynchronous client: Send returns at once, and the
// reply comes later (from the simulation's own thread in the browser; at
// once from a store in the same process natively, see protocol.InProcess).
// At most one command is in flight and repeats coalesce
// (protocol.Sequencer): holding → or T never queues fifty ticks. A
// command still under way after workingAfter puts the page in its
// "working" state until the last reply is in.
type Controller struct {
	seq     *protocol.Sequencer
	frame   *store.Frame
	works   int
	answers int
	// Clipboard, Downloads and Files reach the browser (in memory natively).
	Clipboard bridge.Clipboard
	Downloads bridge.Downloader
	Files     bridge.FileReader
	// Changed, if set, is called after every action but opening the work,
	// restoring the saved work and reporting the page's own errors (the
	// page saves the work, debounced).
	Changed func()
	// Replaced, if set, is called after an action that replaced the work
	// (another scenario, a reset): the page stops play.
	Replaced func()
	// Reopened, if set, is called when the saved work the opening showed
	// did not read to its end and the simulation opened other work
	// instead (Pushed), with what the opening then came to.
	Reopened func(protocol.Opened)
	// Working, if set, is called when the working state changes; after,
	// if set, runs a function on the UI goroutine after a delay (the
	// page's timers), for the working state's delay.
	Working func(working bool)
	// Idle, if set, is called when the last reply is in and none waits
	// (the page runs the actions that waited for it).
	Idle    func()
	after   func(time.Duration, func())
	working bool
	busyGen int
	// redraw is set by Redraw while a reply is handled.
	redraw bool

	// now reads the clock and report receives each action's timing (in
	// the browser, a performance measure; nil natively).
	now    func() time.Time
	report func(Timing)
}

// workingAfter is how long a command may take before the page shows that
// it is working.
const workingAfter = 100 * time.Millisecond

// Timing is what an action cost: from its sending to its reply (Wall),
// the simulation's own time on it (Work: the step played, its record and
// the frame's views, on the simulation's thread), and the step and kind
// of step the page stood on at its end.
type Timing struct {
	_          noeq.T
	Wall, Work time.Duration
	Step       int
	Kind       string
	// Op is the command's.
	Op protocol.Op
}

// NewController returns a controller sending its commands through c,
// with the page's bridges.
func NewController(c protocol.Client) *Controller {
	ctl := &Controller{
		seq:       protocol.NewSequencer(c),
		Clipboard: bridge.SystemClipboard(),
		Downloads: bridge.Downloads(),
		Files:     bridge.Files(),
		now:       time.Now,
	}
	if app.IsClient {
		ctl.report = measure
	}
	ctl.seq.Busy = ctl.busy
	return ctl
}

// NewLocalController returns a controller over a store in the same
// process (native tests, the pre-rendered pages).
func NewLocalController(s *store.Store) *Controller {
	ctl := NewController(protocol.NewInProcess(s))
	ctl.works = s.Works()
	if f := s.Frame(); f != nil {
		ctl.frame = f.ForPage("", true) // the page's frame, as the worker sends it
		ctl.frame.OwnContainers()       // the store reuses f's (protocol.NewServer)
	}
	return ctl
}

// Frame returns the last frame the simulation sent (nil before the
// first).
func (c *Controller) Frame() *store.Frame { return c.frame }

// Works returns the simulation's count of works in its last reply (see
// store.Store.Works): a new value means the work was replaced.
func (c *Controller) Works() int { return c.works }

// Answers counts the replies received that brought no frame: the panels
// that show a question's answer (the share panel, the queue editor) take
// it as a property, so that such a reply draws them again (a reply with a
// frame draws the page, and does not draw again a panel whose other
// values did not change: at every tick).
func (c *Controller) Answers() int { return c.answers }

// Busy reports whether a command is under way or waits.
func (c *Controller) Busy() bool { return c.seq.InFlight() || c.seq.Pending() > 0 }

// IsWorking reports whether the page shows its working state.
func (c *Controller) IsWorking() bool { return c.working }

// Do sends an action; its reply's frame is rendered when it comes.
func (c *Controller) Do(cmd protocol.Command) { c.Send(cmd, nil) }

// Send sends a command and calls done with its reply once the frame it
// brought, if any, is the controller's (done is not called for a repeat
// that a later one replaced).
func (c *Controller) Send(cmd protocol.Command, done func(protocol.Reply)) {
	start := c.now()
	actionsBegun++
	c.seq.Send(cmd, func(rep protocol.Reply) {
		c.receive(cmd, rep, start)
		if done != nil {
			done(rep)
		}
	})
}

// receive takes a reply in: its frame, and whether the work was replaced.
func (c *Controller) receive(cmd protocol.Command, rep protocol.Reply, start time.Time) {
	if rep.Frame == nil {
		c.answers++
	}
	c.take(rep)
	if changes(cmd.Op) && c.Changed != nil {
		c.Changed()
	}
	// The canvas's news (NodeGrid) is the page's, not a user's action.
	if c.report != nil && c.frame != nil && cmd.Op != protocol.OpCanvas {
		c.report(Timing{Wall: c.now().Sub(start), Work: rep.Took, Step: c.frame.Step, Kind: c.frame.Kind, Op: cmd.Op})
	}
}

// take makes rep's work and frame the controller's, and says when the
// work was replaced (Replaced).
func (c *Controller) take(rep protocol.Reply) {
	replaced := rep.Works != c.works && c.frame != nil
	c.works = rep.Works
	if rep.Frame != nil {
		c.frame = rep.Frame
	}
	if replaced && c.Replaced != nil {
		c.Replaced()
	}
}

// Pushed takes in a reply the simulation sent unasked: the frame shown
// again once the node canvas caught up with it (protocol.Server.CatchUp)
// or once the saved work opened in two parts is read whole
// (protocol.Server.ReadRest), unless the work was replaced since. Saved
// work whose later steps did not read comes back as the work opened
// instead, with OpOpen's answer, which the page takes in as the opening's
// (Reopened).
func (c *Controller) Pushed(rep protocol.Reply) {
	if o := protocol.OpenedOf(rep); o.SavedErr != "" {
		c.take(rep)
		if c.Reopened != nil {
			c.Reopened(o)
		}
		return
	}
	if rep.Frame != nil && rep.Works == c.works {
		c.frame = rep.Frame
	}
}

// Redraw asks for the page to be drawn again after the reply being
// handled: for a reply's handler that changed what the page shows without
// a new frame (an answer, the work kept aside). A reply that brings a
// frame draws the page anyway.
func (c *Controller) Redraw() { c.redraw = true }

// Report shows an error of the page's own (storage, downloads) in the
// frame, as the store shows its refusals.
func (c *Controller) Report(err error) {
	if err != nil {
		c.Do(protocol.Command{Op: protocol.OpReport, Text: err.Error()})
	}
}

// replyErr is a reply's error as an error (nil when it succeeded).
func replyErr(rep protocol.Reply) error {
	if rep.Err == "" {
		return nil
	}
	return errors.New(rep.Err)
}

// changes reports whether the work is to be saved after op: not after a
// question, nor after opening the work (it is the saved work, or is saved
// as its opening says) or reporting the page's own error.
func changes(op protocol.Op) bool {
	switch op {
	case protocol.OpOpen, protocol.OpOpenLink, protocol.OpReport, protocol.OpRestoreSaved:
		return false
	}
	return !op.Question()
}

// busy is the sequencer's news: a command went out with none under way
// (the working state comes workingAfter later if it is still out), or
// the last reply came in.
func (c *Controller) busy(busy bool) {
	c.busyGen++
	if busy {
		if c.after == nil {
			return
		}
		gen := c.busyGen
		c.after(workingAfter, func() {
			if gen == c.busyGen && c.Busy() {
				c.setWorking(true)
			}
		})
		return
	}
	c.setWorking(false)
	if c.Idle != nil {
		c.Idle()
	}
}

func (c *Controller) setWorking(w bool) {
	if c.working == w {
		return
	}
	c.working = w
	if c.Working != nil {
		c.Working(w)
	}
}

// refresh flags the component of an event's ctx for an update (in the
// browser): for a reply that changes a component's own fields, which may
// come after its event handler has returned.
func refresh(ctx app.Context) {
	if app.IsClient {
		ctx.Update()
	}
}
