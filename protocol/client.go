package protocol

import "yarnplay/app/store"

// Client sends commands to the simulation: Send returns at once, and done
// is called with the reply once it comes, on the caller's goroutine (the
// page's UI goroutine in the browser), in the order the commands were
// sent.
type Client interface {
	Send(c Command, done func(Reply))
}

// InProcess is a Client over a store in the same process: Send answers at
// once, before it returns (native tests, the pre-rendered pages).
type InProcess struct{ Server *Server }

// NewInProcess returns an in-process client over s.
func NewInProcess(s *store.Store) *InProcess { return &InProcess{Server: NewServer(s)} }

// Send applies c and calls done with the reply.
func (p *InProcess) Send(c Command, done func(Reply)) {
	rep := p.Server.Handle(c)
	p.Server.Compact(nil)
	if done != nil {
		done(rep)
	}
}
