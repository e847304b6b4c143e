package browsertest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestBrowserAutoCreatedQueueAppears opens the auto-created-queues lesson:
// users carries the auto-create parent's mark, and once alice submits, her
// leaf appears in the capacities tree and the queue bars, marked as
// auto-created.
func TestBrowserAutoCreatedQueueAppears(t *testing.T) {
	_, _, p, problems := sitePage(t, 6*time.Minute)
	p.open(p.url + "lessons/auto-created-queues")
	p.wait(counter+`.startsWith('step 0 of ')`, "the lesson at its start")
	p.wait(`!!document.querySelector('#queue-tree li[data-queue="root.users"] [data-field="auto"]')`, "root.users marked in the tree")
	require.False(t, js[bool](p, `!!document.querySelector('#queue-tree li[data-queue="root.users.alice"]')`),
		"no leaf for alice before her application")

	// Step 1 checks the start; step 2 submits alice's application.
	p.click("#tl-forward")
	p.wait(counter+`.startsWith('step 1 of ')`, "step 1")
	p.click("#tl-forward")
	p.wait(counter+`.startsWith('step 2 of ')`, "step 2")
	p.wait(`!!document.querySelector('#queue-tree li[data-queue="root.users.alice"] [data-field="auto"]')`,
		"alice's auto-created leaf in the tree")
	p.wait(`document.querySelectorAll('.qb-row[data-queue="root.users.alice"] .b-auto').length === 1`,
		"alice's leaf marked in the queue bars")
	require.Contains(t, p.text(`#queue-tree li[data-queue="root.users.alice"]`), "auto-created")
	p.screenshot("auto-created-queue.png")
	require.Empty(t, problems(), "the page reported JavaScript errors")
}
