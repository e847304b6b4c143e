package config

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// two is root with children a and b and extra pairs.
func two(extra ...string) *Conf {
	return kv(append([]string{p + "queues", "a,b", p + "a.capacity", "50", p + "b.capacity", "50"}, extra...)...)
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name            string
		conf            *Conf
		profile         Profile
		property, queue string
		msg             string
	}{
		{"no queues", New(), Hadoop3, p + "queues", "root",
			"Queue configuration missing child queue names for root"},
		{"empty queues", kv(p+"queues", ""), Hadoop3, p + "queues", "root",
			"Queue configuration missing child queue names for root"},
		{"children sum 1.1", two(p+"a.capacity", "60"), Hadoop3, p + "queues", "root",
			"Illegal capacity of 1.1 for children of queue root"},
		{"children sum 0.95 of a non-root parent, short name", two(p+"a.queues", "x,y", p+"a.x.capacity", "50", p+"a.y.capacity", "45"),
			Hadoop3, p + "a.queues", "root.a", "Illegal capacity of 0.95 for children of queue a"},
		{"children of a zero parent must be zero", two(p+"a.capacity", "0", p+"b.capacity", "100",
			p+"a.queues", "x", p+"a.x.capacity", "10"), Hadoop3, p + "a.queues", "root.a",
			"Illegal capacity of 0.1 for children of queue a"},
		{"children of a non-zero parent summing to zero", two(p+"a.queues", "x,y"), Hadoop3, p + "a.queues", "root.a",
			"Illegal capacity of 0.0 for children of queue a"},
		{"capacity above 100", two(p+"a.capacity", "120"), Hadoop3, p + "a.capacity", "root.a",
			"Illegal capacity of 120.0 for queue root.a"},
		{"negative capacity", two(p+"a.capacity", "-1"), Hadoop3, p + "a.capacity", "root.a",
			"Illegal capacity of -1.0 for queue root.a"},
		{"capacity not a number", two(p+"a.capacity", "50%"), Hadoop3, p + "a.capacity", "root.a",
			`Invalid float value "50%" for yarn.scheduler.capacity.root.a.capacity (queue root.a): ` +
				`java.lang.NumberFormatException: For input string: "50%"`},
		{"capacity NaN", two(p+"a.capacity", "NaN"), Hadoop3, p + "a.capacity", "root.a",
			`Invalid float value "NaN" for yarn.scheduler.capacity.root.a.capacity (queue root.a): NaN and Infinity are not accepted`},
		{"absolute maximum capacity not trimmed", two(p+"b.maximum-capacity", " [memory=1024,vcores=1]"), Hadoop3, p + "b.maximum-capacity", "root.b",
			`Invalid float value " [memory=1024,vcores=1]" for yarn.scheduler.capacity.root.b.maximum-capacity (queue root.b): ` +
				`java.lang.NumberFormatException: For input string: "[memory=1024,vcores=1]"`},
		{"absolute capacity under hadoop-2", two(p+"a.capacity", "[memory=1024,vcores=1]"), Hadoop2, p + "a.capacity", "root.a",
			`Invalid float value "[memory=1024,vcores=1]" for yarn.scheduler.capacity.root.a.capacity (queue root.a): ` +
				`java.lang.NumberFormatException: For input string: "[memory=1024,vcores=1]" (Hadoop 2 has no absolute resource ` +
				`capacities; they came with Hadoop 3.1: use the hadoop-3 profile, or give queue root.a a percentage)`},
		{"abs capacity above abs max", two(p+"a.maximum-capacity", "60", p+"b.maximum-capacity", "45"), Hadoop3,
			p + "b.maximum-capacity", "root.b",
			"Illegal queue capacity setting (abs-capacity=0.5) > (abs-maximum-capacity=0.45) for queue=[root.b],label=[]"},
		{"maximum capacity 0", two(p+"a.maximum-capacity", "0"), Hadoop3, p + "a.maximum-capacity", "root.a",
			"Illegal queue capacity setting (abs-capacity=0.5) > (abs-maximum-capacity=0.0) for queue=[root.a],label=[]"},
		{"root maximum capacity applies", two(p+"maximum-capacity", "50"), Hadoop3, p + "maximum-capacity", "root",
			"Illegal queue capacity setting (abs-capacity=1.0) > (abs-maximum-capacity=0.5) for queue=[root],label=[]"},
		{"abs max is a product", two(p+"a.maximum-capacity", "50", p+"a.queues", "x", p+"a.x.capacity", "100",
			p+"a.x.maximum-capacity", "90"), Hadoop3, p + "a.x.maximum-capacity", "root.a.x",
			"Illegal queue capacity setting (abs-capacity=0.5) > (abs-maximum-capacity=0.45) for queue=[root.a.x],label=[]"},
		{"maximum capacity not a number", two(p+"a.maximum-capacity", "full"), Hadoop3, p + "a.maximum-capacity", "root.a",
			`Invalid float value "full" for yarn.scheduler.capacity.root.a.maximum-capacity (queue root.a): ` +
				`java.lang.NumberFormatException: For input string: "full"`},
		{"state DRAINING", two(p+"a.state", "DRAINING"), Hadoop3, p + "a.state", "root.a",
			"Invalid queue state configuration. We can only use RUNNING or STOPPED."},
		{"unknown state", two(p+"a.state", "paused"), Hadoop3, p + "a.state", "root.a",
			`No enum constant org.apache.hadoop.yarn.api.records.QueueState.PAUSED (yarn.scheduler.capacity.root.a.state = "paused"; ` +
				`a queue's state is RUNNING or STOPPED)`},
		{"state is not trimmed", two(p+"a.state", "RUNNING "), Hadoop3, p + "a.state", "root.a",
			`No enum constant org.apache.hadoop.yarn.api.records.QueueState.RUNNING  (yarn.scheduler.capacity.root.a.state = "RUNNING "; ` +
				`a queue's state is RUNNING or STOPPED)`},
		{"RUNNING child of a STOPPED parent", kv(p+"queues", "q1", p+"q1.queues", "q2", p+"q1.capacity", "100",
			p+"q1.q2.capacity", "100", p+"q1.state", "STOPPED", p+"q1.q2.state", "RUNNING"), Hadoop3, p + "q1.q2.state", "root.q1.q2",
			"The parent queue:root.q1 cannot be STOPPED as the child queue:root.q1.q2 is in RUNNING state."},
		{"RUNNING grandchild of a STOPPED root", kv(p+"queues", "q1", p+"q1.queues", "q2", p+"q1.capacity", "100",
			p+"q1.q2.capacity", "100", p+"state", "STOPPED", p+"q1.q2.state", "RUNNING"), Hadoop3, p + "q1.q2.state", "root.q1.q2",
			"The parent queue:root.q1 cannot be STOPPED as the child queue:root.q1.q2 is in RUNNING state."},
		{"queue max allocation above the cluster's (legacy)", two(p+"a.maximum-allocation-mb", "16384"), Hadoop3,
			p + "a.maximum-allocation-mb", "root.a",
			"Queue maximum allocation cannot be larger than the cluster setting for queue root.a max allocation per queue: " +
				"<memory:16384, vCores:4> cluster setting: <memory:8192, vCores:4>"},
		{"queue max vcores above the cluster's (legacy)", two(p+"a.maximum-allocation-vcores", "8", p+"a.maximum-allocation-mb", "1024"),
			Hadoop3, p + "a.maximum-allocation-vcores", "root.a",
			"Queue maximum allocation cannot be larger than the cluster setting for queue root.a max allocation per queue: " +
				"<memory:1024, vCores:8> cluster setting: <memory:8192, vCores:4>"},
		{"queue max allocation above the cluster's", two(p+"b.maximum-allocation", "memory-mb=2048,vcores=5"), Hadoop3,
			p + "b.maximum-allocation", "root.b",
			"Queue maximum allocation cannot be larger than the cluster setting for queue root.b max allocation per queue: " +
				"<memory:2048, vCores:5> cluster setting: <memory:8192, vCores:4>"},
		{"bad maximum-allocation", two(p+"b.maximum-allocation", "2048"), Hadoop3, p + "b.maximum-allocation", "root.b",
			`Invalid yarn.scheduler.capacity.root.b.maximum-allocation = "2048" for queue root.b: "2048" is not a valid ` +
				`resource type/amount pair. Please provide key=amount pairs separated by commas.`},
		{"user weight above 100/UL", two(p+"a.minimum-user-limit-percent", "50", p+"a.user-settings.bob.weight", "2.5"), Hadoop3,
			p + "a.user-settings.bob.weight", "root.a",
			`Weight (2.5) for user "bob" must be between 0 and 100 / 50 (= 2.0, the number of concurrent active users in root.a)`},
		{"negative user weight inherited", two(p+"user-settings.bob.weight", "-1"), Hadoop3,
			p + "user-settings.bob.weight", "root.a",
			`Weight (-1.0) for user "bob" must be between 0 and 100 / 100 (= 1.0, the number of concurrent active users in root.a)`},
		{"user weight not a number", two(p+"a.user-settings.bob.weight", "heavy"), Hadoop3,
			p + "a.user-settings.bob.weight", "root.a",
			`Invalid float value "heavy" for yarn.scheduler.capacity.root.a.user-settings.bob.weight (queue root.a): ` +
				`java.lang.NumberFormatException: For input string: "heavy"`},
		{"queue name with a dot", kv(p+"queues", "a.b", p+"a.b.capacity", "100"), Hadoop3, p + "queues", "root",
			`Queue name "a.b" (child of root) must not contain ".": dots separate the levels of a queue path`},
		{"empty queue name", kv(p+"queues", "a, ,b"), Hadoop3, p + "queues", "root",
			`Queue root lists an empty child queue name in yarn.scheduler.capacity.root.queues="a, ,b"`},
		{"queue listed twice", kv(p+"queues", "a,b, a", p+"a.capacity", "50", p+"b.capacity", "50"), Hadoop3,
			p + "queues", "root", `Queue root lists child queue a twice in yarn.scheduler.capacity.root.queues="a,b, a"`},
		{"hadoop-2: duplicate leaf names", kv(p+"queues", "a,b", p+"a.capacity", "50", p+"b.capacity", "50",
			p+"a.queues", "x", p+"a.x.capacity", "100", p+"b.queues", "x", p+"b.x.capacity", "100"), Hadoop2,
			p + "b.queues", "root.b.x", "Two leaf queues were named x. Leaf queue names must be distinct"},
		{"reservable parent", two(p+"a.reservable", "true", p+"a.queues", "x", p+"a.x.capacity", "100"), Hadoop3,
			p + "a.reservable", "root.a", "Only Leaf Queues can be reservable for root.a"},
		{"reservable leaf", two(p+"a.reservable", "true"), Hadoop3, p + "a.reservable", "root.a",
			"Queue root.a is reservable (yarn.scheduler.capacity.root.a.reservable=true): the reservation system (PlanQueue) is not simulated by yarnplay"},
		{"auto-created queues under hadoop-2", two(p+"a.auto-create-child-queue.enabled", "true"), Hadoop2, p + "a.auto-create-child-queue.enabled", "root.a",
			"Queue root.a enables auto-created child queues (yarn.scheduler.capacity.root.a.auto-create-child-queue.enabled=true): " +
				"auto-created leaf queues came with Hadoop 3.1; use the hadoop-3 profile"},
		{"fifo-with-partitions is not simulated", two(p+"a.ordering-policy", "fifo-with-partitions"), Hadoop3, p + "a.ordering-policy", "root.a",
			`yarn.scheduler.capacity.root.a.ordering-policy = "fifo-with-partitions": Hadoop runs leaf queue root.a with this policy, which yarnplay does not simulate (it simulates fifo and fair)`},
		{"unknown leaf ordering", two(p+"a.ordering-policy", "utilization"), Hadoop3, p + "a.ordering-policy", "root.a",
			"Unable to construct ordering policy for: utilization, utilization (yarn.scheduler.capacity.root.a.ordering-policy of leaf queue root.a)"},
		{"fair on a parent", two(p+"ordering-policy", "fair"), Hadoop3, p + "ordering-policy", "root",
			"Unable to construct queue ordering policy=fair queue=root (yarn.scheduler.capacity.root.ordering-policy of parent queue root)"},
		{"unknown parent ordering", two(p+"ordering-policy", "fifo"), Hadoop3, p + "ordering-policy", "root",
			"Unable to construct queue ordering policy=fifo queue=root (yarn.scheduler.capacity.root.ordering-policy of parent queue root)"},
		{"default lifetime above max", two(p+"a.maximum-application-lifetime", "10", p+"a.default-application-lifetime", "20"), Hadoop3,
			p + "a.default-application-lifetime", "root.a", "Default lifetime 20 can't exceed maximum lifetime 10"},
		{"user limit is an int", two(p+"a.minimum-user-limit-percent", "50.5"), Hadoop3, p + "a.minimum-user-limit-percent", "root.a",
			`Invalid integer value "50.5" for yarn.scheduler.capacity.root.a.minimum-user-limit-percent (queue root.a): ` +
				`java.lang.NumberFormatException: For input string: "50.5"`},
		{"max-parallel-apps is not trimmed", two(p+"a.max-parallel-apps", " 5"), Hadoop3, p + "a.max-parallel-apps", "root.a",
			`Invalid integer value " 5" for yarn.scheduler.capacity.root.a.max-parallel-apps (queue root.a): ` +
				`java.lang.NumberFormatException: For input string: "5"`},
		// Order: a parent's own checks come before its children's, a child's before the parent's sum.
		{"pre-order", two(p+"a.capacity", "101", p+"a.queues", "x", p+"a.x.capacity", "120"), Hadoop3, p + "a.capacity", "root.a",
			"Illegal capacity of 101.0 for queue root.a"},
		{"child before sum", two(p+"a.capacity", "60", p+"b.capacity", "30", p+"b.maximum-capacity", "20"), Hadoop3,
			p + "b.maximum-capacity", "root.b",
			"Illegal queue capacity setting (abs-capacity=0.3) > (abs-maximum-capacity=0.2) for queue=[root.b],label=[]"},
		{"capacity range before its sanity check", two(p+"a.capacity", "200", p+"a.maximum-capacity", "10"), Hadoop3,
			p + "a.capacity", "root.a", "Illegal capacity of 200.0 for queue root.a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.conf, tc.profile)
			var e *Error
			require.ErrorAs(t, err, &e)
			require.Equal(t, tc.msg, e.Error())
			require.Equal(t, tc.property, e.Property)
			require.Equal(t, tc.queue, e.Queue)
		})
	}
}

