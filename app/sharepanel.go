package app

import (
	"errors"
	"hash/fnv"
	"reflect"
	"slices"
	"strings"
	"unsafe"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/core"
	"yarnplay/protocol"
	"yarnplay/scenarios/snapshot"
	"yarnplay/wasm/bridge"
)

// SharePanel shares and moves the work: a link (with its length, and a
// warning past store.LinkWarnBytes, where a file travels better), copy,
// downloads of the scenario file and of capacity-scheduler.xml, and
// imports of either, pasted or from a file. A refused import says why and
// keeps the work.
type SharePanel struct {
	app.Compo

	// Selected is the frame's selected queue, which a link keeps, and
	// Warnings the configuration's properties Hadoop would ignore
	// (configWarnings): plain values, not the frame, so that the panel
	// renders again only when they change, not at every step. Shown is
	// false before the first frame. Ctl reaches the store.
	Selected string
	Warnings []string
	Shown    bool
	Ctl      *Controller
	// Undo, if set, keeps the work before a blank scenario or an import.
	Undo *Undo
	// Answers is the controller's count of replies that brought no frame
	// (Controller.Answers): a new one draws the panel again, for the link
	// or the export it answered.
	Answers int

	link, status string
	// importErr is the last import's refusal, shown next to the import
	// controls (and focused); focusErr asks the next render to focus it.
	importErr string
	focusErr  bool
}

// Render draws the panel.
func (p *SharePanel) Render() app.UI {
	return app.Section().ID("share").Class("panel share-panel").Aria("labelledby", "share-title").Body(
		app.H2().ID("share-title").Text("Share, export, import"),
		app.Div().Class("form-row").Body(
			app.Button().Type("button").ID("share-make").Text("Make a share link").OnClick(p.makeLink),
			app.Button().Type("button").ID("export-yaml").Text("Download the scenario (YAML)").OnClick(p.exportYAML),
			app.Button().Type("button").ID("export-xml").Text("Download capacity-scheduler.xml").OnClick(p.exportXML),
			app.Button().Type("button").ID("export-rest").Title("scheduler.json, nodes.json, apps.json, containers.json and capacity-scheduler.xml, as a ResourceManager's REST API serves them: yarnplay-why and this page read them back").
				Text("Download as ResourceManager REST responses").OnClick(p.exportREST),
		),
		app.If(p.link != "", func() app.UI {
			long := len(p.link) > store.LinkWarnBytes
			return app.Div().Class("share-link").Body(
				app.Label().For("share-url").Text("Link to this step"+selText(p.Selected)),
				app.Input().ID("share-url").Type("text").ReadOnly(true).Value(p.link).
					OnFocus(func(ctx app.Context, _ app.Event) { ctx.JSSrc().Call("select") }),
				app.Button().Type("button").ID("share-copy").Text("Copy").OnClick(p.copy),
				app.P().ID("share-length").Class("muted").Text(itoa(len(p.link))+" characters"),
				app.If(long, func() app.UI {
					return app.P().ID("share-warning").Class("notice").Text("This link is longer than " +
						itoa(store.LinkWarnBytes) + " characters: chat tools and tickets may cut it. Download the scenario file instead.")
				}),
			)
		}),
		app.If(p.status != "", func() app.UI {
			return app.P().ID("share-status").Class("muted").Aria("live", "polite").Text(p.status)
		}),
		app.Details().ID("import").Class("import").Body(
			app.Summary().Text("Import a scenario or a capacity-scheduler.xml"),
			app.Label().For("import-text").Text("Paste a scenario (YAML or JSON) or a capacity-scheduler.xml"),
			app.Textarea().ID("import-text").Rows(6).Spellcheck(false),
			app.Div().Class("form-row").Body(
				app.Button().Type("button").ID("import-scenario").Text("Import as scenario").OnClick(p.importScenario),
				app.Button().Type("button").ID("import-xml").Text("Import as capacity-scheduler.xml").OnClick(p.importXML),
			),
			// Right under the buttons, above the file inputs: next to
			// whichever import was tried. Drawn always (hidden when
			// empty), so that the inputs after it are never drawn anew.
			app.P().ID("import-error").Class("status error").Role("alert").TabIndex(-1).Hidden(p.importErr == "").Text(p.importErr),
			app.Label().For("import-file").Text("Or open a file (.yaml, .json or .xml)"),
			app.Input().ID("import-file").Type("file").Accept(".yaml,.yml,.json,.xml,text/xml,application/xml").OnChange(p.importFile),
			app.Label().For("import-snapshot").Text("Or open a running cluster: its ResourceManager's scheduler, nodes and apps responses (JSON or XML), with capacity-scheduler.xml if you have it, chosen together"),
			app.Input().ID("import-snapshot").Type("file").Multiple(true).Accept(".json,.xml,application/json,text/xml,application/xml").OnChange(p.importSnapshot),
			app.Button().Type("button").ID("new-blank").Text("Start a blank scenario").OnClick(p.blank),
			app.If(len(p.Warnings) > 0, func() app.UI { return configWarningsView(p.Warnings) }),
		),
	)
}

