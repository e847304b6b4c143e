package app

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/core/resource"
)

// The queue editor takes absolute resources in the capacity fields: the
// sum line says so instead of a percentage, and Hadoop's refusal of a
// percentage parent with an absolute child shows on the parent.
func TestQueueEditorTakesAbsoluteCapacities(t *testing.T) {
	s := store.New()
	ctl := NewLocalController(s)
	e := app.NewTestEngine()
	qe := &QueueEditor{F: s.Frame(), Ctl: ctl}
	render(t, e, qe)
	c, err := store.AddQueue(qe.draft, "root", "b")
	require.NoError(t, err)
	c = store.SetQueueProperty(c, "root.default", config.SuffixCapacity, "[memory=4096,vcores=4]")
	c = store.SetQueueProperty(c, "root.b", config.SuffixCapacity, "[memory=2Gi,vcores=2]")
	qe.apply(app.Context{}, c)
	require.Nil(t, qe.issue)
	require.Equal(t, "[memory=2Gi,vcores=2]", s.Frame().Conf["yarn.scheduler.capacity.root.b.capacity"])
	html := render(t, e, &QueueEditor{F: s.Frame(), Ctl: ctl})
	require.Contains(t, html, "children&#39;s capacities are absolute resources")

	// root's children may mix the types in Hadoop 3.3.
	qe.apply(app.Context{}, store.SetQueueProperty(qe.draft, "root.b", config.SuffixCapacity, "40"))
	require.Nil(t, qe.issue)
	html = render(t, e, &QueueEditor{F: s.Frame(), Ctl: ctl})
	require.Contains(t, html, "1 of 2 children are absolute resources")

	// A percentage parent refuses an absolute child.
	c, err = store.AddQueue(qe.draft, "root.b", "b1")
	require.NoError(t, err)
	qe.apply(app.Context{}, store.SetQueueProperty(c, "root.b.b1", config.SuffixCapacity, "[memory=1024,vcores=1]"))
	require.NotNil(t, qe.issue)
	require.Equal(t, "root.b", qe.issue.Queue)
	require.Contains(t, qe.issue.Message, "should use either percentage based capacity configuration or absolute resource together")
}

// An absolute queue's panel shows its configured resources, as Hadoop
// 3.3's scheduler page does ("Configured Capacity", "Configured Max
// Capacity", unlimited when none).
func TestQueueDetailShowsConfiguredResources(t *testing.T) {
	s := store.New()
	c := store.SetQueueProperty(s.Frame().Conf, "root.default", config.SuffixCapacity, "[memory=4096,vcores=4]")
	require.NoError(t, s.SetConfig(c))
	f := s.Frame()
	var q *core.QueueView
	for i := range f.Queues {
		if f.Queues[i].Path == "root.default" {
			q = &f.Queues[i]
		}
	}
	require.NotNil(t, q)
	rows := map[string]string{}
	for _, r := range queueDetailOf(f, q).Rows {
		rows[r.Field] = r.Value
	}
	require.Equal(t, rmText(resource.New(4096, 4)), rows["configured-capacity"])
	require.Equal(t, "unlimited", rows["configured-max-capacity"])
}
