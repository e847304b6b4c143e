package app

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/core/config"
)

const weightScenario = `name: weights
profile: hadoop-3.4
config:
  yarn.scheduler.capacity.root.queues: default
  yarn.scheduler.capacity.root.default.capacity: 100
nodes: [{name: n0, memory_mb: 8192, vcores: 8}]
`

// Under the hadoop-3.4 profile the queue editor takes weights in the
// capacity fields: the sum line gives each child's share, Hadoop 3.4's
// refusal of weights mixed with percentages shows on the parent, and the
// hadoop-3 profile refuses a weight as Hadoop 3.3 does.
func TestQueueEditorTakesWeights(t *testing.T) {
	s := store.New()
	require.NoError(t, s.ImportScenario("w.yaml", []byte(weightScenario)))
	ctl := NewLocalController(s)
	e := app.NewTestEngine()
	qe := &QueueEditor{F: s.Frame(), Ctl: ctl}
	render(t, e, qe)
	c, err := store.AddQueue(qe.draft, "root", "b")
	require.NoError(t, err)
	c = store.SetQueueProperty(c, "root.default", config.SuffixCapacity, "2w")
	c = store.SetQueueProperty(c, "root.b", config.SuffixCapacity, "3w")
	qe.apply(app.Context{}, c)
	require.Nil(t, qe.issue)
	require.Equal(t, "3w", s.Frame().Conf["yarn.scheduler.capacity.root.b.capacity"])
	html := render(t, e, &QueueEditor{F: s.Frame(), Ctl: ctl})
	require.Contains(t, html, "weights: default 2w (40%), b 3w (60%)")

	// Weights and percentages among siblings: Hadoop 3.4 refuses them.
	qe.apply(app.Context{}, store.SetQueueProperty(qe.draft, "root.b", config.SuffixCapacity, "60"))
	require.NotNil(t, qe.issue)
	require.Equal(t, "root", qe.issue.Queue)
	require.Contains(t, qe.issue.Message, "have children queue used mixed of  weight mode, percentage and absolute mode")
	require.Equal(t, "1 of 2 children are weights (Hadoop 3.4 takes weights only when every sibling has one); "+
		"the percentages sum to 60%", capacitySumText(qe.draft, "root"))

	// The hadoop-3 profile has no weights.
	s3 := store.New()
	qe3 := &QueueEditor{F: s3.Frame(), Ctl: NewLocalController(s3)}
	render(t, e, qe3)
	qe3.apply(app.Context{}, store.SetQueueProperty(qe3.draft, "root.default", config.SuffixCapacity, "1w"))
	require.NotNil(t, qe3.issue)
	require.Contains(t, qe3.issue.Message, "weights such as 2w came with Hadoop 3.4: use the hadoop-3.4 profile")
}

// TestWeightsShares: store.Weights gives each weighted child its share,
// and the sum line lists them to a tenth of a percent.
func TestWeightsShares(t *testing.T) {
	conf := map[string]string{
		"yarn.scheduler.capacity.root.queues":     "a,b,c",
		"yarn.scheduler.capacity.root.a.capacity": "1w",
		"yarn.scheduler.capacity.root.b.capacity": " 2w",
		"yarn.scheduler.capacity.root.c.capacity": "[memory=1024]",
	}
	ws, n, ok := store.Weights(conf, "root")
	require.True(t, ok)
	require.Equal(t, 3, n)
	require.Equal(t, []store.WeightShare{{Name: "a", Value: "1w", Share: 1.0 / 3}, {Name: "b", Value: "2w", Share: 2.0 / 3}}, ws)
	sum, _, ok := store.CapacitySum(conf, "root")
	require.True(t, ok)
	require.Zero(t, sum, "weights and resources are no percentages")
	conf["yarn.scheduler.capacity.root.c.capacity"] = "xw"
	_, _, ok = store.Weights(conf, "root")
	require.False(t, ok)
	require.Equal(t, "a child's capacity is not a number", capacitySumText(conf, "root"))
	conf["yarn.scheduler.capacity.root.c.capacity"] = "0w"
	require.Equal(t, "weights: a 1w (33.3%), b 2w (66.7%), c 0w (0%)", capacitySumText(conf, "root"))
	conf["yarn.scheduler.capacity.root.c.capacity"] = "50"
	conf["yarn.scheduler.capacity.legacy-queue-mode.enabled"] = "false"
	require.Equal(t, "mixed modes (legacy-queue-mode.enabled=false): 0 absolute, 2 weighted; the percentages take 50% "+
		"of what the absolute children leave, the weights share the rest", capacitySumText(conf, "root"))
}

// A weighted queue's panel shows its weight and normalized weight, as
// Hadoop 3.4's queue information does (weight, normalizedWeight).
func TestQueueDetailShowsWeights(t *testing.T) {
	s := store.New()
	require.NoError(t, s.ImportScenario("w.yaml", []byte(weightScenario)))
	c, err := store.AddQueue(s.Frame().Conf, "root", "b")
	require.NoError(t, err)
	c = store.SetQueueProperty(c, "root.default", config.SuffixCapacity, "1w")
	c = store.SetQueueProperty(c, "root.b", config.SuffixCapacity, "3w")
	require.NoError(t, s.SetConfig(c))
	f := s.Frame()
	rows := map[string]string{}
	for i := range f.Queues {
		if f.Queues[i].Path == "root.b" {
			for _, r := range queueDetailOf(f, &f.Queues[i]).Rows {
				rows[r.Field] = r.Value
			}
		}
	}
	require.Equal(t, "3w", rows["configured-weight"])
	require.Equal(t, "0.75", rows["normalized-weight"])
}
