package store

import (
	"fmt"

	"yarnplay/scenarios"
)

// RestoreHeadFor is RestoreFor in two parts, for saved work of many
// steps: it opens the work on its step from the steps up to it
// (scenarios.DecodeSavedLinkHead), which is all the step's frame needs
// but the number of steps, which the frame has, and the users the later
// steps name, which it lacks; ReadRest then reads the rest. At benchmark
// 5's scale the steps are nearly all of the saved work, and the step
// shows while they are read. It returns false, changing nothing, when
// st keeps no work, or work of another lesson than slug (of any when
// slug is ""), or work that does not read in two parts: RestoreFor then
// opens it, or says why it does not. Until ReadRest, the store takes
// no action.
func (s *Store) RestoreHeadFor(st Storage, slug string) bool {
	sv, ok := readSaved(st)
	if !ok || slug != "" && sv.Lesson != slug {
		return false
	}
	h, ok := scenarios.DecodeSavedLinkHead(sv.Link)
	if !ok {
		return false
	}
	before := *s
	if err := s.openHead(h.Scenario, sv.Lesson, h.Step, h.Selection, "the saved work", h); err != nil {
		*s = before
		return false
	}
	return true
}

// Unread reports whether the work's later steps are still to be read
// (RestoreHeadFor, ReadRest).
func (s *Store) Unread() bool { return s.rest != nil }

// ReadRest reads the steps of the work RestoreHeadFor left unread and
// publishes the step's frame again, now whole: the store is then what
// RestoreFor would have made of the saved work. Saved work that does not
// read to its end (its later steps are not valid) is refused with
// RestoreFor's error and the store keeps the head, which the caller
// replaces with what opens instead; so is a panic while reading them.
func (s *Store) ReadRest() (err error) {
	h := s.rest
	if h == nil {
		return nil
	}
	s.rest = nil
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the saved work does not open: internal error while reading it: %v", r)
		}
	}()
	whole, err := h.Whole()
	if err != nil {
		return fmt.Errorf("the saved work does not open: %w", err)
	}
	// The head is the whole's start and first steps, read from the same
	// document by the same rules (scenarios.LinkHead): the players move on
	// with the whole scenario, from where they stand.
	for i := range s.cps {
		s.cps[i].p.Rebase(whole)
	}
	for _, c := range []*checkpoint{s.near, s.due} {
		if c != nil {
			c.p.Rebase(whole)
		}
	}
	if g := s.going; g != nil {
		g.doc = whole
		if g.p != nil {
			g.p.Rebase(whole)
		}
	}
	if s.cur != nil {
		s.cur.Rebase(whole)
	}
	s.doc, s.origin = whole, whole
	s.link, s.tail, s.stepUsers = linkCache{}, nil, stepUsers{}
	s.publish()
	return nil
}

// steps is the number of steps of the work, those still to read included.
func (s *Store) steps() int {
	if s.rest != nil {
		return s.rest.Steps
	}
	return len(s.doc.Steps)
}
