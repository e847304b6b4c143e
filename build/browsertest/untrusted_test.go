package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"yarnplay/app"
	"yarnplay/app/store"
	"yarnplay/build/site"
	"yarnplay/scenarios"
)

// hostileText closes an attribute with either quote, opens elements with
// event handlers, and carries an entity and a javascript: URL; a valid
// queue, node, user and application name (no space, dot or comma).
const hostileText = `x"'><x-pwn/onerror=__pwned=1><img/src=x/onerror=__pwned=2>&amp;javascript:__pwned=3<script>__pwned=4</script>`

// hostileLink is a share link whose every text field carries hostileText,
// at its last step with the hostile parent queue selected (so that the
// usage chart draws its children).
func hostileLink(t *testing.T) string {
	t.Helper()
	h := hostileText
	qt := strconv.Quote
	leaf := "l" + h
	parent := "p" + h
	md := h + "\n\n| " + h + " | b |\n| --- | --- |\n| **" + h + "** | `" + h + "` |\n\n- [a](javascript:__pwned=5) <img src=x onerror=__pwned=6>\n"
	y := `name: ` + qt("n"+h) + `
description: ` + qt(md) + `
notes: ` + qt(h) + `
config:
  yarn.scheduler.capacity.root.queues: ` + qt(parent) + `
  yarn.scheduler.capacity.root.` + parent + `.capacity: "100"
  yarn.scheduler.capacity.root.` + parent + `.queues: ` + qt(leaf+",other") + `
  yarn.scheduler.capacity.root.` + parent + `.` + leaf + `.capacity: "50"
  yarn.scheduler.capacity.root.` + parent + `.other.capacity: "50"
groups:
  ` + qt("u"+h) + `: [` + qt("g"+h) + `]
nodes:
  - {name: ` + qt("n"+h+"{i}") + `, count: 2, rack: ` + qt("/r"+h) + `, memory_mb: 8192, vcores: 8}
steps:
  - submit: {app: ` + qt("a"+h) + `, user: ` + qt("u"+h) + `, queue: ` + qt(leaf) + `, am: {memory_mb: 1024, vcores: 1}}
    note: ` + qt(md) + `
  - request:
      - {app: ` + qt("a"+h) + `, priority: 1, resource: {memory_mb: 2048, vcores: 1}, count: 4}
  - heartbeat: ` + qt("n"+h+"0") + `
    note: ` + qt(md) + `
`
	sc, err := scenarios.Parse("hostile.yaml", []byte(y))
	require.NoError(t, err)
	link, err := scenarios.EncodeLink(sc, len(sc.Steps), "root."+parent)
	require.NoError(t, err)
	return link
}

// injected counts what the hostile text could have made of the DOM:
// elements it names, attributes that run script, and script that ran.
const injected = `(() => {
  const out = [];
  if (window.__pwned !== undefined) out.push('script ran: ' + window.__pwned);
  for (const e of document.querySelectorAll('x-pwn, img[src="x"], script:not([src])')) {
    if (e.tagName === 'SCRIPT' && e.parentElement === document.head) continue; // the site's own, by hash
    out.push('element ' + e.outerHTML.slice(0, 80));
  }
  for (const e of document.querySelectorAll('*')) {
    for (const a of e.attributes) {
      if (a.name.startsWith('on')) out.push('attribute ' + a.name + ' on ' + e.tagName);
      if ((a.name === 'href' || a.name === 'src') && a.value.toLowerCase().includes('javascript:')) out.push('URL ' + a.value.slice(0, 60));
    }
  }
  return out;
})()`

// rawLink is a share link of a scenario's JSON as it is (EncodeLink would
// too: it does not validate).
func rawLink(t *testing.T, sc *scenarios.Scenario, step int) string {
	t.Helper()
	link, err := scenarios.EncodeLink(sc, step, "")
	require.NoError(t, err)
	return link
}

// manyStepsScenario is work of n applications submitted one step each,
// then ticks: saved, it opens in two parts.
func manyStepsScenario(n int) *scenarios.Scenario {
	sc := &scenarios.Scenario{Version: 1, Name: "Many steps",
		Config: map[string]string{"yarn.scheduler.capacity.root.queues": "a", "yarn.scheduler.capacity.root.a.capacity": "100"},
		Nodes:  []scenarios.NodeSpec{{Name: "n{i}", Count: 4, MemoryMB: 65536, VCores: 64}}}
	for i := range n {
		sc.Steps = append(sc.Steps, scenarios.Step{Submit: &scenarios.Submit{App: "app_" + strconv.Itoa(i), User: "u" + strconv.Itoa(i%7), Queue: "a"}})
	}
	one := 1
	sc.Steps = append(sc.Steps, scenarios.Step{Tick: &one}, scenarios.Step{Tick: &one})
	return sc
}

