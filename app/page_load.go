package app

import (
	"errors"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/protocol"
	"yarnplay/wasm/bridge"
)

// saveDelay is how long the page waits after a change before it saves the
// work to localStorage (changes in between push the save back). A big
// scenario takes long to save (it is encoded and compressed whole in the
// simulation's worker, and localStorage keeps it in the page's thread):
// the page then waits saveCostFactor times as long as the last save took, so
// that saving costs at most about a tenth of the time while the work
// keeps changing, and happens once it rests.
const (
	saveDelay      = 400 * time.Millisecond
	saveCostFactor = 10
)

// OnPreRender runs natively, when the static page is made: it loads the
// route's lesson at its start into a fresh store, exactly as a first visit
// opens it, and marks the page pre-rendered (inert until the browser takes
// over). A page that already has a store (tests) keeps it.
func (p *Page) OnPreRender(ctx app.Context) {
	p.slug = LessonOf(sitePath(ctx.Page().URL().Path))
	if p.ctl != nil {
		return
	}
	p.mount(ctx, NewLocalController(store.New()), bridge.NewMemoryStorage(), bridge.NewMemoryFragment())
	p.prerendered = true
	p.Load(p.slug)
}

// OnInit runs in the browser before the first render: on the page the
// browser opened (not on a route reached by a link inside the app, where
// the address still names the previous page; OnNav loads those), it starts
// the simulation's worker, makes the bridges and asks for the work at
// once; the page shows that the scheduler is starting until the worker's
// first frame comes.
func (p *Page) OnInit() {
	if !app.IsClient || sitePath(app.Window().URL().Path) != p.route {
		return
	}
	loadMeasure("page start", 0)
	p.mount(app.Context{}, p.newController(), bridge.LocalStorage(), bridge.LocationHash())
	p.Load(LessonOf(p.route))
}

// OnMount runs in the browser only: it takes the page's context for the
// timers, listens to the keyboard and marks the page live (data-app="live"
// on its root, set at once rather than by a new render: nothing else on
// the page changes, and rendering the whole page again costs as much as
// the first render).
func (p *Page) OnMount(ctx app.Context) {
	if p.ctl == nil {
		p.mount(ctx, p.newController(), bridge.LocalStorage(), bridge.LocationHash())
	} else {
		ctx.PreventUpdate()
	}
	p.ui = ctx
	p.timers = true
	p.sight = newPanelSight()
	// A timer's work shows itself (the working state, see showWorking):
	// a render of the whole page for it would cost as much as a frame's.
	p.ctl.after = func(d time.Duration, fn func()) {
		ctx.After(d, func(ctx app.Context) { ctx.PreventUpdate(); fn() })
	}
	p.ctl.Working = p.showWorking
	p.ctl.Idle = func() {
		if len(p.stages.queued) > 0 {
			p.nextStage()
		}
	}
	loadMeasure("page mounted", 0)
	p.runEarly()
	p.live = true
	if p.saving.pending {
		// A link opened before the page drew: saved once it has (a link
		// that cannot be drawn is never saved over the work).
		p.saving.pending = false
		p.changed(ctx)
	}
	p.JSValue().Call("setAttribute", "data-app", "live")
	keys := bridge.PageKeyboard()
	p.stopKey = keys.Listen(func(k bridge.Key) bool {
		if k.Typing || k.Ctrl || k.Meta || k.Alt || shortcut(k.Key) == "" {
			return false
		}
		ctx.Dispatch(func(ctx app.Context) {
			if !k.Repeat && stepKey(shortcut(k.Key)) {
				// A step's key pressed goes to the simulation at once,
				// while the page's later stages are still drawing the
				// last step: the simulation works in its own thread
				// meanwhile, the commands go in the order they came, and
				// the stages take the newest frame in their turns.
				p.key(ctx, k.Key, false)
				return
			}
			if k.Repeat && (p.drawing() || p.ctl.Busy()) {
				// A key held down goes as fast as the page draws and the
				// simulation answers: the repeats that come meanwhile are
				// dropped, not queued to play on after the key is let go.
				ctx.PreventUpdate()
				return
			}
			p.whenDrawn(ctx, func(ctx app.Context) { p.key(ctx, k.Key, k.Repeat) })
		})
		return true
	})
}

// mount sets the page up with a controller and where it keeps the work;
// tests call it with a store in the process and in-memory bridges.
func (p *Page) mount(ctx app.Context, ctl *Controller, st bridge.Storage, hash bridge.Fragment) {
	p.ctl = ctl
	p.storage, p.hash = st, hash
	p.speed = DefaultSpeed
	p.ui = ctx
	p.ctl.Changed = func() { p.changed(p.ui) }
	p.ctl.Replaced = p.stopPlay
	p.ctl.Reopened = func(o protocol.Opened) { p.savedDidNotOpen(o.SavedErr) }
	p.saving = savedState{}
	p.readSaved()
}

