package browsertest

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"

	"yarnplay/scenarios/lessons"
)

// walkKind is the kind of the decision the walk lights ("" when none).
const walkKind = `((document.querySelector('#walk') || {dataset: {}}).dataset.kind || '')`

// press sends a key to the page (focus is on no field).
func (p *page) press(key string) {
	p.t.Helper()
	js[bool](p, `(() => { if (document.activeElement) document.activeElement.blur(); return true })()`)
	ctx, cancel := context.WithTimeout(p.tab, waitTimeout)
	defer cancel()
	require.NoError(p.t, chromedp.Do(ctx, chromedp.KeyEvent(key)), "pressing %q", key)
}

// TestBrowserWalkThisHeartbeat walks the default lesson's first heartbeats
// (its tick of all nodes): stepped by hand under reduced motion, the
// highlights go node → root → leaf → app → allocation with the narration
// line of each decision; played, the walk moves by itself; Escape ends it.
func TestBrowserWalkThisHeartbeat(t *testing.T) {
	_, _, p, problems := sitePage(t, 8*time.Minute)
	url := p.url
	require.NoError(t, chromedp.Do(p.tab, chromedp.EmulateViewport(1400, 900)))
	media(t, p.tab, &emulation.MediaFeature{Name: "prefers-reduced-motion", Value: "reduce"})

	sc, err := lessons.Load(lessons.Default())
	require.NoError(t, err)
	p.open(url)
	tick := 0
	for i, st := range sc.Steps {
		if st.Kind() == "tick" || st.Kind() == "heartbeat" {
			tick = i + 1
			break
		}
	}
	require.NotZero(t, tick, "the default lesson has a heartbeat")
	require.Equal(t, 0, js[int](p, `document.querySelectorAll('#walk-start').length`), "no walk at the start: no heartbeat")
	for k := 1; k <= tick; k++ {
		p.click("#tl-forward")
		p.wait(counter+`.startsWith('step `+strconv.Itoa(k)+` of')`, fmt.Sprintf("step %d", k))
	}

	// Under reduced motion the walk starts paused on the node.
	p.click("#walk-start")
	p.wait(walkKind+` === 'node'`, "the walk on the node")
	require.Equal(t, "paused", js[string](p, `document.querySelector('#walk').dataset.state`), "reduced motion: nothing moves unbidden")
	require.True(t, js[bool](p, `!!document.querySelector('[data-node="n0"][data-walk="node"]')`), "node n0 lit")
	require.Contains(t, p.text("#walk-caption"), "heartbeat 1 of")
	require.Contains(t, p.text(`#narration-lines > li[data-walk="line"]`), "n0 heartbeats", "the narration line of the heartbeat lit")
	viewShot(p, "walk-1-node.png")

	lit := map[string]string{
		"root":  `.qb-row[data-queue="root"][data-walk="root"]`,
		"leaf":  `.qb-row[data-queue="root.grumpy-engineers.infinite-monkeys"][data-walk="leaf"]`,
		"app":   `li.app-card[data-app="sid-app"][data-walk="app"]`,
		"alloc": `li.app-card[data-app="sid-app"][data-walk="alloc"]`,
	}
	for _, kind := range []string{"root", "leaf", "app", "alloc"} {
		for i := 0; js[string](p, walkKind) != kind; i++ {
			require.Less(t, i, 12, "the walk reaches %s", kind)
			before := js[string](p, `document.querySelector('#walk-caption').textContent`)
			p.click("#walk-step")
			p.wait(`document.querySelector('#walk-caption').textContent !== `+q(before), "the next decision")
		}
		require.True(t, js[bool](p, `!!document.querySelector(`+q(lit[kind])+`)`), "%s lit: %s", kind, lit[kind])
		require.Equal(t, 1, js[int](p, `document.querySelectorAll('#narration-lines > li[data-walk="line"]').length`), "one narration line lit")
		require.True(t, js[bool](p, `!!document.querySelector('[data-node="n0"][data-walk]')`), "the node stays lit")
		viewShot(p, "walk-2-"+kind+".png")
	}
	require.Contains(t, p.text(`#narration-lines > li[data-walk="line"]`), "allocated", "the allocation's narration line")

	// Into the next node's heartbeat of the tick.
	p.click("#walk-next-beat")
	p.wait(`document.querySelector('#walk-caption').textContent.includes('heartbeat 2 of')`, "the second heartbeat of the tick")
	p.wait(`!!document.querySelector('[data-node="n1"][data-walk="node"]') && !document.querySelector('[data-node="n0"][data-walk]')`, "n1 lit, n0 not")

	// Escape ends the walk and takes its highlights off.
	p.press(kb.Escape)
	p.wait(`document.querySelector('#walk').dataset.state === 'off' && document.querySelectorAll('[data-walk]').length === 0`, "Escape ends the walk")

	// With motion, W starts the walk and it plays by itself, at the speed set.
	media(t, p.tab, &emulation.MediaFeature{Name: "prefers-reduced-motion", Value: "no-preference"})
	p.press("w")
	p.wait(`document.querySelector('#walk').dataset.state === 'playing'`, "W plays the walk")
	p.set("#walk-speed", "3", "change")
	p.wait(`document.querySelector('#walk-caption').textContent.includes('decision 3 of')`, "the walk moving by itself")
	viewShot(p, "walk-3-playing.png")
	p.click("#walk-pause")
	p.wait(`document.querySelector('#walk').dataset.state === 'paused'`, "paused")
	p.click("#walk-stop")
	p.wait(`document.querySelector('#walk').dataset.state === 'off' && document.querySelectorAll('[data-walk]').length === 0`, "Stop ends the walk")
	require.Empty(t, problems())
}
