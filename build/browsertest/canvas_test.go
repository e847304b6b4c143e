package browsertest

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/scenarios"
)

// busyCanvasCluster is 300 nodes, drawn on one canvas, and four
// applications whose containers fill part of them over two ticks.
func busyCanvasCluster() *scenarios.Scenario {
	one := 1
	sc := &scenarios.Scenario{
		Version: 1, Name: "a busy canvas",
		Config: map[string]string{"yarn.scheduler.capacity.root.queues": "a,b", "yarn.scheduler.capacity.root.a.capacity": "50", "yarn.scheduler.capacity.root.b.capacity": "50"},
		Nodes:  []scenarios.NodeSpec{{Name: "n{i}", Count: 300, MemoryMB: 8192, VCores: 8}},
	}
	for i := range 4 {
		sc.Steps = append(sc.Steps, scenarios.Step{Submit: &scenarios.Submit{
			App: fmt.Sprint("app_", i), User: fmt.Sprint("u", i), Queue: []string{"a", "b"}[i%2],
		}})
	}
	for i := range 4 {
		sc.Steps = append(sc.Steps, scenarios.Step{Request: scenarios.Asks{{
			App: fmt.Sprint("app_", i), Priority: 1, Resource: scenarios.Res{MemoryMB: 2048, VCores: 1}, Count: 150,
		}}})
	}
	sc.Steps = append(sc.Steps, scenarios.Step{Tick: &one}, scenarios.Step{Tick: &one})
	return sc
}