func TestParseAccepts(t *testing.T) {
	for name, c := range map[string]*Conf{
		"sum within 0.0005":          two(p+"a.capacity", "50.04", p+"b.capacity", "50"),
		"zero parent, zero children": two(p+"a.capacity", "0", p+"b.capacity", "100", p+"a.queues", "x,y"),
		"max capacity -1":            two(p+"a.maximum-capacity", "-1"),
		"capacity = max capacity":    two(p+"a.maximum-capacity", "50"),
		"hadoop-3 duplicate leaves": kv(p+"queues", "a,b", p+"a.capacity", "50", p+"b.capacity", "50",
			p+"a.queues", "x", p+"a.x.capacity", "100", p+"b.queues", "x", p+"b.x.capacity", "100"),
		"hadoop-3 and 2: leaf named like a parent": leafLikeParent(),
		"queue named root":                         kv(p+"queues", "root", p+"root.capacity", "100"),
		"trailing comma":                           kv(p+"queues", "a,b,", p+"a.capacity", "50", p+"b.capacity", "50"),
		"reservable false":                         two(p+"a.reservable", "false"),
		"weight at the limit":                      two(p+"a.minimum-user-limit-percent", "50", p+"a.user-settings.bob.weight", "2"),
		"weight with UL 0 (100/0)":                 two(p+"a.minimum-user-limit-percent", "0", p+"a.user-settings.bob.weight", "1e30"),
		"fifo class name":                          two(p+"a.ordering-policy", "org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.FifoOrderingPolicy"),
		"max allocation equal":                     two(p+"a.maximum-allocation", "memory-mb=8192,vcores=4"),
		"root capacity garbage":                    two(p+"capacity", "abc"),
		"state lower case":                         two(p+"a.state", "stopped"),
	} {
		_, err := Parse(c, Hadoop3)
		require.NoError(t, err, name)
	}
	_, err := Parse(leafLikeParent(), Hadoop2)
	require.NoError(t, err, "hadoop-2 only refuses two leaves with one name")
	_, err = Parse(nil, Hadoop3)
	require.EqualError(t, err, "Queue configuration missing child queue names for root")
}

// leafLikeParent has a parent root.a and a leaf root.b.a.
func leafLikeParent() *Conf {
	return two(p+"a.queues", "x", p+"a.x.capacity", "100", p+"b.queues", "a", p+"b.a.capacity", "100")
}
