package browsertest

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestBrowserPartitions opens the partitions lesson: the gpu node is
// marked with its label, and the partition picker shows the queue bars and
// the formulas of a leaf in the gpu partition, then in the default one.
func TestBrowserPartitions(t *testing.T) {
	_, _, p, problems := sitePage(t, 6*time.Minute)
	slug := "partitions"
	p.open(p.url + "lessons/" + slug)
	p.wait(counter+`.startsWith('step 0 of `+strconv.Itoa(lessonSteps(t, slug))+`')`, "the lesson at its start")
	require.Positive(t, js[int](p, `document.querySelectorAll('.node-label[data-label="gpu"]').length`), "g0 is marked with its label")
	for k := 1; k <= 9; k++ {
		p.click("#tl-forward")
		p.wait(counter+`.startsWith('step `+strconv.Itoa(k)+` of')`, "step "+strconv.Itoa(k))
	}
	leaf := "root.marketing-moguls"
	p.click(`.qb-row[data-queue="` + leaf + `"]`)
	p.wait(`(document.querySelector('.formulas') || {dataset: {}}).dataset.queue === `+q(leaf), "the formulas of marketing-moguls")
	require.Contains(t, p.text(`.qb-row[data-queue="`+leaf+`"]`), "30.0% guaranteed", "the default partition")

	p.click(`.partitions button[data-partition="gpu"]`)
	p.wait(`(document.querySelector('.formulas') || {dataset: {}}).dataset.partition === 'gpu'`, "the formulas in gpu")
	require.Contains(t, p.text(`.qb-row[data-queue="`+leaf+`"]`), "100.0% used / 0.0% guaranteed", "marketing uses all of gpu, lent to it")
	require.Contains(t, p.text(".formulas"), "User limit in partition gpu")

	p.click(`.partitions button.partition:not([data-partition])`)
	p.wait(`!(document.querySelector('.formulas') || {dataset: {}}).dataset.partition`, "the default partition again")
	require.Contains(t, p.text(`.qb-row[data-queue="`+leaf+`"]`), "30.0% guaranteed")
	require.Empty(t, problems(), "the page reported JavaScript errors")
}