// TestBrowserTheWorkerPaintsTheNodeCanvas opens, in headless Chromium, a
// cluster drawn on one canvas: the page hands the canvas to the
// simulation's worker, which paints it where the nodes' containers are.
// The user sees the containers appear as the work plays, the canvas
// redrawn in the dark scheme, and a strip clicked opens its node as a card
// that lists its containers (which the page gets for that node only).
func TestBrowserTheWorkerPaintsTheNodeCanvas(t *testing.T) {
	_, _, p, problems := sitePage(t, 5*time.Minute)
	defer func() { require.Empty(t, problems()) }()
	sc := busyCanvasCluster()
	link, err := scenarios.EncodeLink(sc, 0, "")
	require.NoError(t, err)
	p.open(p.url + "#" + link)
	steps := strconv.Itoa(len(sc.Steps))
	p.wait(counter+`.startsWith('step 0 of `+steps+`')`, "the start")
	const canvas = `.nodegrid[data-mode="canvas"] canvas.ng-canvas`
	p.wait(`(() => { const c = document.querySelector(`+q(canvas)+`); return !!c && c.yarnplayGiven === true })()`,
		"the canvas handed to the worker")

	// coloured counts the canvas's saturated pixels (containers: the
	// track, the separators and the page are grey), from a screenshot of
	// it taken once ok says yes to the count (the worker paints once it
	// has replied: the picture may come a moment after the step).
	coloured := func(what string, ok func(int, []byte) bool) (int, []byte) {
		t.Helper()
		deadline := time.Now().Add(waitTimeout)
		for {
			shot, err := chromedp.Run(p.tab, chromedp.Screenshot(chromedp.CSS(canvas)))
			require.NoError(t, err, what)
			img, err := png.Decode(bytes.NewReader(shot))
			require.NoError(t, err, what)
			n := 0
			b := img.Bounds()
			for y := b.Min.Y; y < b.Max.Y; y++ {
				for x := b.Min.X; x < b.Max.X; x++ {
					r, g, bl, _ := img.At(x, y).RGBA()
					if max(r, g, bl)>>8-min(r, g, bl)>>8 > 60 {
						n++
					}
				}
			}
			if ok(n, shot) || time.Now().After(deadline) {
				require.NoError(t, os.WriteFile(filepath.Join(p.shot, "canvas-worker-"+what+".png"), shot, 0o644))
				return n, shot
			}
		}
	}
	empty, _ := coloured("start", func(int, []byte) bool { return true })

	p.press(kb.End)
	p.wait(counter+`.startsWith('step `+steps+` of `+steps+`')`, "the end")
	p.wait(`(document.querySelector('.ng-summary') || {}).textContent.includes('running containers')`, "the summary of the containers")
	summary := p.text(".ng-summary")
	st := store.New()
	require.NoError(t, st.Load(sc, ""))
	st.Last()
	require.True(t, strings.HasPrefix(summary, fmt.Sprintf("300 nodes, %d running containers", st.Frame().Metrics.Containers)),
		"the page counts every container, though it holds few: %s", summary)
	full, light := coloured("end", func(n int, _ []byte) bool { return n > empty+2000 })
	require.Greater(t, full, empty+2000, "the containers are painted: %d coloured pixels at the start, %d at the end", empty, full)

	scheme(t, p.tab, true)
	_, dark := coloured("dark", func(_ int, shot []byte) bool { return !bytes.Equal(shot, light) })
	require.NotEqual(t, light, dark, "the canvas is painted again in the dark scheme")
	scheme(t, p.tab, false)

	// A click on the first strip opens n0, whose containers the card
	// lists.
	rect := js[[]float64](p, `(() => { const c = document.querySelector(`+q(canvas)+`); c.scrollIntoView({block: 'center'});
  const r = c.getBoundingClientRect(); return [r.left, r.top] })()`)
	require.NoError(t, chromedp.Do(p.tab, chromedp.MouseClickXY(rect[0]+12, rect[1]+7)))
	p.wait(`document.querySelectorAll('.ng-expanded .node-card li').length > 0`, "n0's card with its containers")
	require.Contains(t, p.text(".ng-expanded"), "n0")
	viewShot(p, "canvas-worker-card.png")
	require.NoError(t, chromedp.Do(p.tab, chromedp.EmulateViewport(390, 844)))
	p.wait(`document.querySelectorAll('.ng-expanded .node-card li').length > 0`, "n0's card on a phone")
	js[bool](p, `(() => { document.querySelector('.ng-expanded').scrollIntoView(); return true })()`)
	viewShot(p, "canvas-worker-card-phone.png")

	// A step back, then forward again: the end is shown at once from a
	// frame kept, and the canvas, which shows the step before meanwhile,
	// says that it is catching up until the worker has rebuilt the end's
	// state and painted it again: the same picture each time.
	still := func() func(int, []byte) bool { // the same picture three times running
		var last []byte
		times := 0
		return func(_ int, shot []byte) bool {
			if bytes.Equal(shot, last) {
				times++
			} else {
				times = 1
			}
			last = shot
			return times == 3
		}
	}
	const caughtUp = `!document.querySelector('.ng-canvas-wrap').classList.contains('behind') && document.querySelector('.ng-behind').textContent === ''`
	backAndForth := func(what string) int {
		t.Helper()
		p.press(kb.ArrowLeft)
		p.wait(counter+`.startsWith('step `+strconv.Itoa(len(sc.Steps)-1)+` of `+steps+`')`, "a step back")
		p.wait(caughtUp, "the canvas at the step back")
		js[bool](p, `(() => { window.__behind = false; new MutationObserver(() => {
    const el = document.querySelector('.ng-behind'); if (el && el.textContent.includes('catching up')) window.__behind = true })
    .observe(document.body, {childList: true, subtree: true, characterData: true}); return true })()`)
		p.press(kb.ArrowRight)
		p.wait(counter+`.startsWith('step `+steps+` of `+steps+`')`, "forward to the end again")
		p.wait(`window.__behind === true`, "the canvas said that it is catching up")
		p.wait(caughtUp, "the canvas caught up")
		n, _ := coloured(what, still())
		return n
	}
	first := backAndForth("end-again")
	require.Equal(t, first, backAndForth("end-again-2"), "the end painted alike")
}
