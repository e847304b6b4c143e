package config

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMonitorPolicies holds which scheduling edit policies the monitor
// runs: the preemption policy by default, the listed ones when
// yarn.resourcemanager.scheduler.monitor.policies is set.
func TestMonitorPolicies(t *testing.T) {
	both := PreemptionPolicyClass + ", " + QueueManagementPolicyClass
	for _, tc := range []struct {
		name              string
		enable, policies  string
		preempt, queueMgt bool
	}{
		{"off", "false", both, false, false},
		{"on, the default list", "true", "", true, false},
		{"queue management only", "true", QueueManagementPolicyClass, false, true},
		{"both", "true", both, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kv := []string{KeyMonitorEnable, tc.enable}
			if tc.policies != "" {
				kv = append(kv, KeyMonitorPolicies, tc.policies)
			}
			s := mustParse(t, minimal(kv...)).Settings
			require.Equal(t, tc.preempt, s.Preemption.Enabled)
			require.Equal(t, tc.queueMgt, s.QueueManagement)
		})
	}
}

// TestAutoCreatedLeafFromTemplate is the AutoCreatedLeafQueue
// constructor for TestCapacitySchedulerAutoCreatedQueueBase's c: the
// template's properties under the leaf's name, Hadoop's defaults for the
// rest (not the cluster's maximum-am-resource-percent), capacity 0.
func TestAutoCreatedLeafFromTemplate(t *testing.T) {
	p := Prefix + "root."
	c := FromMap(map[string]string{
		p + "queues": "c,d", p + "c.capacity": "20", p + "d.capacity": "80",
		p + "c.auto-create-child-queue.enabled": "true",
		p + "c.leaf-queue-template.capacity":    "50", p + "c.LEAF-QUEUE-TEMPLATE.maximum-capacity": "100",
		p + "c.leaf-queue-template.user-limit-factor": "3", p + "c.leaf-queue-template.ordering-policy": "fair",
		p + "c.leaf-queue-template.acl_submit_applications": "alice",
		Prefix + "maximum-am-resource-percent":              "0.5",
	})
	parsed, err := Parse(c, Hadoop3)
	require.NoError(t, err)
	parent := parsed.Queue("root.c")
	require.True(t, parent.ManagedParent)
	require.False(t, parent.IsLeaf())
	require.InDelta(t, 0.1, parent.Template.AbsCapacity, 1e-7)
	require.Equal(t, 1000, parent.Template.MaxQueues)

	leaf, err := NewAutoCreatedLeaf(parent, "user0", parsed.Settings, Hadoop3)
	require.NoError(t, err)
	require.Equal(t, "root.c.user0", leaf.Path)
	require.True(t, leaf.AutoCreated)
	require.Equal(t, float32(0), leaf.Capacity)
	require.Equal(t, float32(0), leaf.AbsCapacity)
	require.Equal(t, float32(1), leaf.MaxCapacity, "the upper-case key is the template's too")
	require.Equal(t, float32(1), leaf.AbsMaxCapacity, "c's maximum is the cluster")
	require.Equal(t, 1000, leaf.MaxApplications, "(int) (10000 x 0.1f): the template's capacity")
	require.Equal(t, 1000, leaf.MaxApplicationsPerUser)
	require.Equal(t, float32(3), leaf.UserLimitFactor)
	require.Equal(t, PolicyFair, leaf.OrderingPolicy)
	require.Equal(t, float32(0.1), leaf.MaxAMPercent)
	require.True(t, leaf.SubmitACL.Allows("alice", nil))

	active := WithEntitlement(leaf, parent.Template.Capacity, parent.Template.MaxCapacity)
	require.Equal(t, float32(0.5), active.Capacity)
	require.InDelta(t, 0.1, active.AbsCapacity, 1e-7)
	require.Equal(t, float32(0), leaf.Capacity, "the leaf's configuration is not changed")
}

// TestAutoCreationUnderHadoop34 holds the verdicts under the hadoop-3.4
// profile: legacy auto-created leaves are simulated as in 3.3, and a
// queue with flexible auto-queue creation is a parent even without
// children.
func TestAutoCreationUnderHadoop34(t *testing.T) {
	p := Prefix + "root."
	base := map[string]string{p + "queues": "a,b", p + "a.capacity": "50", p + "b.capacity": "50"}
	with := func(kv ...string) *Conf {
		c := FromMap(base)
		for i := 0; i+1 < len(kv); i += 2 {
			c.Set(kv[i], kv[i+1])
		}
		return c
	}
	r := Check(with(p+"b.auto-create-child-queue.enabled", "true", p+"b.leaf-queue-template.capacity", "10"), Hadoop34)
	require.Equal(t, Accepted, r.Verdict, "%v", r.Err)
	require.True(t, r.Parsed.Queue("root.b").ManagedParent)

	r = Check(with(p+"b.auto-queue-creation-v2.enabled", "true", p+"b.auto-queue-creation-v2.max-queues", "5",
		p+"b.auto-queue-creation-v2.template.capacity", "2w", p+"*.auto-queue-creation-v2.template.capacity", "2w"), Hadoop34)
	require.Equal(t, Accepted, r.Verdict, "%v %v", r.Err, r.Warnings)
	b := r.Parsed.Queue("root.b")
	require.True(t, b.AutoQueueCreationV2)
	require.False(t, b.IsLeaf(), "a parent of the queues to come")
	require.Equal(t, 5, b.AutoQueueMaxQueues)

	r = Check(with(p+"b.auto-queue-creation-v2.enabled", "true", p+"b.auto-queue-creation-v2.max-queues", "x"), Hadoop34)
	require.Equal(t, Refused, r.Verdict)
	require.Equal(t, p+"b.auto-queue-creation-v2.max-queues", r.Err.Property)
}
