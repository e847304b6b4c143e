package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/core/resource"
	"yarnplay/scenarios"
	"yarnplay/wasm/bridge"
)

// partitionsFrame is the partitions lesson after g0 lent its 40 GB to
// marketing-moguls (step 9), with marketing-moguls selected.
func partitionsFrame(t *testing.T, partition string) store.Frame {
	t.Helper()
	s, _ := lessonStore(t, "partitions", true, 9)
	s.Select("root.marketing-moguls")
	s.SelectPartition(partition)
	require.Empty(t, s.Frame().Err)
	return *s.Frame()
}

func TestStoreSelectsAPartition(t *testing.T) {
	f := partitionsFrame(t, "gpu")
	require.Equal(t, "gpu", f.Partition)
	require.Len(t, f.Partitions, 1)
	require.False(t, f.Partitions[0].Exclusive)
	require.Equal(t, int64(40960), f.Partitions[0].Resource.MemoryMB)
	require.Equal(t, int64(81920), f.Cluster.MemoryMB, "the frame's cluster is the default partition")

	g := store.InPartition(&f, "gpu")
	mk := queueOf(t, &g, "root.marketing-moguls")
	require.Equal(t, int64(40960), mk.Used.MemoryMB, "marketing's usage in gpu: lent resources")
	require.Equal(t, float32(0), mk.AbsCapacity, "no guarantee in gpu")
	ge := queueOf(t, &g, "root.grumpy-engineers")
	require.Equal(t, float32(1), ge.AbsCapacity)
	require.Equal(t, int64(40960), ge.EffectiveMin.MemoryMB)
	require.Equal(t, int64(40960), g.Cluster.MemoryMB)
	require.NotNil(t, g.UserLimit, "the selected leaf's formulas in gpu")
	require.Equal(t, int64(40960), g.UserLimit.Partition.MemoryMB)

	same := store.InPartition(&f, "")
	require.Equal(t, int64(81920), queueOf(t, &same, "root.marketing-moguls").Used.MemoryMB)

	s, _ := lessonStore(t, "partitions", true, 9)
	s.SelectPartition("nope")
	require.Contains(t, s.Frame().Err, "no partition nope")
	require.Equal(t, "", s.Frame().Partition)
}

func TestPartitionPickerAndBars(t *testing.T) {
	f := partitionsFrame(t, "gpu")
	var picked []string
	html := renderHTML(t, &PartitionPicker{Partitions: f.Partitions, Cluster: rmText(f.Cluster), Selected: f.Partition,
		OnPick: NewCallback(func(l string) { picked = append(picked, l) })})
	has(t, html, `data-partition="gpu"`, `title="Partition gpu`, "not exclusive", ">default</button>")
	require.Equal(t, 2, strings.Count(html, "aria-pressed"))
	require.Equal(t, 1, strings.Count(html, `aria-pressed="false"`), "the default button is not pressed; gpu is (go-app writes true as a bare attribute)")
	has(t, renderHTML(t, &PartitionPicker{}), `hidden`)

	g := partitionFrame(&f)
	bars := renderHTML(t, &QueueBars{Frame: g})
	has(t, bars, "0.0% guaranteed", "100.0% guaranteed")
	formulas := renderHTML(t, &FormulaPanel{Frame: g, Partition: f.Partition})
	has(t, formulas, "User limit in partition gpu", "section 15.4", `data-partition="gpu"`)

	nodes := renderHTML(t, &NodeGrid{Frame: f})
	has(t, nodes, `class="node-label"`, `data-label="gpu"`)
}

func TestPageShowsThePartitionPicker(t *testing.T) {
	p, _ := mounted(t, bridge.NewMemoryStorage(), "", "partitions")
	html := app.HTMLString(p)
	has(t, html, `class="partitions"`, `data-partition="gpu"`)
	p.pickPartition("gpu")
	require.Equal(t, "gpu", p.ctl.Frame().Partition)
	p.pickPartition("")
	require.Equal(t, "", p.ctl.Frame().Partition)
}

func TestStoreAddsALabelledNode(t *testing.T) {
	s, _ := lessonStore(t, "user-limits", false, 0)
	require.NoError(t, s.AddNodeLabel("gpu", false))
	require.NoError(t, s.AddNodeLabel("gpu", true), "a label the cluster has is kept as it is")
	require.NoError(t, s.AddNodes(scenarios.NodeSpec{Name: "g{i}", Count: 2, Label: "gpu", MemoryMB: 4096, VCores: 4}))
	f := s.Frame()
	require.Equal(t, []store.Partition{{Label: "gpu", Exclusive: false, Resource: resource.New(8192, 8)}}, f.Partitions)
	labelled := 0
	for _, n := range f.Nodes {
		if n.Label == "gpu" {
			labelled++
		}
	}
	require.Equal(t, 2, labelled)
	require.Error(t, s.AddNodes(scenarios.NodeSpec{Name: "h0", Label: "fpga"}), "a label the cluster does not have")
	html := renderHTML(t, nodeEditor(f, nil, nil))
	has(t, html, `id="ne-label"`, "not exclusive")
	pf := partitionsFrame(t, "")
	has(t, renderHTML(t, nodeEditor(&pf, nil, nil)), `class="node-label"`, `data-label="gpu"`)
}

func TestQueueEditorEditsLabels(t *testing.T) {
	f := partitionsFrame(t, "")
	ed := &QueueEditor{F: &f}
	ed.open = "root.grumpy-engineers"
	html := renderHTML(t, ed)
	has(t, html, "Accessible Node Labels", "Default Node Label Expression",
		`data-prop="accessible-node-labels.gpu.capacity"`, `data-prop="accessible-node-labels.gpu.maximum-capacity"`,
		`id="qe-root-grumpy-engineers-accessible-node-labels-gpu-capacity"`, `value="100"`)

	conf := map[string]string{}
	conf = store.SetQueueProperty(conf, "root.b", "accessible-node-labels", " ")
	require.Equal(t, " ", conf["yarn.scheduler.capacity.root.b.accessible-node-labels"], "a space: the default partition only")
	conf = store.SetQueueProperty(conf, "root.b", "accessible-node-labels", "")
	require.NotContains(t, conf, "yarn.scheduler.capacity.root.b.accessible-node-labels", "empty: the parent's")
	conf = store.SetQueueProperty(conf, "root.b", "default-node-label-expression", " ")
	require.Empty(t, conf)
}

func TestClusterMetricsCountEveryPartition(t *testing.T) {
	f := partitionsFrame(t, "")
	m := clusterMetricsOf(&f)
	require.Equal(t, int64(3*40960), m.MemTotal, "the default partition's two nodes and g0")
	require.Equal(t, int64(3*40960), m.MemUsed, "all three nodes are full at step 9")
}
