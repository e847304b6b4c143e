package app

import (
	"errors"
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/protocol"
)

// savedState is what the page knows of the work the browser keeps: the
// work held when it last saved or restored (store.Works), what is kept
// aside, and whether a link's work waits to be saved once drawn.
type savedState struct {
	works   int
	kept    []KeptWork
	broken  *BrokenWork
	fresh   bool // something was put aside since the page opened
	pending bool // a link opened before the page drew: save it once drawn
}

// readSaved reads what is kept aside into the page's state.
func (p *Page) readSaved() {
	if p.storage == nil {
		return
	}
	if p.ctl != nil {
		p.ctl.Redraw() // the saved-work bar shows it
	}
	w := SavedWork{St: p.storage}
	p.saving.kept = w.Kept()
	p.saving.broken = nil
	if b, ok := w.Broken(); ok {
		p.saving.broken = &b
	}
}

// beforeSave puts the saved work aside when the simulation holds other
// work (works, its count of works when it answered the save) than the one
// last saved or restored (a link, a lesson, a file or a new scenario
// replaced it), so that saving the new work does not overwrite it. It
// reports whether the new work may be saved: false when the saved work
// could not be put aside (it stays, and the page says so).
func (p *Page) beforeSave(works int) bool {
	if works == p.saving.works {
		return true
	}
	w := SavedWork{St: p.storage}
	before := len(w.Kept())
	if err := w.PutAside(); err != nil {
		p.ctl.Report(errors.New("your saved work could not be put aside, so the new work is not saved: " + err.Error()))
		return false
	}
	p.saving.works = works
	p.readSaved()
	if len(p.saving.kept) > before {
		p.saving.fresh = true
	}
	return true
}

// takeBack opens kept work i, putting the work in progress aside: the
// work is saved first, then taken back once the save is in.
func (p *Page) takeBack(i int) {
	p.stopPlay()
	p.saveThen(func() {
		w := SavedWork{St: p.storage}
		if err := w.TakeBack(i); err != nil {
			p.ctl.Report(err)
			return
		}
		p.restoreSaved()
		p.readSaved()
	})
}

// restoreSaved opens the saved work (protocol.OpRestoreSaved: the page
// sends what it keeps); work that does not open is moved to BrokenKey,
// and the page keeps what it shows.
func (p *Page) restoreSaved() {
	v, ok, err := p.storage.Get(store.SaveKey)
	if err != nil {
		p.ctl.Report(fmt.Errorf("the saved work cannot be read: %w", err))
		return
	}
	if !ok {
		return
	}
	p.ctl.Send(protocol.Command{Op: protocol.OpRestoreSaved, Saved: v}, func(rep protocol.Reply) {
		o := protocol.OpenedOf(rep)
		if o.Restored {
			p.saving.works = rep.Works
			return
		}
		if o.SavedErr != "" {
			_ = SavedWork{St: p.storage}.SetBroken(o.SavedErr)
			p.readSaved()
		}
	})
}

// savedWorkBar says what work the browser keeps besides the work shown:
// saved work that did not open (to download or discard) and the works put
// aside (each one click away).
func (p *Page) savedWorkBar() app.UI {
	if p.prerendered || (len(p.saving.kept) == 0 && p.saving.broken == nil) {
		// Drawn hidden, so that the playground after it keeps its place
		// among the page's children when work is put aside (go-app would
		// draw it anew, the editors losing their state and focus).
		return app.Div().Class("saved-bar").Hidden(true)
	}
	w := SavedWork{St: p.storage}
	var broken app.UI
	if b := p.saving.broken; b != nil {
		broken = app.P().ID("saved-broken").Class("status error").Role("alert").Body(
			app.Text("Your saved work did not open ("+b.Why+"). It is kept: "),
			app.Button().Type("button").ID("saved-broken-download").Text("Download it").OnClick(func(app.Context, app.Event) {
				// The work broken at the click (see the package's doc on handlers).
				if b := p.saving.broken; b != nil {
					if err := p.ctl.Downloads.Download("yarnplay-saved-work.json", "application/json", []byte(b.Saved)); err != nil {
						p.ctl.Report(err)
					}
				}
			}),
			app.Text(" "),
			app.Button().Type("button").ID("saved-broken-discard").Text("Discard it").OnClick(func(app.Context, app.Event) {
				_ = w.DiscardBroken()
				p.readSaved()
			}),
		)
	}
	var kept app.UI
	if n := len(p.saving.kept); n > 0 {
		list := p.saving.kept
		label := "Your earlier work is kept: " + list[0].Title
		if n > 1 {
			label = "Your earlier work is kept (" + itoa(n) + ")"
		}
		kept = app.Details().ID("saved-work").Class("saved-work").Open(p.saving.fresh).Body(
			app.Summary().Text(label),
			app.Ul().Body(app.Range(list).Slice(func(i int) app.UI {
				return app.Li().Body(
					app.Span().Class("saved-title").Text(list[i].Title),
					app.Text(" "),
					app.Button().Type("button").Class("saved-open").Text("Open it").OnClick(func(app.Context, app.Event) { p.takeBack(i) }),
					app.Text(" "),
					app.Button().Type("button").Class("saved-discard").Text("Discard").OnClick(func(app.Context, app.Event) {
						_ = w.Discard(i)
						p.readSaved()
					}),
				)
			})),
		)
	}
	return app.Div().Class("saved-bar").Body(broken, kept)
}
