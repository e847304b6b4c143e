package app

import (
	"encoding/json"
	"strconv"

	"yarnplay/app/store"
	"yarnplay/scenarios"
	"yarnplay/wasm/bridge"
)

// Storage keys of the work kept aside (the work in progress is under
// store.SaveKey).
const (
	// KeptKey holds the works put aside when a link, a lesson or a file
	// replaced them: a JSON list, newest first.
	KeptKey = "yarnplay.kept"
	// BrokenKey holds saved work that did not open, with why.
	BrokenKey = "yarnplay.broken"
	// maxKept is how many works are kept aside; past it the oldest goes.
	maxKept = 5
)

// KeptWork is one work put aside: what store.Save wrote, and its title.
type KeptWork struct {
	Title string `json:"title"`
	Saved string `json:"saved"`
}

// BrokenWork is saved work that did not open: what store.Save wrote, and
// why it did not open.
type BrokenWork struct {
	Saved string `json:"saved"`
	Why   string `json:"why"`
}

// SavedWork is the work the browser keeps besides the work in progress:
// the works put aside and the saved work that did not open. It only moves
// what is stored; the page decides when (page_load.go). Nothing is ever
// dropped but by Discard, or the oldest past maxKept.
type SavedWork struct{ St bridge.Storage }

// Kept returns the works put aside, newest first (none when the storage
// holds none, or holds what this version does not read).
func (w SavedWork) Kept() []KeptWork {
	v, ok, err := w.St.Get(KeptKey)
	if err != nil || !ok || v == "" {
		return nil
	}
	var out []KeptWork
	if json.Unmarshal([]byte(v), &out) != nil {
		return nil
	}
	return out
}

func (w SavedWork) setKept(k []KeptWork) error {
	if len(k) == 0 {
		return w.St.Set(KeptKey, "")
	}
	b, err := json.Marshal(k)
	if err != nil {
		return err
	}
	return w.St.Set(KeptKey, string(b))
}

// PutAside moves the work in progress the storage holds (if any) to the
// front of the kept works, unless the same work is kept already; the work
// in progress is then none, until the next save.
func (w SavedWork) PutAside() error {
	v, ok, err := w.St.Get(store.SaveKey)
	if err != nil || !ok || v == "" {
		return err
	}
	kept := w.Kept()
	for _, k := range kept {
		if k.Saved == v {
			return w.St.Set(store.SaveKey, "")
		}
	}
	kept = append([]KeptWork{{Title: savedTitle(v), Saved: v}}, kept...)
	if len(kept) > maxKept {
		kept = kept[:maxKept]
	}
	if err := w.setKept(kept); err != nil {
		return err // the work in progress stays where it was
	}
	return w.St.Set(store.SaveKey, "")
}

// TakeBack makes kept work i the work in progress (store.Restore then
// opens it); the work in progress goes aside in its place.
func (w SavedWork) TakeBack(i int) error {
	kept := w.Kept()
	if i < 0 || i >= len(kept) {
		return nil
	}
	back := kept[i]
	kept = append(kept[:i:i], kept[i+1:]...)
	if v, ok, err := w.St.Get(store.SaveKey); err == nil && ok && v != "" && v != back.Saved {
		kept = append([]KeptWork{{Title: savedTitle(v), Saved: v}}, kept...)
	}
	if err := w.setKept(kept); err != nil {
		return err
	}
	return w.St.Set(store.SaveKey, back.Saved)
}

// Discard drops kept work i.
func (w SavedWork) Discard(i int) error {
	kept := w.Kept()
	if i < 0 || i >= len(kept) {
		return nil
	}
	return w.setKept(append(kept[:i:i], kept[i+1:]...))
}

// SetBroken moves the work in progress, which did not open (why), out of
// the way: the page then opens without it, and it is kept under BrokenKey
// to be downloaded or discarded.
func (w SavedWork) SetBroken(why string) error {
	v, ok, err := w.St.Get(store.SaveKey)
	if err != nil || !ok || v == "" {
		return err
	}
	b, err := json.Marshal(BrokenWork{Saved: v, Why: why})
	if err != nil {
		return err
	}
	if err := w.St.Set(BrokenKey, string(b)); err != nil {
		return err
	}
	return w.St.Set(store.SaveKey, "")
}

// Broken returns the saved work that did not open, if any.
func (w SavedWork) Broken() (BrokenWork, bool) {
	v, ok, err := w.St.Get(BrokenKey)
	if err != nil || !ok || v == "" {
		return BrokenWork{}, false
	}
	var b BrokenWork
	if json.Unmarshal([]byte(v), &b) != nil {
		return BrokenWork{Saved: v, Why: "it is in a form this yarnplay does not read"}, true
	}
	return b, true
}

// DiscardBroken drops the saved work that did not open.
func (w SavedWork) DiscardBroken() error { return w.St.Set(BrokenKey, "") }

// savedTitle is the title of saved work: its scenario's name, or a
// description of when it was put aside when it does not decode.
func savedTitle(saved string) string {
	var sv struct {
		Link string `json:"link"`
	}
	if json.Unmarshal([]byte(saved), &sv) == nil {
		if sc, step, _, err := scenarios.DecodeSavedLink(sv.Link); err == nil {
			name := sc.Name
			if name == "" {
				name = "Untitled work"
			}
			return name + ", at step " + strconv.Itoa(step)
		}
	}
	return "Earlier work (it no longer opens as it is)"
}
