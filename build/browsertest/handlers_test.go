package browsertest

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chromedp/chromedp/kb"

	"yarnplay/scenarios"
)

// TestBrowserButtonsActOnTheStepShown steps through heartbeats of two
// nodes of sixty (drawn as strips, with a finder) and clicks the node
// panel's "open" button of the heartbeating node: it opens the node of
// the step shown, not the one of the step the button first appeared at. go-app keeps an element's old handler when
// the new one is the same function literal (its code), whatever the new
// one captured, so a handler must read what it acts on when it runs.
func TestBrowserButtonsActOnTheStepShown(t *testing.T) {
	sc := &scenarios.Scenario{
		Version: 1, Name: "two heartbeats",
		Config: map[string]string{"yarn.scheduler.capacity.root.queues": "a", "yarn.scheduler.capacity.root.a.capacity": "100"},
		Nodes:  []scenarios.NodeSpec{{Name: "n{i}", Count: 60, MemoryMB: 8192, VCores: 8}},
		Steps: []scenarios.Step{
			{Heartbeat: scenarios.Heartbeats{{Node: "n0"}}},
			{Heartbeat: scenarios.Heartbeats{{Node: "n1"}}},
		},
	}
	p := openAt(t, sc, 0)
	p.press(kb.ArrowRight)
	p.wait(`(document.querySelector('.ng-open-hb') || {}).textContent === '♥ open n0'`, "the button of n0's heartbeat")
	p.press(kb.ArrowRight)
	p.wait(`(document.querySelector('.ng-open-hb') || {}).textContent === '♥ open n1'`, "the button of n1's heartbeat")
	p.click(".ng-open-hb")
	p.wait(`!!document.querySelector('.ng-expanded .node-card')`, "a node's card")
	card := p.text(".ng-expanded .node-card")
	require.Contains(t, card, "n1", "the button says n1 and opens n1")
	require.NotContains(t, card, "n0")
}

// TestBrowserMarkersAndForkActOnTheStepShown clicks a usage chart's marker
// and the timeline's Fork after the steps shown moved on since the buttons
// were first drawn: the marker jumps to the step it now says, and the undo
// bar counts the steps the fork now drops.
func TestBrowserMarkersAndForkActOnTheStepShown(t *testing.T) {
	sc := &scenarios.Scenario{
		Version: 1, Name: "a hundred submissions",
		Config: map[string]string{"yarn.scheduler.capacity.root.queues": "a,b", "yarn.scheduler.capacity.root.a.capacity": "50",
			"yarn.scheduler.capacity.root.b.capacity": "50"},
		Nodes: []scenarios.NodeSpec{{Name: "n{i}", Count: 2, MemoryMB: 8192, VCores: 8}},
	}
	for i := range 100 {
		sc.Steps = append(sc.Steps, scenarios.Step{Submit: &scenarios.Submit{App: fmt.Sprint("app_", i), User: "u", Queue: "a"}})
	}
	p := openAt(t, sc, 0)
	for i := 1; i <= 20; i++ {
		p.press(kb.ArrowRight)
		p.wait(counter+`.startsWith('step `+strconv.Itoa(i)+` of 100')`, "step "+strconv.Itoa(i))
	}
	// Twenty steps: a marker a step, the eleventh at step 11.
	const eleventh = `document.querySelectorAll('.uc-marker')[10]`
	p.drawn() // the chart, out of the window, follows the step
	p.wait(`(`+eleventh+` || {dataset: {}}).dataset.step === '11'`, "the eleventh marker at step 11")
	// The chart is SVG's elements, laid out: a's band (empty, nothing
	// runs in this scenario) spans the plot, and the axis says the last
	// step.
	require.True(t, js[bool](p, `(() => { const b = document.querySelector('.usage-chart .uc-band');
		const last = [...document.querySelectorAll('.usage-chart text.uc-tick')].pop();
		window.__band = b; window.__last = last;
		return b instanceof SVGPathElement && b.getBBox().width > 100 && last instanceof SVGTextElement && last.textContent === 'step 20'; })()`),
		"the chart drawn as SVG")

	// Fork at step 20 drops 80 steps: after a step more, 79.
	p.press(kb.ArrowRight)
	p.wait(counter+`.startsWith('step 21 of 100')`, "step 21")
	p.click("#tl-fork")
	p.wait(`(document.querySelector('#undo-text') || {}).textContent === 'You forked here, dropping 79 later steps.'`, "the fork's undo bar")
	p.click("#undo")
	p.wait(counter+`.startsWith('step 21 of 100')`, "the steps back")

	// At the end the markers stand for two steps each: the eleventh now
	// says another step, and jumps there.
	p.press(kb.End)
	p.wait(counter+`.startsWith('step 100 of 100')`, "the end")
	p.wait(eleventh+`.dataset.step !== '11'`, "the eleventh marker moved on")
	// The steps since changed the chart in place: the same elements.
	require.True(t, js[bool](p, `window.__band === document.querySelector('.usage-chart .uc-band') &&
		window.__last.isConnected && window.__last.textContent === 'step 100'`), "the chart updated in place")
	step := js[string](p, eleventh+`.dataset.step`)
	p.click(".uc-marker:nth-child(11)")
	p.wait(counter+`.startsWith('step `+step+` of 100')`, "the marker's step, "+step)
}
