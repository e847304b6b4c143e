// Package headless starts Debian's Chromium for the browser tests and the
// browser benchmarks, always with the project's flags: headless, no
// sandbox (CI runs as root), no GPU, and nothing that reaches the network
// on its own (this workplace's network is closed), with a fresh profile.
package headless

import (
	"context"
	"fmt"
	"os"

	"github.com/chromedp/chromedp"
)

// ChromiumPath is where Debian's chromium package installs the browser.
const ChromiumPath = "/usr/bin/chromium"

// Installed reports whether Chromium is at ChromiumPath, and if not, what to do.
func Installed() error {
	if _, err := os.Stat(ChromiumPath); err != nil {
		return fmt.Errorf("Chromium is needed at %s (apt-get install chromium): %w", ChromiumPath, err)
	}
	return nil
}

// Start launches headless Chromium with a fresh profile in userDataDir and
// returns a tab's context; cancel closes the tab and the browser.
func Start(ctx context.Context, userDataDir string) (tab context.Context, cancel context.CancelFunc) {
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(ChromiumPath),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.UserDataDir(userDataDir),
	)
	tab, cancelTab := chromedp.NewContext(alloc)
	return tab, func() { cancelTab(); cancelAlloc() }
}
