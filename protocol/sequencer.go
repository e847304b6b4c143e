package protocol

// Sequencer sends commands through a Client one at a time: at most one is
// in flight, the others wait in order, and a repeatable move (see
// Command.Coalesces) sent while the same move waits replaces it, so that
// holding → or T queues at most one step behind the one under way, not
// fifty. It is used on one goroutine (the page's UI goroutine): the
// Client must call done there too.
type Sequencer struct {
	client   Client
	inFlight bool
	pending  []queued
	// Busy, if set, is called with true when a command goes out with none
	// in flight, and with false when the last reply is in.
	Busy func(busy bool)
}

type queued struct {
	c    Command
	done func(Reply)
}

// NewSequencer returns a sequencer over c.
func NewSequencer(c Client) *Sequencer { return &Sequencer{client: c} }

// Client returns the client the sequencer sends through.
func (q *Sequencer) Client() Client { return q.client }

// InFlight reports whether a command is under way.
func (q *Sequencer) InFlight() bool { return q.inFlight }

// Pending returns how many commands wait.
func (q *Sequencer) Pending() int { return len(q.pending) }

// Send sends c now, or once the commands before it are answered; done is
// called with its reply (never, for a command a later one replaced).
func (q *Sequencer) Send(c Command, done func(Reply)) {
	if q.inFlight || len(q.pending) > 0 {
		if n := len(q.pending); n > 0 && c.Coalesces(q.pending[n-1].c) {
			q.pending[n-1] = queued{c, done}
			return
		}
		q.pending = append(q.pending, queued{c, done})
		return
	}
	q.send(queued{c, done})
}

func (q *Sequencer) send(next queued) {
	q.inFlight = true
	if q.Busy != nil {
		q.Busy(true)
	}
	q.client.Send(next.c, func(rep Reply) {
		q.inFlight = false
		if next.done != nil {
			next.done(rep)
		}
		if !q.inFlight && len(q.pending) > 0 {
			n := q.pending[0]
			q.pending = q.pending[1:]
			q.send(n)
			return
		}
		if !q.inFlight && q.Busy != nil {
			q.Busy(false)
		}
	})
}