// OnDismount stops listening to the keyboard and playing.
func (p *Page) OnDismount() {
	if p.stopKey != nil {
		p.stopKey()
	}
	p.stopPlay()
	p.stages.release()
	p.sight.release()
	p.sight = nil
}

// OnNav loads the work when the page opens (unless OnInit has) and when a
// link inside the app opens another route (go-app keeps the same Page for
// every route), and opens a share link pasted into the address bar later.
func (p *Page) OnNav(ctx app.Context) {
	if p.ctl == nil {
		return
	}
	if slug := LessonOf(sitePath(ctx.Page().URL().Path)); !p.loaded || slug != p.slug {
		p.Load(slug)
		return
	}
	if frag, _ := p.hash.Get(); frag != p.frag && strings.Contains(frag, "s=") {
		p.frag = frag
		p.openLink(frag)
		return
	}
	ctx.PreventUpdate()
}

// Load brings in the work for a route: a share link in the fragment wins;
// else the saved work (on /, or on the page of the lesson it started
// from); else the route's lesson, or the default one (protocol.OpOpen). A
// link that does not open says why, over the work loaded instead. Play
// stops: the work opens paused. A link that opens is cleared from the
// address, and the work saved instead, so a reload keeps later changes.
func (p *Page) Load(slug string) {
	p.stopPlay()
	p.slug, p.loaded = slug, true
	p.frag, _ = p.hash.Get()
	if v, has, _ := p.storage.Get(store.SaveKey); has && v != "" {
		if _, ok := store.SavedLesson(p.storage); !ok {
			// Saved work this version does not read (a newer one's, or cut
			// short): kept aside, to download or discard.
			_ = SavedWork{St: p.storage}.SetBroken("it is in a form this yarnplay does not read")
			p.readSaved()
		}
	}
	cmd := protocol.Command{Op: protocol.OpOpen, Name: slug}
	if strings.Contains(p.frag, "s=") {
		cmd.Text = p.frag
	}
	if v, ok, err := p.storage.Get(store.SaveKey); err == nil && ok {
		cmd.Saved = v
	}
	sent := pageNow()
	p.ctl.Send(cmd, func(rep protocol.Reply) {
		loadMeasure("open", sent)
		if p.timers {
			got := pageNow()
			p.ui.Defer(func(app.Context) { loadMeasure("first render", got) })
		}
		o := protocol.OpenedOf(rep)
		switch {
		case o.Link:
			p.linkOpened()
		case o.Restored:
			p.saving.works = rep.Works
		case o.SavedErr != "":
			p.savedDidNotOpen(o.SavedErr)
		}
	})
}

// savedDidNotOpen keeps the saved work that did not open aside, to
// download or discard, and says why: the page opens without it. The
// saved work opened in two parts finds it out once the page shows its
// step (Controller.Reopened): the work shown then is not the saved one.
func (p *Page) savedDidNotOpen(why string) {
	p.saving.works = 0
	_ = SavedWork{St: p.storage}.SetBroken(why)
	p.readSaved()
}

// openLink opens a share link, paused (play stops); a link that does not
// open keeps the work, playing or not, and says why.
func (p *Page) openLink(frag string) {
	p.ctl.Send(protocol.Command{Op: protocol.OpOpenLink, Text: frag}, func(rep protocol.Reply) {
		if rep.Err == "" {
			p.linkOpened()
		}
	})
}

// linkOpened stops play and clears the fragment; the work is saved once
// the page has drawn it (the saved work it replaces goes aside first:
// save), so a reload keeps later changes.
func (p *Page) linkOpened() {
	p.stopPlay()
	_ = p.hash.Set("")
	p.frag = ""
	switch {
	case p.timers:
		p.changed(p.ui) // saved after the delay, once drawn
	case app.IsClient:
		p.saving.pending = true // OnMount saves it
	default:
		p.save()
	}
}

// changed schedules a save of the work.
func (p *Page) changed(ctx app.Context) {
	if !p.timers {
		p.save()
		return
	}
	p.saveGen++
	gen := p.saveGen
	ctx.After(max(saveDelay, saveCostFactor*p.saveCost), func(ctx app.Context) {
		f, kept := p.ctl.Frame(), len(p.saving.kept)
		if gen == p.saveGen {
			p.save()
		}
		if p.ctl.Frame() == f && len(p.saving.kept) == kept {
			// Nothing to show (a save that fails says so in a new frame,
			// one that put work aside in the saved-work bar): no render
			// of the whole page.
			ctx.PreventUpdate()
		}
	})
}