// sharePanel is the share panel of frame f (nil before the first).
func sharePanel(f *store.Frame, ctl *Controller, undo *Undo) *SharePanel {
	p := &SharePanel{Ctl: ctl, Undo: undo, Answers: ctl.Answers()}
	if f != nil {
		p.Selected, p.Warnings, p.Shown = f.Selected, configWarnings(f), true
	}
	return p
}

func selText(selected string) string {
	if selected == "" {
		return ""
	}
	return ", with " + selected + " selected"
}

func (p *SharePanel) makeLink(ctx app.Context, _ app.Event) {
	p.Ctl.Send(protocol.Command{Op: protocol.OpLink}, func(rep protocol.Reply) {
		defer refresh(ctx)
		if rep.Err != "" {
			p.status = "No link: " + rep.Err
			return
		}
		// The page's address now, read when needed: reading it at every
		// render cost as much as the rest of the page's own render.
		p.link = pageBase() + "#" + rep.Text
		p.status = ""
	})
}

func (p *SharePanel) copy(app.Context, app.Event) {
	if err := p.Ctl.Clipboard.WriteText(p.link); err != nil {
		p.status = "Copy it by hand: " + err.Error()
		return
	}
	p.status = "Link copied."
}

func (p *SharePanel) exportYAML(ctx app.Context, _ app.Event) {
	name := fileName(p.Ctl.Frame()) + ".yaml"
	p.Ctl.Send(protocol.Command{Op: protocol.OpExportYAML}, func(rep protocol.Reply) {
		defer refresh(ctx)
		var err error
		if rep.Err != "" {
			err = errors.New(rep.Err)
		} else {
			err = p.Ctl.Downloads.Download(name, "application/yaml", rep.Data)
		}
		p.done(err, "Scenario downloaded.")
	})
}

func (p *SharePanel) exportXML(ctx app.Context, _ app.Event) {
	p.Ctl.Send(protocol.Command{Op: protocol.OpExportXML}, func(rep protocol.Reply) {
		defer refresh(ctx)
		err := p.Ctl.Downloads.Download("capacity-scheduler.xml", "application/xml", rep.Data)
		p.done(err, "capacity-scheduler.xml downloaded.")
	})
}

// exportREST downloads the state at this step as a ResourceManager's REST
// responses, one file each.
func (p *SharePanel) exportREST(ctx app.Context, _ app.Event) {
	p.Ctl.Send(protocol.Command{Op: protocol.OpExportSnapshot}, func(rep protocol.Reply) {
		defer refresh(ctx)
		err := replyErr(rep)
		var files []snapshot.File
		if err == nil {
			files, err = protocol.FilesOf(rep)
		}
		for _, f := range files {
			if err != nil {
				break
			}
			mime := "application/json"
			if strings.HasSuffix(f.Name, ".xml") {
				mime = "application/xml"
			}
			err = p.Ctl.Downloads.Download(f.Name, mime, f.Data)
		}
		p.done(err, "The REST responses downloaded: scheduler.json, nodes.json, apps.json, containers.json, capacity-scheduler.xml.")
	})
}

func (p *SharePanel) done(err error, ok string) {
	if err != nil {
		p.status = err.Error()
		return
	}
	p.status = ok
}

func (p *SharePanel) importScenario(ctx app.Context, _ app.Event) {
	text := inputValue("import-text")
	p.replace(ctx, "imported a pasted scenario over your work",
		protocol.Command{Op: protocol.OpImportScenario, Name: "pasted scenario", Data: []byte(text)})
	p.link = ""
}

func (p *SharePanel) importXML(ctx app.Context, _ app.Event) {
	text := inputValue("import-text")
	p.replace(ctx, "imported a capacity-scheduler.xml over your work", protocol.Command{Op: protocol.OpImportXMLText, Text: text})
	p.link = ""
}

func (p *SharePanel) importFile(ctx app.Context, _ app.Event) {
	p.Ctl.Files.ReadFile("import-file", func(name string, data []byte, err error) {
		ctx.Dispatch(func(ctx app.Context) {
			p.link = ""
			if err != nil {
				p.status = "The file cannot be read: " + err.Error()
				return
			}
			cmd := protocol.Command{Op: protocol.OpImportScenario, Name: name, Data: data}
			if strings.HasSuffix(strings.ToLower(name), ".xml") {
				cmd = protocol.Command{Op: protocol.OpImportXML, Data: data}
			}
			p.replace(ctx, "opened "+name+" over your work", cmd)
		})
	})
}

// importSnapshot opens a cluster snapshot from the files chosen together
// (package snapshot sorts them by what they hold).
func (p *SharePanel) importSnapshot(ctx app.Context, _ app.Event) {
	p.Ctl.Files.ReadFiles("import-snapshot", func(files []bridge.File, err error) {
		ctx.Dispatch(func(ctx app.Context) {
			p.link = ""
			if err != nil {
				p.status = "The files cannot be read: " + err.Error()
				return
			}
			in := make([]snapshot.File, len(files))
			for i, f := range files {
				in[i] = snapshot.File{Name: f.Name, Data: f.Data}
			}
			p.replace(ctx, "opened a cluster snapshot over your work", protocol.Command{Op: protocol.OpImportSnapshot, Files: in})
		})
	})
}