// savedRecord is sc as the page keeps its work, standing on its start.
func savedRecord(t *testing.T, sc *scenarios.Scenario) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"v": 1, "link": rawLink(t, sc, 0)})
	require.NoError(t, err)
	return string(b)
}

// TestBrowserUntrustedLinks opens, in headless Chromium, a link with
// markup in every text field, links past each limit and a saved work that
// does not open, and checks that no script runs, no element is injected,
// each limit is named within 5 s, and one's own work stays one click away;
// then it serves the site under /yarnplay/ and opens it there.
func TestBrowserUntrustedLinks(t *testing.T) {
	requireChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	root, dist, url := builtSiteIn(ctx, t)
	shots := screenshotDir(t, root)
	p, problems := newPage(ctx, t, url, shots)

	// The served page carries its policy and headers.
	res, err := http.Get(url)
	require.NoError(t, err)
	res.Body.Close()
	require.Contains(t, res.Header.Get("Content-Security-Policy"), "script-src 'self' 'wasm-unsafe-eval' 'sha256-")
	require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))

	// One's own work: the default lesson, two steps in, saved.
	p.open(url)
	for k := 1; k <= 2; k++ {
		p.click("#tl-forward")
		p.wait(counter+`.startsWith('step `+fmt.Sprint(k)+` of')`, fmt.Sprintf("step %d", k))
	}
	p.wait(`(localStorage.getItem(`+q(store.SaveKey)+`) || '').includes('t=2')`, "the work saved at step 2")
	own := js[string](p, `localStorage.getItem(`+q(store.SaveKey)+`)`)

	// The hostile link: drawn, every text shown as text, nothing run.
	link := hostileLink(t)
	start := time.Now()
	p.open(url + "#" + link)
	p.wait(counter+`.startsWith('step 3 of 3')`, "the hostile link at its last step")
	t.Logf("the hostile link (%d bytes) opened in %s", len(link), time.Since(start).Round(time.Millisecond))
	p.wait(`!!document.querySelector('.usage-chart svg')`, "the usage chart of the hostile parent")
	require.Empty(t, js[[]string](p, injected), "the link injected markup")
	require.Contains(t, p.text("body"), "<x-pwn/onerror=", "the hostile text shows as text")
	p.screenshot("untrusted-link.png")

	// It opened beside one's own work, which is one click away.
	p.wait(`!!document.querySelector('#saved-work')`, "the kept work on the page")
	require.Equal(t, own, js[string](p, `JSON.parse(localStorage.getItem('yarnplay.kept'))[0].saved`))
	p.wait(`(localStorage.getItem(`+q(store.SaveKey)+`) || '').includes('sel=')`, "the link's work saved once drawn")
	require.Empty(t, js[[]string](p, injected), "reloading the saved link injected markup")
	p.click("#saved-work .saved-open")
	p.wait(counter+`.startsWith('step 2 of')`, "one's own work back, at step 2")
	require.Empty(t, js[[]string](p, injected))

	// Links past the limits: refused within 5 s, naming the limit; the
	// work stays.
	base := func() *scenarios.Scenario {
		return &scenarios.Scenario{Version: 1, Config: map[string]string{"yarn.scheduler.capacity.root.queues": "a", "yarn.scheduler.capacity.root.a.capacity": "100"},
			Nodes: []scenarios.NodeSpec{{Name: "n0", MemoryMB: 8192, VCores: 8}}}
	}
	names := base()
	names.Nodes = []scenarios.NodeSpec{{Name: strings.Repeat("x", 1<<20) + "{i}", Count: 10000, MemoryMB: 1}}
	table := base()
	table.Description = "|" + strings.Repeat("a|", 3000) + "\n|-|\n" + strings.Repeat("|\n", 3000)
	queues := base()
	var qs []string
	for i := range 5000 {
		qs = append(qs, "q"+strconv.Itoa(i))
	}
	queues.Config = map[string]string{"yarn.scheduler.capacity.root.queues": strings.Join(qs, ","), "yarn.scheduler.capacity.root.q0.capacity": "100"}
	beats := base()
	beats.Nodes = []scenarios.NodeSpec{{Name: "n{i}", Count: 10000, MemoryMB: 1024, VCores: 1}}
	ten := 10
	for range 11 {
		beats.Steps = append(beats.Steps, scenarios.Step{Tick: &ten})
	}
	for _, tc := range []struct {
		name string
		sc   *scenarios.Scenario
		msg  string
	}{
		{"node name pattern", names, "the limit is 256 bytes"},
		{"markdown table", table, "the limit is 64 columns"},
		{"queues", queues, fmt.Sprintf("the limit is %d queues", scenarios.MaxQueues)},
		{"heartbeats", beats, "more than 1000000 node heartbeats"},
	} {
		l := rawLink(t, tc.sc, len(tc.sc.Steps))
		start := time.Now()
		p.open(url + "#" + l)
		p.waitFor(errorText+`.includes(`+q(tc.msg)+`)`, tc.name+" refused", 5*time.Second)
		t.Logf("the %s link (%d bytes) was refused in %s: %s", tc.name, len(l), time.Since(start).Round(time.Millisecond), p.text("#error-text"))
		require.Contains(t, p.text("#tl-counter"), "step 2 of", "the work stays")
	}
	p.screenshot("untrusted-limit.png")

	// Saved work that does not open is kept aside; the page opens.
	js[bool](p, `(localStorage.setItem(`+q(store.SaveKey)+`, '{"v":1,"link":"s=9.AAAA"}'), true)`)
	p.open(url)
	p.wait(`!!document.querySelector('#saved-broken')`, "the saved work that did not open, kept")
	require.Contains(t, p.text("#saved-broken"), "Download it")
	p.screenshot("untrusted-broken-saved.png")

	// Saved work of many steps shows its step before its later steps are
	// read (store.Store.RestoreHeadFor); the next step is theirs.
	many := manyStepsScenario(1500)
	js[bool](p, `(localStorage.setItem(`+q(app.BrokenKey)+`, ''), localStorage.setItem(`+q(store.SaveKey)+`, `+q(savedRecord(t, many))+`), true)`)
	p.open(url)
	p.wait(counter+`.startsWith('step 0 of `+fmt.Sprint(len(many.Steps))+` ')`, "the saved work of many steps, on its step")
	p.click("#tl-forward")
	p.wait(counter+`.startsWith('step 1 of `+fmt.Sprint(len(many.Steps))+` ')`, "its next step")
	require.Empty(t, p.text("#error-text"))
	// The same with a later step that does not read: the page shows the
	// step, then keeps the work aside as saved work that does not open.
	many.Steps[len(many.Steps)-1] = scenarios.Step{FinishApp: "no-such-app"}
	js[bool](p, `(localStorage.setItem(`+q(store.SaveKey)+`, `+q(savedRecord(t, many))+`), true)`)
	p.open(url)
	p.wait(`!!document.querySelector('#saved-broken')`, "saved work whose later step does not read, kept aside")
	require.Contains(t, p.text("#error-text"), "no-such-app")
	require.NotContains(t, p.text("#tl-counter"), fmt.Sprint(len(many.Steps)), "the work opened instead")
	p.screenshot("untrusted-broken-later-step.png")
	for _, pr := range problems() {
		require.NotContains(t, pr, "Content Security Policy", "the policy refused something the site needs")
	}

	// The site under /yarnplay/, as a GitHub Pages project site.
	sub := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(sub, site.WebDir), 0o755))
	wasm, err := os.ReadFile(site.WasmPath(dist))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(site.WasmPath(sub), wasm, 0o644))
	require.NoError(t, site.GenerateStaticAt(root, sub, "/yarnplay/"))
	mux := http.NewServeMux()
	mux.Handle("/yarnplay/", http.StripPrefix("/yarnplay", site.Handler(sub)))
	var mu sync.Mutex
	var outside []string
	logged := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// "/yarnplay" itself (go-app's root, as the service worker caches
		// it) is redirected to "/yarnplay/", by ServeMux as by GitHub Pages.
		if !strings.HasPrefix(r.URL.Path, "/yarnplay/") && r.URL.Path != "/yarnplay" {
			mu.Lock()
			outside = append(outside, r.URL.Path)
			mu.Unlock()
		}
		mux.ServeHTTP(w, r)
	})
	subSrv := httptest.NewServer(logged)
	defer subSrv.Close()
	q2, problems2 := newPage(ctx, t, subSrv.URL+"/yarnplay/", shots)
	q2.open(subSrv.URL + "/yarnplay/")
	q2.wait(counter+`.startsWith('step 0 of')`, "the playground under /yarnplay/")
	q2.click(`.lesson-menu a[href$="/lessons/acls"]`)
	q2.wait(`location.pathname === '/yarnplay/lessons/acls'`, "the lesson's page under /yarnplay/")
	q2.screenshot("under-yarnplay.png")
	q2.open(subSrv.URL + "/yarnplay/lessons/preemption")
	q2.wait(`document.querySelector('.lesson-menu [aria-current="page"]').getAttribute('href') === '/yarnplay/lessons/preemption'`, "a lesson's page opened directly")
	mu.Lock()
	require.Empty(t, outside, "requests outside /yarnplay/")
	mu.Unlock()
	require.Empty(t, problems2(), "the site under /yarnplay/ reported errors")
}