// save keeps the work in localStorage now.
func (p *Page) save() { p.saveThen(nil) }

// saveThen keeps the work in localStorage, then runs then (if set) once it
// is kept. The simulation answers the work as the page keeps it; when it
// holds other work than the one last saved or restored (a link, a lesson,
// a file or a new scenario replaced it), the saved work goes aside first
// (beforeSave), so that saving the new work does not overwrite it.
func (p *Page) saveThen(then func()) {
	if p.storage == nil || !p.loaded {
		if then != nil {
			then()
		}
		return
	}
	st := p.storage
	p.ctl.Send(protocol.Command{Op: protocol.OpSave}, func(rep protocol.Reply) {
		// The simulation's own time on it, not the time it waited
		// behind other commands, and the page's on keeping it.
		p.saveCost = rep.Took
		if then != nil {
			defer then()
		}
		if !p.beforeSave(rep.Works) {
			return // the saved work could not be put aside: it stays
		}
		err := rep.Err
		if err == "" {
			// localStorage keeps it at once, in the page's thread: a big
			// cluster's work (megabytes) takes a tenth of a second or
			// more, which the next save's delay counts (changed), so
			// that ticks in a row do not each pay for a save.
			start := time.Now()
			if e := st.Set(store.SaveKey, rep.Text); e != nil {
				err = e.Error()
			}
			p.saveCost += time.Since(start)
		}
		if err != "" {
			p.ctl.Report(errors.New("the work cannot be saved in this browser: " + err))
		}
	})
}

// togglePlay starts or stops play.
func (p *Page) togglePlay() {
	p.playing = !p.playing
	p.playGen++
	if p.playing {
		p.beat(p.playGen)
	}
}

// stopPlay stops play; a beat already scheduled does nothing.
func (p *Page) stopPlay() {
	p.playing = false
	p.playGen++
}

// beat plays one step after the speed's interval, then the next.
func (p *Page) beat(gen int) {
	if !p.timers {
		return
	}
	ctx := p.ui
	interval := time.Duration(float64(time.Second) / Speeds[min(max(p.speed, 0), len(Speeds)-1)])
	ctx.After(interval, func(ctx app.Context) {
		p.whenDrawn(ctx, func(ctx app.Context) {
			if !p.playing || gen != p.playGen {
				return
			}
			p.ctl.Send(protocol.Command{Op: protocol.OpPlayStep}, func(rep protocol.Reply) {
				if !rep.Played {
					if gen == p.playGen {
						p.playing = false
					}
					return
				}
				p.beat(gen)
			})
		})
	})
}

func (p *Page) setSpeed(i int) { p.speed = min(max(i, 0), len(Speeds)-1) }

func (p *Page) toggleKeys() { p.showKeys = !p.showKeys }

// shortcut names the action of a key ("" for none).
func shortcut(key string) string {
	switch key {
	case " ", "Spacebar":
		return "play"
	case "ArrowRight":
		return "forward"
	case "ArrowLeft":
		return "back"
	case "t", "T":
		return "tick"
	case "Home":
		return "first"
	case "End":
		return "last"
	case "r", "R":
		return "reset"
	case "?":
		return "help"
	case "Escape":
		return "close"
	case "w", "W":
		return "walk"
	}
	return ""
}

// stepKey reports whether a shortcut moves the simulation (a command to
// send), rather than the page (play, the list of keys, the walk): a step's
// key pressed is sent at once, where the page's own keys wait for the
// steps before them to be drawn.
func stepKey(s string) bool {
	switch s {
	case "forward", "back", "tick", "first", "last", "reset":
		return true
	}
	return false
}

// Key runs a keyboard shortcut (keys typed into fields never get here).
func (p *Page) Key(ctx app.Context, key string) { p.key(ctx, key, false) }

// key runs a keyboard shortcut; a repeat (the key held down) replaces the
// same command waiting to be sent (protocol.Command.Coalesces).
func (p *Page) key(ctx app.Context, key string, repeat bool) {
	if p.ctl == nil || !p.loaded {
		return
	}
	do := func(op protocol.Op) { p.ctl.Do(protocol.Command{Op: op, Repeat: repeat}) }
	if walkKey(shortcut(key)) {
		return
	}
	switch shortcut(key) {
	case "play":
		p.togglePlay()
	case "forward":
		do(protocol.OpForward)
	case "back":
		do(protocol.OpBack)
	case "tick":
		do(protocol.OpForwardTick)
	case "first":
		do(protocol.OpFirst)
	case "last":
		do(protocol.OpLast)
	case "reset":
		p.stopPlay()
		do(protocol.OpReset)
	case "help":
		p.toggleKeys()
	case "close":
		p.showKeys = false
	}
}