func (p *SharePanel) blank(ctx app.Context, _ app.Event) {
	p.replace(ctx, "started a blank scenario", protocol.Command{Op: protocol.OpBlank})
	p.importErr = ""
	p.link = ""
}

// fileName is a file name for the work: its title in lower case, dashes
// for the rest.
func fileName(f *store.Frame) string {
	if f == nil || f.Title == "" {
		return "scenario"
	}
	var b strings.Builder
	for _, r := range strings.ToLower(f.Title) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else if b.Len() > 0 && !strings.HasSuffix(b.String(), "-") {
			b.WriteByte('-')
		}
	}
	return orText(strings.Trim(b.String(), "-"), "scenario")
}

// replace sends an action that replaces the work, kept for undo when the
// panel has an Undo; once it is in, a refusal shows next to the import
// controls (imported).
func (p *SharePanel) replace(ctx app.Context, what string, cmd protocol.Command) {
	done := func(err error) {
		p.imported(err)
		p.focusImportError(ctx)
		refresh(ctx)
	}
	if p.Undo == nil {
		p.Ctl.Send(cmd, func(rep protocol.Reply) { done(replyErr(rep)) })
		return
	}
	p.Undo.Do(p.Ctl, what, cmd, done)
}

// imported shows an import's refusal next to the import controls and
// moves the focus to it (the page's banner says it too); a success clears
// it.
func (p *SharePanel) imported(err error) {
	p.importErr, p.focusErr = "", false
	if err != nil {
		p.importErr, p.focusErr = "Not imported: "+withPercents(err.Error()), true
	}
}

// OnUpdate focuses a new import error once it is drawn.
func (p *SharePanel) OnUpdate(ctx app.Context) { p.focusImportError(ctx) }

// focusImportError moves the focus to a new import error: at the
// browser's next frames, once go-app has drawn it (a few tries).
func (p *SharePanel) focusImportError(app.Context) {
	if !p.focusErr || !app.IsClient {
		return
	}
	p.focusErr = false
	tries := 0
	var f app.Func
	f = app.FuncOf(func(app.Value, []app.Value) any {
		tries++
		if e := app.Window().GetElementByID("import-error"); e.Truthy() && !e.Get("hidden").Bool() {
			e.Call("focus")
		} else if tries < 10 {
			app.Window().Call("requestAnimationFrame", f)
			return nil
		}
		f.Release()
		return nil
	})
	app.Window().Call("requestAnimationFrame", f)
}

// configWarnings lists what the configuration in force has that Hadoop
// would ignore: keys that name no queue, and values read but not
// simulated.
func configWarnings(f *store.Frame) []string {
	return append(slices.Clip(lastKeyWarnings.of(f.Conf, f.Queues)), f.Warnings...)
}

// configWarningsView lists the configuration's warnings (configWarnings).
func configWarningsView(ws []string) app.UI {
	return app.Div().ID("config-warnings").Class("notice").Body(
		app.P().Text("The configuration in force has "+nOf(len(ws), "property", "properties")+" Hadoop would ignore or not apply:"),
		app.Ul().Body(app.Range(ws).Slice(func(i int) app.UI { return app.Li().Text(ws[i]) })),
	)
}

// keyWarnings keeps unknownQueueKeys' answer for one configuration and
// one tree of queues: a big cluster's configuration has thousands of keys
// to match against every per-queue suffix, the answer changes only with
// the configuration or the queues' paths, and the panel renders at every
// step (13 ms a step at benchmark 5's 1,111 queues).
type keyWarnings struct {
	conf   unsafe.Pointer // the configuration's map
	queues unsafe.Pointer // the queues' list (the page asks for each stage of a frame)
	paths  uint64         // a hash of the queues' paths, in order
	n      int            // how many queues
	ws     []string
}

// lastKeyWarnings is the page's: one panel shows the warnings.
var lastKeyWarnings keyWarnings

// of returns unknownQueueKeys(conf, queues), from the last answer when
// conf is the same map and the queues have the same paths. The frame
// reader shares the map from frame to frame while the configuration does
// not change, and a change makes a new map.
func (k *keyWarnings) of(conf map[string]string, queues []core.QueueView) []string {
	p := reflect.ValueOf(conf).UnsafePointer()
	q := unsafe.Pointer(unsafe.SliceData(queues))
	if p != nil && p == k.conf && q == k.queues && len(queues) == k.n {
		return k.ws // the same lists: no need to hash the paths
	}
	h := fnv.New64a()
	for i := range queues {
		h.Write([]byte(queues[i].Path))
		h.Write([]byte{0})
	}
	if p != k.conf || h.Sum64() != k.paths || len(queues) != k.n || p == nil {
		*k = keyWarnings{conf: p, paths: h.Sum64(), n: len(queues), ws: unknownQueueKeys(conf, queues)}
	}
	k.queues = q
	return k.ws
}
