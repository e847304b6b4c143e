package protocol

import (
	"fmt"
	"reflect"
	"time"

	"yarnplay/app/store"
)

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
	st := &savedWork{value: saved, ok: true}
	// Work of many steps opens on its step first, the rest read once
	// the page was answered (ReadRest).
	if !s.RestoreHeadFor(st, slug) {
		if restored, err := s.RestoreFor(st, slug); !restored || err != nil {
			return // OpOpen will say why, as it would have
		}
	}
	sv.prepared = &prepared{store: s, saved: saved, lesson: s.Lesson()}
}

// Unread reports whether the server's work has later steps still to read
// (ReadRest).
func (sv *Server) Unread() bool { return sv.store.Unread() }

// ReadRest reads the later steps of the saved work Prepare opened in two
// parts (store.Store.RestoreHeadFor), once the page's OpOpen was answered
// with its step: rep is the reply the page then gets unasked, and push is
// false when it gets none. The step's frame differs then in the users
// the later steps name alone, which the page does not draw: it comes
// with the next reply, rather than at once with a render of the whole
// page. Saved work whose later steps do not read is replaced by what
// OpOpen would have opened instead, and rep's answer says so, as OpOpen's
// would have (Opened.SavedErr). Every other command reads the rest first.
func (sv *Server) ReadRest() (rep Reply, push bool) {
	if !sv.store.Unread() {
		return Reply{}, false
	}
	start := time.Now()
	head := sv.store.Frame()
	defer func() {
		if r := recover(); r != nil {
			rep.Err, push = fmt.Sprintf("internal error (reading the saved work): %v", r), true
		}
		if push {
			sv.publish(&rep, nil, false)
			rep.Took = time.Since(start)
		}
	}()
	if o, opened := sv.readRest(); opened {
		answer(&rep, o)
		return rep, true
	}
	return rep, !onlyUsersDiffer(head, sv.store.Frame())
}

// onlyUsersDiffer reports whether frames f and g differ in their users
// alone (store.Frame.Users). Frames of one state share their views'
// lists, which the comparison passes over without reading them.
func onlyUsersDiffer(f, g *store.Frame) bool {
	a, b := *f, *g
	a.Users, b.Users = nil, nil
	return reflect.DeepEqual(&a, &b)
}

// readRest reads the later steps of the saved work opened in two parts,
// if any; opened is set, with what came of it, when they did not read
// and the server opened what OpOpen would have opened instead.
func (sv *Server) readRest() (o Opened, opened bool) {
	if err := sv.store.ReadRest(); err != nil {
		return sv.openInstead(sv.slug, err, nil), true
	}
	return Opened{}, false
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
	sv.store, sv.slug = p.store, c.Name
	return true
}
