package app

import (
	"encoding/json"

	"yarnplay/app/store"
	"yarnplay/protocol"
	"yarnplay/wasm/bridge"
)

// DraftKey is the localStorage key under which the queue editor keeps a
// draft Hadoop refuses, so that a reload does not lose it: it is kept
// until it is applied or discarded. It is apart from the saved work
// (store.SaveKey), which holds only what was applied.
const DraftKey = "yarnplay.queue-draft"

// savedDraft is a refused draft and the work it belongs to.
type savedDraft struct {
	// Lesson and Title name the work: a draft comes back only on it.
	Lesson string            `json:"lesson"`
	Title  string            `json:"title"`
	Conf   map[string]string `json:"conf"`
}

// keepDraft stores the refused draft conf of the work f shows; a nil conf
// forgets the draft. Storage that fails (private browsing, quota) only
// costs the draft after a reload, so its error is dropped.
func keepDraft(st bridge.Storage, f *store.Frame, conf map[string]string) {
	if st == nil || f == nil {
		return
	}
	if conf == nil {
		if _, ok, _ := st.Get(DraftKey); ok {
			_ = st.Set(DraftKey, "")
		}
		return
	}
	b, err := json.Marshal(savedDraft{Lesson: f.Lesson, Title: f.Title, Conf: conf})
	if err == nil {
		_ = st.Set(DraftKey, string(b))
	}
}

// keptDraft is the refused draft stored for the work f shows, or nil.
// A draft of other work, or one that does not decode, is not returned.
func keptDraft(st bridge.Storage, f *store.Frame) map[string]string {
	if st == nil || f == nil {
		return nil
	}
	v, ok, err := st.Get(DraftKey)
	if err != nil || !ok || v == "" {
		return nil
	}
	var d savedDraft
	if json.Unmarshal([]byte(v), &d) != nil || d.Lesson != f.Lesson || d.Title != f.Title || len(d.Conf) == 0 {
		return nil
	}
	return d.Conf
}

// restoreDraft brings back, once, the refused draft kept for the work
// shown: it is shown refused with Hadoop's message, as it was before the
// reload (once the simulation has checked it: OpCheckConfig). A kept
// draft Hadoop now takes is forgotten rather than applied behind the
// user's back.
func (e *QueueEditor) restoreDraft() {
	if e.restored || e.F == nil {
		return
	}
	e.restored = true
	c := keptDraft(e.Storage, e.F)
	if c == nil {
		return
	}
	f, edits := e.F, e.edits
	e.Ctl.Send(protocol.Command{Op: protocol.OpCheckConfig, Conf: c}, func(rep protocol.Reply) {
		if e.edits != edits {
			return // edited meanwhile: the user's draft wins
		}
		if rep.Issue == nil {
			keepDraft(e.Storage, f, nil)
			return
		}
		e.draft, e.issue, e.dirty = c, rep.Issue, true
		e.Ctl.Redraw()
	})
}
