package protocol

import "yarnplay/app/store"

// prepared is the saved work opened ahead of the page's first command
// (Server.Prepare), into a store of its own.
type prepared struct {
	store  *store.Store
	saved  string
	lesson string // the saved work's lesson
}

// Prepare opens the saved work (what Save returned) for the page that
// opens the route of lesson slug ("" on /), before the page asks: the
// simulation's worker starts on it while the page is still loading. It
// does what OpOpen does with that saved work and no share link, into a
// store of its own; the server's first command, if it is exactly such an
// OpOpen, then answers with that store at once, and any other first
// command sets it aside and runs as it would have. So every reply is what
// it would be without Prepare, only sooner. Prepare does nothing once a
// command has been handled, or for work that would not open there.
func (sv *Server) Prepare(saved, slug string) {
	if sv.handled || sv.prepared != nil || saved == "" {
		return
	}
	s := store.New()
	s.ReuseViews() // as NewServer has its store
	s.DeferCheckpoints()
	if restored, err := s.RestoreFor(&savedWork{value: saved, ok: true}, slug); !restored || err != nil {
		return // OpOpen will say why, as it would have
	}
	sv.prepared = &prepared{store: s, saved: saved, lesson: s.Lesson()}
}

// takePrepared reports whether c, the server's first command, is the
// OpOpen the prepared work answers (Server.open would restore exactly that
// saved work into the server's new store): the server then takes the
// prepared store as its own. Either way the prepared work is gone.
func (sv *Server) takePrepared(c Command) bool {
	p := sv.prepared
	sv.prepared = nil
	sv.handled = true
	// The same saved work has the same lesson: no need to read it again.
	if p == nil || c.Op != OpOpen || c.Text != "" || c.Saved != p.saved || (c.Name != "" && p.lesson != c.Name) {
		return false
	}
	sv.store = p.store
	return true
}
