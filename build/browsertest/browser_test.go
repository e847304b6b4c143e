package browsertest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"yarnplay/app"
	"yarnplay/build/headless"
	"yarnplay/build/site"
)

// chromiumPath is Debian's Chromium, the only browser the tests drive.
const chromiumPath = headless.ChromiumPath

// renderTimeout bounds the wait for the WebAssembly to load and render,
// from navigation on.
const renderTimeout = 90 * time.Second

// inCI reports whether the tests run in continuous integration, where a
// missing browser must fail the build rather than skip.
func inCI() bool {
	v := strings.ToLower(os.Getenv("CI"))
	return v != "" && v != "false" && v != "0"
}

// requireChromium skips the test when Chromium is missing on a developer's
// machine and fails it in CI.
func requireChromium(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		msg := fmt.Sprintf("browser tests need Chromium at %s (apt-get install chromium): %v", chromiumPath, err)
		if inCI() {
			t.Fatal(msg + " (CI is set, so this fails instead of skipping)")
		}
		t.Skip(msg)
	}
}

// screenshotDir makes dist/screenshots under the module root and returns
// it: the browser tests leave their screenshots there.
func screenshotDir(t *testing.T, root string) string {
	t.Helper()
	dir := filepath.Join(root, "dist", "screenshots")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	return dir
}

// builtSite compiles app.wasm and the static pages into a temporary
// directory and serves them; it returns the site's address.
func builtSite(ctx context.Context, t *testing.T) (root, url string) {
	t.Helper()
	root, _, url = builtSiteIn(ctx, t)
	return root, url
}

// builtSiteIn is builtSite, and also returns the directory it built into.
func builtSiteIn(ctx context.Context, t *testing.T) (root, dist, url string) {
	t.Helper()
	root, err := site.ModuleRoot(ctx)
	require.NoError(t, err)
	dist = t.TempDir()
	var goOut bytes.Buffer
	start := time.Now()
	require.NoError(t, site.BuildWasm(ctx, root, dist, &goOut), "building app.wasm:\n%s", goOut.String())
	require.NoError(t, site.GenerateStatic(root, dist))
	t.Logf("built the site in %s", time.Since(start).Round(time.Millisecond))
	srv := httptest.NewServer(site.Handler(dist))
	t.Cleanup(srv.Close)
	return root, dist, srv.URL + "/"
}

// browser starts headless Chromium with a fresh profile and returns a tab's
// context, and a function reporting the page's uncaught exceptions and
// console errors so far.
func browser(ctx context.Context, t *testing.T) (context.Context, func() []string) {
	t.Helper()
	tab, cancel := headless.Start(ctx, t.TempDir())
	t.Cleanup(cancel)

	// Console starts the browser and subscribes before the page loads, so
	// no message is lost; the goroutine ends with the tab.
	messages := chromedp.Console(tab)
	var mu sync.Mutex
	var problems []string
	go func() {
		for m, err := range messages {
			if err != nil {
				if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
					mu.Lock()
					problems = append(problems, "reading the console: "+err.Error())
					mu.Unlock()
				}
				return
			}
			if m.IsException() || m.Type == chromedp.ConsoleError {
				mu.Lock()
				problems = append(problems, fmt.Sprintf("%s (%s:%d)", m, m.URL, m.Line+1))
				mu.Unlock()
			}
		}
	}()
	return tab, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), problems...)
	}
}

// renderedRow is one queue row as the page shows it.
type renderedRow struct {
	Path  string   `json:"path"`
	Depth int      `json:"depth"`
	Cells []string `json:"cells"`
}

// readRows reads the queue rows back from the DOM, the cells in the order
// of app.ScenarioView.Text.
const readRows = `[...document.querySelectorAll('#queue-tree li.queue')].map(li => {
  const row = li.querySelector(':scope > .queue-row');
  const cell = f => { const e = row.querySelector('[data-field="' + f + '"]'); return e ? e.textContent.trim() : '(missing ' + f + ')'; };
  return {
    path: li.dataset.queue,
    depth: Number(li.dataset.depth),
    cells: ['capacity', 'max-capacity', 'abs-capacity', 'abs-max-capacity', 'guaranteed', 'max'].map(cell),
  };
})`

