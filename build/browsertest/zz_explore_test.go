package browsertest

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

func TestBrowserExplore(t *testing.T) {
	requireChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	root, url := builtSite(ctx, t)
	shots := screenshotDir(t, root)
	p, _ := newPage(ctx, t, url, shots)
	require.NoError(t, chromedp.Do(p.tab, chromedp.EmulateViewport(1400, 900)))
	p.open(url + "lessons/elastic-borrowing")
	for i := 0; i < 12; i++ {
		p.click("#tl-forward")
	}
	p.click(`[data-queue="root.grumpy-engineers.infinite-monkeys"]`)
	time.Sleep(2 * time.Second)
	p.screenshot("explore-1400.png")
}
