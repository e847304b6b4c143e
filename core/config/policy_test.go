package config

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOrderingPolicies holds CapacitySchedulerConfiguration's readings:
// getAppOrderingPolicy for leaves (fifo, fair and its
// fair.enable-size-based-weight, read by Boolean.parseBoolean) and
// getQueueOrderingPolicy for parents (the parent's policy by default).
func TestOrderingPolicies(t *testing.T) {
	p := Prefix + "root."
	tests := []struct {
		name        string
		kv          map[string]string
		queue, want string
		sizeBased   bool
	}{
		{"leaf default", nil, "root.a.x", PolicyFIFO, false},
		{"fair trimmed", map[string]string{p + "a.x.ordering-policy": " fair "}, "root.a.x", PolicyFair, false},
		{"fair class name", map[string]string{p + "a.x.ordering-policy": fairPolicyClass}, "root.a.x", PolicyFair, false},
		{"size-based weight", map[string]string{p + "a.x.ordering-policy": "fair", p + "a.x.ordering-policy.fair.enable-size-based-weight": "TRUE"}, "root.a.x", PolicyFair, true},
		{"size-based weight untrimmed is false", map[string]string{p + "a.x.ordering-policy": "fair", p + "a.x.ordering-policy.fair.enable-size-based-weight": " true"}, "root.a.x", PolicyFair, false},
		{"parent default", nil, "root.a", PolicyUtilization, false},
		{"root priority-utilization", map[string]string{p + "ordering-policy": "priority-utilization"}, "root", PolicyPriorityUtilization, false},
		{"inherited by a parent", map[string]string{p + "ordering-policy": "priority-utilization"}, "root.a", PolicyPriorityUtilization, false},
		{"overridden below", map[string]string{p + "ordering-policy": "priority-utilization", p + "a.ordering-policy": "utilization"}, "root.a", PolicyUtilization, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := FromMap(map[string]string{
				p + "queues": "a,b", p + "a.capacity": "50", p + "b.capacity": "50",
				p + "a.queues": "x", p + "a.x.capacity": "100",
			})
			for k, v := range tc.kv {
				c.Set(k, v)
			}
			parsed, err := Parse(c, Hadoop3)
			require.NoError(t, err)
			q := parsed.Queue(tc.queue)
			require.Equal(t, tc.want, q.OrderingPolicy)
			require.Equal(t, tc.sizeBased, q.FairSizeBasedWeight)
		})
	}
}
