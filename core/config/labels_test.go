package config

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// webServicesPartitions is TestRMWebServicesForCSWithPartitions'
// configuration (Hadoop 3.3): Qa (default partition only), Qb (Lx),
// Qc (Lx, Ly) with Qc1 and Qc2.
func webServicesPartitions() *Conf {
	return kv(
		p+"queues", "Qa,Qb,Qc", p+"Qc.queues", "Qc1,Qc2",
		p+"accessible-node-labels.Lx.capacity", "100", p+"accessible-node-labels.Ly.capacity", "100",
		p+"Qa.capacity", "30", p+"Qa.maximum-capacity", "50",
		p+"Qb.capacity", "30", p+"Qb.maximum-capacity", "50",
		p+"Qc.capacity", "40", p+"Qc.maximum-capacity", "50",
		p+"Qc.Qc1.capacity", "50", p+"Qc.Qc1.maximum-capacity", "60",
		p+"Qc.Qc2.capacity", "50", p+"Qc.Qc2.maximum-capacity", "70",
		p+"Qa.accessible-node-labels", "", p+"Qb.accessible-node-labels", "Lx",
		p+"Qc.accessible-node-labels", "Lx,Ly", p+"Qc.Qc1.accessible-node-labels", "Lx,Ly", p+"Qc.Qc2.accessible-node-labels", "Lx,Ly",
		p+"Qb.default-node-label-expression", "Lx", p+"Qc.Qc1.default-node-label-expression", "Lx", p+"Qc.Qc2.default-node-label-expression", "Ly",
		p+"Qb.accessible-node-labels.Lx.capacity", "30", p+"Qc.accessible-node-labels.Lx.capacity", "70",
		p+"Qc.Qc1.accessible-node-labels.Lx.capacity", "40", p+"Qc.Qc2.accessible-node-labels.Lx.capacity", "60",
		p+"Qc.accessible-node-labels.Ly.capacity", "100",
		p+"Qc.Qc1.accessible-node-labels.Ly.capacity", "50", p+"Qc.Qc2.accessible-node-labels.Ly.capacity", "50",
		p+"Qc.Qc1.accessible-node-labels.Ly.maximum-capacity", "75", p+"Qc.Qc2.accessible-node-labels.Ly.maximum-capacity", "75",
	)
}

func TestLabelCapacities(t *testing.T) {
	parsed := mustParse(t, webServicesPartitions())
	require.Equal(t, []string{Any}, parsed.Root.Labels.Accessible)
	qa, qb := parsed.Queue("root.Qa"), parsed.Queue("root.Qb")
	require.Empty(t, qa.Labels.Accessible)
	require.True(t, qa.CanAccess(""))
	require.False(t, qa.CanAccess("Lx"))
	require.Equal(t, "Lx", qb.Labels.DefaultExpression)
	require.Equal(t, LabelCapacity{Capacity: 0.3, MaxCapacity: 1, AbsCapacity: 0.3, AbsMaxCapacity: 1, MaxAMPercent: 0.1}, qb.Label("Lx"))
	c1 := parsed.Queue("root.Qc.Qc1")
	require.InDelta(t, 0.28, c1.Label("Lx").AbsCapacity, 1e-6, "40% of Qc's 70%")
	require.InDelta(t, 0.5, c1.Label("Ly").AbsCapacity, 1e-6)
	require.InDelta(t, 0.75, c1.Label("Ly").AbsMaxCapacity, 1e-6)
	require.Equal(t, LabelCapacity{}, c1.Label("Lz"), "a label the queue does not configure has every capacity 0")
	require.Equal(t, []string{"Lx", "Ly"}, ConfiguredLabels(parsed.Root))
}

func TestLabelInheritance(t *testing.T) {
	parsed := mustParse(t, kv(
		p+"queues", "a,b", p+"a.capacity", "50", p+"b.capacity", "50",
		p+"a.queues", "a1,a2", p+"a.a1.capacity", "50", p+"a.a2.capacity", "50",
		p+"a.accessible-node-labels", " x , y ", p+"a.default-node-label-expression", " x ",
		p+"a.a2.accessible-node-labels", "y",
		p+"b.accessible-node-labels", " ",
		p+"accessible-node-labels", "z", // ignored on root, with Hadoop's warning
	))
	require.Equal(t, []string{"x", "y"}, parsed.Queue("root.a").Labels.Accessible)
	a1, a2 := parsed.Queue("root.a.a1"), parsed.Queue("root.a.a2")
	require.Equal(t, []string{"x", "y"}, a1.Labels.Accessible, "inherited")
	require.Equal(t, "x", a1.Labels.DefaultExpression, "inherited: a1 can access all its parent can")
	require.Equal(t, "", a2.Labels.DefaultExpression, "not inherited: a2 cannot access all its parent can")
	require.Empty(t, parsed.Queue("root.b").Labels.Accessible, "a space: the default partition only")
	require.Equal(t, []string{Any}, parsed.Root.Labels.Accessible)
	require.Contains(t, parsed.Settings.Warnings, `yarn.scheduler.capacity.root.accessible-node-labels: Accessible node labels for root queue will be ignored, it will be automatically set to "*".`)
}

