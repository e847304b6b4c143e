package app

import (
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/protocol"
	"yarnplay/scenarios"
	"yarnplay/wasm/bridge"
)

// hostile is text an attacker puts in every field of a link: it closes an
// attribute with either quote, opens an element with an event handler,
// carries an entity and a javascript: URL. It has no space, dot or comma,
// so that it is a valid queue, node, user and application name.
const hostile = `x"'><x-pwn/onerror=alert(1)>&amp;javascript:alert(2)<script>alert(3)</script>`

// hostileScenario carries hostile in every text field a scenario has: its
// name, description (markdown: a table, a list, bold, code, a link),
// notes, queue names, node names and racks, users, groups, applications
// and step notes.
func hostileScenario(t *testing.T) *scenarios.Scenario {
	t.Helper()
	q := func(s string) string { return strconv.Quote(s) }
	h := hostile
	leaf := "l" + h
	md := h + "\n\n| " + h + " | b |\n| --- | --- |\n| **" + h + "** | `" + h + "` |\n\n- *" + h + "*\n- [a](javascript:alert(4)) <img src=x onerror=alert(5)>\n"
	y := `name: ` + q("n"+h) + `
description: ` + q(md) + `
notes: ` + q(h) + `
config:
  yarn.scheduler.capacity.root.queues: ` + q("p"+h) + `
  yarn.scheduler.capacity.root.p` + h + `.capacity: "100"
  yarn.scheduler.capacity.root.p` + h + `.queues: ` + q(leaf+",other") + `
  yarn.scheduler.capacity.root.p` + h + `.` + leaf + `.capacity: "50"
  yarn.scheduler.capacity.root.p` + h + `.other.capacity: "50"
groups:
  ` + q("u"+h) + `: [` + q("g"+h) + `]
nodes:
  - {name: ` + q("n"+h+"{i}") + `, count: 2, rack: ` + q("/r"+h) + `, memory_mb: 8192, vcores: 8}
steps:
  - submit: {app: ` + q("a"+h) + `, user: ` + q("u"+h) + `, queue: ` + q(leaf) + `, am: {memory_mb: 1024, vcores: 1}}
    note: ` + q(md) + `
  - request:
      - {app: ` + q("a"+h) + `, priority: 1, resource: {memory_mb: 2048, vcores: 1}, count: 4}
  - heartbeat: ` + q("n"+h+"0") + `
    note: ` + q(h) + `
  - heartbeat: ` + q("n"+h+"1") + `
`
	sc, err := scenarios.Parse("hostile.yaml", []byte(y))
	require.NoError(t, err)
	return sc
}

// injection reads go-app's HTML encoding (app.HTMLString), where text is
// HTML-escaped and attribute values Go-quoted (or, inside app.Raw's
// markup, HTML-quoted), so that whatever data got into markup shows as an
// element or an attribute of its own, and says what it found ("" for
// nothing): an unknown element, a script, an event handler, or a URL that
// runs script.
func injection(html string) string {
	for i := 0; i < len(html); {
		lt := strings.IndexByte(html[i:], '<')
		if lt < 0 {
			break
		}
		i += lt + 1
		end := i
		for end < len(html) && !strings.ContainsRune(" \t\n/>", rune(html[end])) {
			end++
		}
		switch tag := strings.ToLower(strings.TrimPrefix(html[i:end], "/")); tag {
		case "x-pwn", "script", "iframe", "object", "embed":
			return "element <" + tag + "> injected"
		}
		i = end
		var name string
		for i < len(html) && html[i] != '>' {
			switch c := html[i]; {
			case c == ' ' || c == '\t' || c == '\n' || c == '/':
				i++
			case c == '=':
				i++
				if i >= len(html) || html[i] != '"' {
					return "an attribute value not quoted after " + name
				}
				q, err := strconv.QuotedPrefix(html[i:])
				if err != nil {
					return "an attribute value not quoted after " + name
				}
				i += len(q)
				v, _ := strconv.Unquote(q)
				switch name {
				case "href", "src", "action", "formaction", "xlink:href":
					if strings.Contains(strings.ToLower(v), "javascript:") {
						return "a URL that runs script: " + name + "=" + q
					}
				}
			default:
				n := i
				for n < len(html) && !strings.ContainsRune(" \t\n/>=", rune(html[n])) {
					n++
				}
				name = strings.ToLower(html[i:n])
				if strings.HasPrefix(name, "on") {
					return "an event handler attribute " + name
				}
				i = n
			}
		}
	}
	return ""
}

