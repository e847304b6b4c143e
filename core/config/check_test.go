package config

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCheckVerdicts holds the three outcomes: what Hadoop 3.3 accepts and
// yarnplay simulates, what Hadoop refuses (with its message), and what
// Hadoop runs but yarnplay does not simulate (naming the feature).
func TestCheckVerdicts(t *testing.T) {
	p := Prefix + "root."
	base := func(kv ...string) *Conf {
		c := FromMap(map[string]string{
			p + "queues": "a,b", p + "a.capacity": "50", p + "b.capacity": "50",
			p + "a.queues": "a1,a2", p + "a.a1.capacity": "50", p + "a.a2.capacity": "50",
		})
		for i := 0; i+1 < len(kv); i += 2 {
			c.Set(kv[i], kv[i+1])
		}
		return c
	}
	tests := []struct {
		name    string
		conf    *Conf
		verdict Verdict
		message string // substring of the error, when refused or not simulated
		warning string // substring of a warning, when one is expected
	}{
		{"plain", base(), Accepted, "", ""},
		{"auto-created leaves (Hadoop's docs)", base(p+"b.auto-create-child-queue.enabled", "true",
			p+"b.leaf-queue-template.capacity", "10", p+"b.leaf-queue-template.maximum-capacity", "50",
			p+"b.leaf-queue-template.user-limit-factor", "3", p+"b.leaf-queue-template.ordering-policy", "fair",
			KeyQueueMappings, "u:%user:b.%user,u:%user:%primary_group.%user,g:eng:b.%user,u:bob:root.b.bob"), Accepted, "", ""},
		{"auto-create on a parent with children", base(p+"a.auto-create-child-queue.enabled", "true"), NotSimulated,
			"does not allow pre-configured queues next to auto-created ones", ""},
		{"a leaf template over 100%", base(p+"b.auto-create-child-queue.enabled", "true", p+"b.leaf-queue-template.capacity", "150"),
			Refused, "Illegal capacity of 150.0 for queue root.b.leaf-queue-template", ""},
		{"a leaf template over its maximum", base(p+"b.auto-create-child-queue.enabled", "true", p+"b.leaf-queue-template.capacity", "60",
			p+"b.leaf-queue-template.maximum-capacity", "20"), Refused,
			"Illegal queue capacity setting (abs-capacity=0.3) > (abs-maximum-capacity=0.2) for queue=[root.b.leaf-queue-template],label=[]", ""},
		{"another queue-management policy", base(p+"b.auto-create-child-queue.enabled", "true",
			p+"b.auto-create-child-queue.management-policy", "com.example.Policy"), NotSimulated, "GuaranteedOrZeroCapacityOverTimePolicy only", ""},
		{"flexible auto-creation under 3.3", base(p+"b.auto-queue-creation-v2.enabled", "true"), Accepted, "",
			"Hadoop 3.3 has no flexible auto-queue creation (it came with Hadoop 3.4); the property is ignored"},
		{"a mapping under a managed parent", base(p+"b.auto-create-child-queue.enabled", "true", KeyQueueMappings, "u:%user:root.b.%user"),
			Accepted, "", ""},
		{"a dynamic mapping under a parent without auto-creation", base(KeyQueueMappings, "u:%user:a.%user"), Refused,
			"mapping contains leaf queue [%user] and invalid parent queue which does not have auto creation of leaf queues enabled [a]", ""},
		{"fair leaves (fs2cs)", base(p+"a.a1.ordering-policy", "fair", p+"b.ordering-policy", "fair",
			p+"b.ordering-policy.fair.enable-size-based-weight", "true"), Accepted, "", ""},
		{"priority-utilization with priorities (Ambari LLAP)", base(p+"ordering-policy", "priority-utilization",
			p+"a.priority", "1", p+"b.priority", "10"), Accepted, "", ""},
		{"max-parallel-apps", base(Prefix+"max-parallel-apps", "50", p+"a.a1.max-parallel-apps", "2",
			Prefix+"user.max-parallel-apps", "5", Prefix+"user.alice.max-parallel-apps", "1"), Accepted, "", ""},
		{"capacities not adding up", base(p+"b.capacity", "40"), Refused, "Illegal capacity of 0.9 for children of queue root", ""},
		{"fair on a parent", base(p+"a.ordering-policy", "fair"), Refused, "Unable to construct queue ordering policy=fair queue=root.a", ""},
		{"mapping to a missing queue", base(KeyQueueMappings, "u:alice:nope"), Refused,
			"Failed to initialize queues: mapping contains invalid or non-leaf queue nope", ""},
		{"mapping to a parent", base(KeyQueueMappings, "u:alice:a"), Refused, "mapping contains invalid or non-leaf queue : a", ""},
		{"mapping under a parent without auto-creation", base(KeyQueueMappings, "u:alice:root.a.new"), Refused,
			"mapping contains leaf queue [new] and invalid parent queue which does not have auto creation of leaf queues enabled [root.a]", ""},
		{"mapping malformed", base(KeyQueueMappings, "u:alice"), Refused, "Illegal queue mapping u:alice", ""},
		{"mapping with an unknown type", base(KeyQueueMappings, "x:alice:a1"), Refused, "Illegal queue mapping x:alice:a1", ""},
		{"mappings that hold", base(KeyQueueMappings, "u:alice:a1, g:eng:root.b,u:%user:%user"), Accepted, "", ""},
		{"absolute capacities", base(p+"a.capacity", "[memory=4096,vcores=4]", p+"b.capacity", "[memory=2048,vcores=2]",
			p+"a.a1.capacity", "[memory=2048,vcores=2]", p+"a.a2.capacity", "[memory=2048,vcores=2]"), Accepted, "", ""},
		{"root's children may mix capacity types in Hadoop 3.3", base(p+"b.capacity", "[memory=1024,vcores=1]"), Accepted, "", ""},
		{"a percentage parent refuses an absolute child", base(p+"a.a2.capacity", "[memory=1024,vcores=1]"), Refused,
			"Parent queue 'root.a' and child queue 'root.a.a2' should use either percentage based capacity configuration " +
				"or absolute resource together.", ""},
		{"reservable", base(p+"b.reservable", "true"), NotSimulated, "reservation system", ""},
		{"fifo-with-partitions", base(p+"b.ordering-policy", "fifo-with-partitions"), NotSimulated, "yarnplay does not simulate", ""},
		{"a refusal after a feature not simulated is Hadoop's refusal", base(p+"b.reservable", "true", p+"a.a2.capacity", "40"),
			Refused, "Illegal capacity of 0.9 for children of queue a", ""},
		{"a bad mapping after a feature not simulated", base(p+"a.a1.ordering-policy", "fifo-for-pending-apps", KeyQueueMappings, "u:x:nope"),
			Refused, "mapping contains invalid or non-leaf queue nope", ""},
		{"a user's max-parallel-apps not a number", base(Prefix+"user.bob.max-parallel-apps", "many"), NotSimulated, "NumberFormatException", ""},
		{"NaN capacity", base(p+"a.a1.maximum-capacity", "NaN"), NotSimulated, "NaN and Infinity", ""},
		{"the chapter's unrooted key", base(Prefix+"a.queues", "a1,a2"), Accepted, "",
			"yarn.scheduler.capacity.a.queues: no configured queue is a, so Hadoop ignores this property; did you mean yarn.scheduler.capacity.root.a.queues?"},
		{"a queue no parent lists", base(p+"c.capacity", "10"), Accepted, "", "no configured queue is root.c"},
		{"a queue property typo", base(p+"a.a1.maximum-capacty", "80"), Accepted, "",
			"did you mean yarn.scheduler.capacity.root.a.a1.maximum-capacity?"},
		{"a global property typo", base(Prefix+"maximum-am-resource-precent", "0.2"), Accepted, "",
			"did you mean yarn.scheduler.capacity.maximum-am-resource-percent?"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := Check(tc.conf, Hadoop3)
			require.Equal(t, tc.verdict, res.Verdict, "%v", res.Err)
			if tc.verdict == Accepted {
				require.Nil(t, res.Err)
				require.NotNil(t, res.Parsed)
			} else {
				require.NotNil(t, res.Err)
				require.Contains(t, res.Err.Message, tc.message)
				require.Equal(t, tc.verdict == NotSimulated, res.Err.Feature != "")
			}
			if tc.warning != "" {
				require.Condition(t, func() bool {
					for _, w := range res.Warnings {
						if contains([]string{w}, w) && len(w) > 0 && (stringsContains(w, tc.warning)) {
							return true
						}
					}
					return false
				}, "no warning %q in %q", tc.warning, res.Warnings)
			} else if tc.verdict == Accepted {
				require.Empty(t, res.Warnings)
			}
			require.Equal(t, []int{0, 1, 3}[tc.verdict], tc.verdict.ExitCode())
		})
	}
}

func stringsContains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}
