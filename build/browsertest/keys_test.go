package browsertest

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"

	"yarnplay/scenarios"
)

// manyApps is a small cluster with more applications than the apps table
// shows, which makes the page draw its panels in stages.
func manyApps() *scenarios.Scenario {
	sc := &scenarios.Scenario{
		Version: 1, Name: "many apps",
		Config: map[string]string{"yarn.scheduler.capacity.root.queues": "a", "yarn.scheduler.capacity.root.a.capacity": "100"},
		Nodes:  []scenarios.NodeSpec{{Name: "n{i}", Count: 4, MemoryMB: 8192, VCores: 8}},
	}
	for i := range 120 {
		sc.Steps = append(sc.Steps, scenarios.Step{Submit: &scenarios.Submit{
			App: fmt.Sprint("app_", i), User: fmt.Sprint("u", i%4), Queue: "a",
		}})
	}
	return sc
}

// TestBrowserHeldKeyGoesAsFastAsThePageDraws presses T held down (one
// press, then the browser's repeats) and then T five times, on a work whose
// panels are drawn in stages: the repeats that come while the page draws
// are dropped, where queued they would play on after the key was let go;
// separate presses are all played.
func TestBrowserHeldKeyGoesAsFastAsThePageDraws(t *testing.T) {
	requireChromium(t)
	sc := manyApps()
	p := openAtTheEnd(t, sc)
	step := func() int { return js[int](p, `parseInt(`+counter+`.split(' ')[1])`) }
	press := func(repeat bool) string {
		return fmt.Sprintf(`document.dispatchEvent(new KeyboardEvent('keydown', {key: 't', repeat: %t, bubbles: true}));`, repeat)
	}

	held := press(false)
	for range 40 {
		held += press(true)
	}
	// Then five presses, then "?", whose list of keys shows once every
	// action before it has played: actions that wait for the page play in
	// the order they came.
	presses := ""
	for range 5 {
		presses += press(false)
	}
	presses += `document.dispatchEvent(new KeyboardEvent('keydown', {key: '?', bubbles: true}));`
	js[bool](p, held+presses+` true`)
	p.wait(`!!document.querySelector('#keys-help')`, "the list of keys, after every press before it")
	played := step() - len(sc.Steps)
	require.GreaterOrEqual(t, played, 6, "the held key ticked, and each of the five presses")
	require.Less(t, played, 10, "the held key's 40 repeats while the page drew were dropped, not played")
}

// TestBrowserAStepBackKeepsThePanels steps back from the end of a work: the
// notice that an action there replaces the later steps appears above the
// application editor, and the editor's table and the narration's list stay
// the same elements, changed in place, instead of being built anew (go-app
// matches children by position: an element appearing before them shifted
// them, and the whole editor was drawn again, hundreds of milliseconds at
// a thousand queues).
func TestBrowserAStepBackKeepsThePanels(t *testing.T) {
	requireChromium(t)
	sc := manyApps()
	ticks := 2
	sc.Steps = append(sc.Steps, scenarios.Step{Tick: &ticks})
	p := openAtTheEnd(t, sc)
	end := strconv.Itoa(len(sc.Steps))
	p.wait(`!!document.querySelector('#ae-apps') && !!document.querySelector('#narration-lines')`, "the application table and the narration")
	require.False(t, js[bool](p, `!!document.querySelector('.app-editor .notice')`), "no notice at the end")
	js[bool](p, `(() => { document.querySelector('#ae-apps').dataset.kept = 'yes'; document.querySelector('#narration-lines').dataset.kept = 'yes'; return true })()`)

	p.press(kb.ArrowLeft)
	before := strconv.Itoa(len(sc.Steps) - 1)
	p.wait(counter+`.startsWith('step `+before+` of `+end+`')`, "the step before the end")
	p.wait(`!!document.querySelector('.app-editor .notice')`, "the notice that an action replaces the later steps")
	require.Equal(t, "yes", js[string](p, `document.querySelector('#ae-apps').dataset.kept || ''`), "the same table, changed in place")
	require.Equal(t, "yes", js[string](p, `(document.querySelector('#narration-lines') || {dataset: {}}).dataset.kept || ''`), "the same narration list")
}

// openAtTheEnd opens a page on sc's share link, standing on its last step.
func openAtTheEnd(t *testing.T, sc *scenarios.Scenario) *page {
	t.Helper()
	return openAt(t, sc, len(sc.Steps))
}

// openAt opens a page on sc's share link, standing on step; the test fails
// if the page reported JavaScript errors.
func openAt(t *testing.T, sc *scenarios.Scenario, step int) *page {
	t.Helper()
	requireChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	t.Cleanup(cancel)
	root, url := builtSite(ctx, t)
	p, problems := newPage(ctx, t, url, screenshotDir(t, root))
	t.Cleanup(func() { require.Empty(t, problems()) })
	link, err := scenarios.EncodeLink(sc, step, "")
	require.NoError(t, err)
	p.open(url + "#" + link)
	p.wait(counter+`.startsWith('step `+strconv.Itoa(step)+` of `+strconv.Itoa(len(sc.Steps))+` ')`, "step "+strconv.Itoa(step)+" of the work")
	return p
}