// TestLabelRefusals are Hadoop 3.3's refusals of label settings
// (AbstractCSQueue.setupQueueConfigs, LeafQueue.setupQueueConfigs,
// ParentQueue.setChildQueues, CSQueueUtils.capacitiesSanityCheck).
func TestLabelRefusals(t *testing.T) {
	tests := []struct {
		name string
		conf *Conf
		want string
	}{
		{"children's label capacities must sum to 100",
			kv(p+"queues", "a,b", p+"a.capacity", "50", p+"b.capacity", "50", p+"accessible-node-labels.x.capacity", "100",
				p+"a.accessible-node-labels.x.capacity", "60", p+"b.accessible-node-labels.x.capacity", "30"),
			"Illegal capacity of 0.90000004 for children of queue root for label=x"},
		{"a parent with 0 for the label: its children must have 0",
			kv(p+"queues", "a", p+"a.capacity", "100", p+"accessible-node-labels.x.capacity", "0",
				p+"a.accessible-node-labels.x.capacity", "10"),
			"Illegal capacity of 0.1 for children of queue root for label=x"},
		{"child labels must be a subset of the parent's",
			kv(p+"queues", "a", p+"a.capacity", "100", p+"a.queues", "a1", p+"a.a1.capacity", "100",
				p+"a.accessible-node-labels", "x", p+"a.a1.accessible-node-labels", "x,y"),
			"Some labels of child queue is not a subset of parent queue, these labels=[y]"},
		{"a child of a non-* parent cannot be *",
			kv(p+"queues", "a", p+"a.capacity", "100", p+"a.queues", "a1", p+"a.a1.capacity", "100",
				p+"a.accessible-node-labels", "x", p+"a.a1.accessible-node-labels", "*"),
			"Parent's accessible queue is not ANY(*), but child's accessible queue is *"},
		{"a leaf's default label must be accessible",
			kv(p+"queues", "a", p+"a.capacity", "100", p+"a.accessible-node-labels", "x", p+"a.default-node-label-expression", "y"),
			"Invalid default label expression of  queue=root.a doesn't have permission to access all labels in default label expression. labelExpression of resource request=y. Queue labels=x"},
		{"label capacity above the label maximum",
			kv(p+"queues", "a", p+"a.capacity", "100", p+"accessible-node-labels.x.capacity", "100",
				p+"a.accessible-node-labels.x.capacity", "100", p+"a.accessible-node-labels.x.maximum-capacity", "50"),
			"Illegal queue capacity setting (abs-capacity=1.0) > (abs-maximum-capacity=0.5) for queue=[root.a],label=[x]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := Check(tc.conf, Hadoop3)
			require.Equal(t, Refused, res.Verdict, "%+v", res)
			require.Equal(t, tc.want, res.Err.Message)
		})
	}
}

func TestLabelAMPercent(t *testing.T) {
	parsed := mustParse(t, kv(p+"queues", "a", p+"a.capacity", "100", p+"a.maximum-am-resource-percent", "0.3",
		p+"accessible-node-labels.x.capacity", "100", p+"a.accessible-node-labels.x.capacity", "100",
		p+"a.accessible-node-labels.y.maximum-capacity", "50",
		p+"a.accessible-node-labels.x.maximum-am-resource-percent", "0.5"))
	a := parsed.Queue("root.a")
	require.InDelta(t, 0.5, a.Label("x").MaxAMPercent, 1e-6)
	require.InDelta(t, 0.3, a.Label("y").MaxAMPercent, 1e-6, "the queue's, where the label sets none")
	require.Equal(t, float32(0), a.Label("y").AbsMaxCapacity, "root does not configure y: 50% of 0")
}

func TestLabelsAreIgnoredUnderHadoop2(t *testing.T) {
	res := Check(kv(p+"queues", "a", p+"a.capacity", "100", p+"a.accessible-node-labels", "x",
		p+"a.accessible-node-labels.x.capacity", "-1"), Hadoop2)
	require.Equal(t, Accepted, res.Verdict)
	require.Contains(t, res.Warnings[0], "node labels are simulated under the hadoop-3 profile")
}