// requireNoInjection fails if html has an element or attribute that data
// could have made.
func requireNoInjection(t *testing.T, html string) {
	t.Helper()
	require.Empty(t, injection(html))
}

// TestHostileTextStaysText renders the whole page, at every step, with
// each panel's queue selected and each editor open, from a scenario whose
// every text field is markup, and finds no element or attribute made from
// it: each text reaches the DOM as text or an attribute value.
func TestHostileTextStaysText(t *testing.T) {
	sc := hostileScenario(t)
	link, err := scenarios.EncodeLink(sc, 0, "")
	require.NoError(t, err)
	p, _ := mounted(t, bridge.NewMemoryStorage(), link, "")
	f := p.ctl.Frame()
	require.Empty(t, f.Err)
	require.Len(t, f.Queues, 4, "the link opened")
	paths := []string{""}
	for _, q := range f.Queues {
		paths = append(paths, q.Path)
	}
	seen := 0
	for k := 0; k <= len(sc.Steps); k++ {
		for _, sel := range paths {
			p := &Page{}
			p.mount(app.Context{}, NewLocalController(store.New()), bridge.NewMemoryStorage(), bridge.NewMemoryFragment())
			p.loaded = true
			require.Empty(t, send(p.ctl, protocol.Command{Op: protocol.OpOpenLink, Text: link}).Err)
			p.ctl.Do(protocol.Command{Op: protocol.OpJump, Step: k})
			p.ctl.Do(protocol.Command{Op: protocol.OpSelect, Queue: sel})
			html := render(t, nil, p)
			requireNoInjection(t, html)
			seen += strings.Count(html, "x-pwn")
		}
	}
	require.Positive(t, seen, "the hostile text is on the page, as text")

	// Every view on its own too, including those the page shows only
	// when asked (keys help) or later (the staged panels).
	fr := *p.ctl.Frame()
	for _, c := range []app.Composer{
		&UsageChart{Frame: fr, Parent: "root.p" + hostile},
		&QueueBars{Frame: fr}, &NodeGrid{Frame: fr}, &LeafLanes{Frame: fr, Queue: "root.p" + hostile + ".l" + hostile},
		lessonPanel(&fr), &Narration{F: &fr}, &FormulaPanel{Frame: fr},
		&AppEditor{F: &fr, Ctl: p.ctl}, &QueueEditor{F: &fr, Ctl: p.ctl}, nodeEditor(&fr, p.ctl, nil),
		userEditor(&fr, p.ctl), sharePanel(&fr, p.ctl, nil),
	} {
		requireNoInjection(t, render(t, nil, c))
	}
}

func TestInjectionIsFound(t *testing.T) {
	// The checker itself: markup from data is found.
	for _, html := range []string{
		`<div>` + `<x-pwn/onerror=alert(1)>` + `</div>`,
		`<svg aria-label="a"><pattern id="uc-x"></pattern><img src="x" onerror="alert(1)"></svg>`,
		`<a href="javascript:alert(1)">x</a>`,
		`<p title="r"><img/src="x"/onerror=alert(1)>">`,
	} {
		require.NotEmpty(t, injection(html), html)
	}
	requireNoInjection(t, `<p title="x\"'&gt;">a &lt;x-pwn onerror=alert(1)&gt;</p>`)
}

// The chart's ids come from indexes, never from a queue's name, and its
// label, the one text from data in its SVG, is an attribute's value.
func TestChartIdsComeFromIndexes(t *testing.T) {
	f := chartFrame()
	f.Queues[1].Path = `root.r"><img/src="x"/onerror=alert(1)>`
	f.Queues[0].Children = []string{f.Queues[1].Path}
	for i := 2; i < 4; i++ {
		f.Queues[i].Parent = f.Queues[1].Path
	}
	f.Queues[1].Children = []string{"root.p.a", "root.p.b"}
	html := renderHTML(t, &UsageChart{Frame: f, Parent: f.Queues[1].Path})
	require.Contains(t, html, `id="uc-1-h0"`)
	require.Contains(t, html, `fill="url(#uc-1-h1)"`)
	requireNoInjection(t, html)
}
