package browsertest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestBrowserRefusedDraftSurvivesAReload refuses a draft in the queue
// editor, reloads, finds it with Hadoop's message, discards it, reloads and
// finds the configuration in force.
func TestBrowserRefusedDraftSurvivesAReload(t *testing.T) {
	requireChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	root, url := builtSite(ctx, t)
	p, problems := newPage(ctx, t, url, screenshotDir(t, root))
	p.open(url)

	field := `input[data-queue="root.marketing-moguls"][data-prop="capacity"]`
	p.wait(`!!document.querySelector(`+q(field)+`)`, "the capacity of marketing-moguls in the editor")
	was := js[string](p, `document.querySelector(`+q(field)+`).value`)
	require.NotEqual(t, "55", was)
	p.set(field, "55", "input")
	refused := `!!document.querySelector('.qe-issue:not([hidden])') && !!document.querySelector('.qe-draft:not([hidden])')`
	p.wait(refused, "Hadoop's refusal of 55")

	p.open(url)
	p.wait(refused+` && document.querySelector(`+q(field)+`).value === '55'`, "the refused draft after a reload")
	p.screenshot("editor-draft-after-reload.png")

	p.click("#qe-discard")
	p.wait(`!!document.querySelector('.qe-draft[hidden]')`, "the draft discarded")
	p.open(url)
	p.wait(`document.querySelector(`+q(field)+`).value === `+q(was)+` && !!document.querySelector('.qe-draft[hidden]')`, "no draft after a reload")
	require.Empty(t, problems())
}