func TestBrowserRendersTheDefaultQueueTree(t *testing.T) {
	requireChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	root, url := builtSite(ctx, t)
	tab, problems := browser(ctx, t)
	shots := screenshotDir(t, root)

	// The last row, once the WebAssembly has run core and rendered the
	// whole tree (the pre-rendered page's tree is TestBrowserPreRendered's).
	const lastRow = `.playground[data-app="live"] #queue-tree li[data-queue="root.marketing-moguls.social-savants"]`
	start := time.Now()
	require.NoError(t, chromedp.Do(tab, chromedp.EmulateViewport(1280, 900)))
	waitCtx, cancelWait := context.WithTimeout(tab, renderTimeout)
	err := chromedp.Do(waitCtx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(lastRow)))
	cancelWait()
	if err != nil {
		explainTimeout(t, tab, shots, err, problems())
	}
	t.Logf("the queue tree rendered %s after navigation", time.Since(start).Round(time.Millisecond))

	rows, err := chromedp.Run(tab, chromedp.Evaluate[[]renderedRow](readRows))
	require.NoError(t, err)
	clusterTotal, err := chromedp.Run(tab, chromedp.Text(chromedp.CSS(`[data-field="cluster-total"]`)))
	require.NoError(t, err)

	byPath := map[string]renderedRow{}
	var lines []string
	for _, r := range rows {
		byPath[r.Path] = r
		lines = append(lines, app.QueueLine(r.Depth, r.Path, r.Cells...))
	}
	cell := func(path string, i int) string {
		r, ok := byPath[path]
		require.True(t, ok, "no row for queue %s; rows: %v", path, lines)
		return r.Cells[i]
	}
	const capacity, absCapacity, guaranteed = 0, 2, 4
	require.Equal(t, "100.0%", cell("root", absCapacity))
	require.Equal(t, "60.0%", cell("root.grumpy-engineers", capacity))
	require.Equal(t, "600 GB, 480 vcores", cell("root.grumpy-engineers", guaranteed))
	require.Equal(t, "12.0%", cell("root.grumpy-engineers.infinite-monkeys", absCapacity))
	require.Equal(t, "48.0%", cell("root.grumpy-engineers.pesky-testers", absCapacity))
	require.Equal(t, "1000 GB, 800 vcores", clusterTotal)

	// Every row, as the golden file shared with package app's tests has it.
	golden, err := os.ReadFile(filepath.Join(root, "testdata", "default-queue-tree.txt"))
	require.NoError(t, err)
	want := strings.Split(strings.TrimSpace(string(golden)), "\n")[1:] // after the cluster line
	require.Equal(t, want, lines, "the page differs from testdata/default-queue-tree.txt")

	screenshot(t, tab, filepath.Join(shots, "queue-tree-light.png"))
	require.NoError(t, chromedp.Do(tab, chromedp.Func(func(ctx context.Context, tt *chromedp.Target) error {
		_, err := cdp.Call(ctx, tt, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}},
		})
		return err
	})))
	screenshot(t, tab, filepath.Join(shots, "queue-tree-dark.png"))

	// A phone's width: the column heads give way to labels in each cell, and
	// nothing may stick out sideways.
	require.NoError(t, chromedp.Do(tab, chromedp.EmulateViewport(390, 844)))
	overflow, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.documentElement.scrollWidth - window.innerWidth`))
	require.NoError(t, err)
	require.LessOrEqual(t, overflow, 0, "at 390px wide the page scrolls sideways by %dpx", overflow)
	screenshot(t, tab, filepath.Join(shots, "queue-tree-narrow.png"))

	require.Empty(t, problems(), "the page reported JavaScript errors")
}

// screenshot writes a PNG of the whole page to file.
func screenshot(t *testing.T, tab context.Context, file string) {
	t.Helper()
	png, err := chromedp.Run(tab, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(file, png, 0o644))
	t.Logf("screenshot: %s", file)
}

// explainTimeout fails the test with what the page shows instead of the
// tree: go-app's loader label carries the error when app.wasm fails.
func explainTimeout(t *testing.T, tab context.Context, shots string, err error, problems []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab, 10*time.Second)
	defer cancel()
	text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ''`))
	if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
		_ = os.WriteFile(filepath.Join(shots, "failure.png"), png, 0o644)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("the queue tree did not render within %s: %w", renderTimeout, err)
	}
	t.Fatalf("%v\npage text:\n%s\nJavaScript problems: %q\n(screenshot: %s)", err, text, problems, filepath.Join(shots, "failure.png"))
}
