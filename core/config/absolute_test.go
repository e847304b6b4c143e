package config

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core/resource"
)

// TestParseAbsoluteResource holds the forms CapacitySchedulerConfiguration.
// internalGetLabeledResourceRequirementForQueue reads.
func TestParseAbsoluteResource(t *testing.T) {
	tests := []struct {
		raw  string
		want resource.Resource
		err  string
	}{
		{"[memory=10240,vcores=10]", resource.New(10240, 10), ""},
		{"[memory=10Gi,vcores=10]", resource.New(10240, 10), ""},
		{"[memory=1Ti,vcores=1]", resource.New(1<<20, 1), ""},
		{"[memory=2048Mi,vcores=1]", resource.New(2048, 1), ""},
		{"[memory=10G,vcores=1]", resource.New(9536, 1), ""}, // 10e9 bytes in MiB, truncated
		{"[vcores=10,memory=1024]", resource.New(1024, 10), ""},
		{"[ memory=1024,vcores=2 ]", resource.New(1024, 2), ""}, // the group is trimmed
		// Names are not trimmed: " vcores" is not a resource type.
		{"[memory=1024, vcores=2]", resource.New(1024, 0), ""},
		{"[memory=1024,gpu=2]", resource.New(1024, 0), ""},  // other types are skipped
		{"[memory=1024,vcores]", resource.New(1024, 0), ""}, // no "=": skipped
		{"[vcores=4]", resource.None, ""},                   // memory must be configured
		{"[memory=0,vcores=4]", resource.None, ""},
		{"[memory=1x,vcores=4]", resource.None, "Unknown unit 'x'. Known units are [, Gi, G, k, m, M, n, p, P, T, u, Ti, Pi, Mi, Ki]"},
		{"[memory=1.5Gi,vcores=4]", resource.None, `java.lang.NumberFormatException: For input string: "1.5"`},
		{"[memory=,vcores=4]", resource.None, ""}, // "memory=" splits to ["memory"]: skipped
	}
	for _, tc := range tests {
		t.Run(tc.raw, func(t *testing.T) {
			require.True(t, IsAbsoluteResource(tc.raw))
			got, err := parseAbsoluteResource(tc.raw)
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
	for _, raw := range []string{"50", " [memory=1024]", "[memory=1024] ", "[]", "[memory=1024;vcores=1]", "memory=1024"} {
		require.False(t, IsAbsoluteResource(raw), raw)
	}
}

// TestAbsoluteRefusals holds Hadoop 3.3's refusals of absolute
// capacities, with the messages of TestAbsoluteResourceConfiguration
// (testSimpleValidateAbsoluteResourceConfig,
// testComplexValidateAbsoluteResourceConfig; Hadoop prefixes them with
// "Failed to re-init queues : " on a refresh) and of
// internalGetLabeledQueueCapacity.
func TestAbsoluteRefusals(t *testing.T) {
	p := Prefix + "root."
	const gb = 1024
	abs := func(mem, vc int) string { return "[memory=" + itoa(mem) + ",vcores=" + itoa(vc) + "]" }
	// setupComplexQueueConfiguration(false) + setupComplexMinMaxResourceConfig.
	complexConf := func(kv ...string) *Conf {
		c := FromMap(map[string]string{
			p + "queues": "queueA,queueB,queueC", p + "queueA.queues": "queueA1,queueA2", p + "queueB.queues": "queueB1",
			p + "queueA.capacity": abs(100*gb, 10), p + "queueB.capacity": abs(50*gb, 10), p + "queueC.capacity": abs(50*gb, 10),
			p + "queueA.queueA1.capacity": abs(50*gb, 5), p + "queueA.queueA2.capacity": abs(50*gb, 5),
			p + "queueB.queueB1.capacity": abs(40*gb, 10),
			p + "queueA.maximum-capacity": abs(200*gb, 30), p + "queueB.maximum-capacity": abs(150*gb, 30),
			p + "queueC.maximum-capacity": abs(150*gb, 20),
		})
		for i := 0; i+1 < len(kv); i += 2 {
			c.Set(kv[i], kv[i+1])
		}
		return c
	}
	tests := []struct {
		name    string
		conf    *Conf
		profile Profile
		prop    string
		message string // "" when accepted
	}{
		{"the complex configuration", complexConf(), Hadoop3, "", ""},
		{"min above max", complexConf(p+"queueB.queueB1.capacity", abs(150*gb, 30), p+"queueB.queueB1.maximum-capacity", abs(40*gb, 10)),
			Hadoop3, p + "queueB.queueB1.capacity",
			"Min resource configuration <memory:153600, vCores:30> is greater than its max value:<memory:40960, vCores:10> in queue:root.queueB.queueB1"},
		{"max above the parent's max", complexConf(p+"queueB.queueB1.maximum-capacity", abs(200*gb, 30)), Hadoop3, p + "queueB.queueB1.maximum-capacity",
			"Max resource configuration <memory:204800, vCores:30> is greater than parents max value:<memory:153600, vCores:30> in queue:root.queueB.queueB1"},
		{"percentage parents of absolute children", complexConf(p+"queueA.capacity", "50", p+"queueB.capacity", "25", p+"queueC.capacity", "25"),
			Hadoop3, p + "queueA.queues",
			"Parent queue 'root.queueA' and child queue 'root.queueA.queueA1' should use either percentage based capacity configuration or absolute resource together."},
		{"a parent's minimum below its children's", complexConf(p+"queueA.capacity", abs(50*gb, 5)), Hadoop3, p + "queueA.capacity",
			"Parent Queues capacity: <memory:51200, vCores:5> is less than to its children:<memory:102400, vCores:10> for queue:queueA"},
		{"an absolute parent with a percentage child", complexConf(p+"queueA.queueA2.capacity", "50"), Hadoop3, p + "queueA.queues",
			"Illegal capacity of 0.5 for children of queue queueA"},
		{"a 0% parent with an absolute child", complexConf(p+"queueA.capacity", "0", p+"queueB.capacity", "50", p+"queueC.capacity", "50"),
			Hadoop3, p + "queueA.queues",
			"Parent queue 'root.queueA' and child queue 'root.queueA.queueA1' should use either percentage based capacityconfiguration or absolute resource together for label:"},
		{"root's children mix types", complexConf(p+"queueC.capacity", "50", p+"queueC.maximum-capacity", "100"), Hadoop3, "", ""},
		{"hadoop-2 has no absolute capacities", complexConf(), Hadoop2, p + "queueA.capacity",
			`Invalid float value "[memory=102400,vcores=10]" for yarn.scheduler.capacity.root.queueA.capacity (queue root.queueA): ` +
				`java.lang.NumberFormatException: For input string: "[memory=102400,vcores=10]" (Hadoop 2 has no absolute resource ` +
				`capacities; they came with Hadoop 3.1: use the hadoop-3 profile, or give queue root.queueA a percentage)`},
		{"a bad unit", complexConf(p+"queueC.capacity", "[memory=50x,vcores=10]"), Hadoop3, p + "queueC.capacity",
			"Unknown unit 'x'. Known units are [, Gi, G, k, m, M, n, p, P, T, u, Ti, Pi, Mi, Ki] " +
				"(yarn.scheduler.capacity.root.queueC.capacity = \"[memory=50x,vcores=10]\", queue root.queueC)"},
		// internalGetLabeledQueueCapacity (the old Ambari default).
		{"a label capacity of -1", complexConf(p+"queueC.accessible-node-labels.default.capacity", "-1"), Hadoop3,
			p + "queueC.accessible-node-labels.default.capacity",
			"Illegal capacity of -1.0 for node-label=default in queue=root.queueC, valid capacity should in range of [0, 100]."},
		{"a label maximum capacity of -1", complexConf(p+"queueC.accessible-node-labels.x.maximum-capacity", "-1"), Hadoop3,
			p + "queueC.accessible-node-labels.x.maximum-capacity",
			"Illegal capacity of -1.0 for node-label=x in queue=root.queueC, valid capacity should in range of [0, 100]."},
		{"a label capacity above 100", complexConf(p+"accessible-node-labels.gpu.capacity", "101"), Hadoop3,
			p + "accessible-node-labels.gpu.capacity",
			"Illegal capacity of 101.0 for node-label=gpu in queue=root, valid capacity should in range of [0, 100]."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.conf, tc.profile)
			if tc.message == "" {
				require.NoError(t, err)
				return
			}
			var e *Error
			require.ErrorAs(t, err, &e)
			require.Equal(t, tc.message, e.Message)
			require.Equal(t, tc.prop, e.Property)
			require.False(t, e.NotSimulated)
		})
	}
}

// TestBracketedLabelCapacity: Hadoop does not range-check a bracketed
// label capacity (it starts); yarnplay does not simulate absolute
// resources per label.
func TestBracketedLabelCapacity(t *testing.T) {
	res := Check(kv(p+"queues", "a", p+"a.capacity", "100", p+"a.accessible-node-labels.x.capacity", "[memory=1024]"), Hadoop3)
	require.Equal(t, NotSimulated, res.Verdict)
	require.Equal(t, p+"a.accessible-node-labels.x.capacity", res.Err.Property)
}

// TestAbsoluteQueues holds what the parse keeps of absolute queues
// (testSimpleMinMaxResourceConfigurartionPerQueue and the configured
// values of testSimpleValidateAbsoluteResourceConfig).
func TestAbsoluteQueues(t *testing.T) {
	p := Prefix + "root."
	c := FromMap(map[string]string{
		p + "queues": "a,b", p + "a.queues": "a1",
		p + "a.capacity": "[memory=102400,vcores=10]", p + "a.maximum-capacity": "[memory=204800,vcores=30]",
		p + "a.a1.capacity": "[memory=51200,vcores=5]",
		p + "b.capacity":    "[memory=50Gi,vcores=10]",
	})
	parsed, err := Parse(c, Hadoop3)
	require.NoError(t, err)
	a, a1, b := parsed.Queue("root.a"), parsed.Queue("root.a.a1"), parsed.Queue("root.b")
	require.True(t, a.Absolute)
	require.Equal(t, resource.New(102400, 10), a.MinResource)
	require.Equal(t, resource.New(204800, 30), a.MaxResource)
	require.Equal(t, float32(0), a.Capacity) // getNonLabeledQueueCapacity: 0 until the cluster is known
	require.Equal(t, float32(1), a.MaxCapacity)
	require.Equal(t, resource.New(204800, 30), a1.MaxResource, "a child without a maximum takes its parent's")
	require.Equal(t, resource.New(51200, 10), b.MinResource)
	require.Equal(t, resource.None, b.MaxResource, "root has no configured maximum to inherit")
	require.Equal(t, 0, a1.MaxApplications, "(int) (10000 * 0f) until the cluster is known")
	require.Equal(t, -1, a1.QueueMaxApplications)
}

func itoa(n int) string { return strconv.Itoa(n) }

// The XML export writes absolute capacities as written, and Hadoop's
// reading of the export is the same queues.
func TestAbsoluteXMLRoundTrip(t *testing.T) {
	p := Prefix + "root."
	c := FromMap(map[string]string{
		p + "queues": "a,b", p + "a.capacity": "[memory=10Gi,vcores=10]", p + "a.maximum-capacity": "[memory=20480,vcores=20]",
		p + "b.capacity": "[memory=2048,vcores=2]",
	})
	x, err := ParseXML(c.XML())
	require.NoError(t, err)
	require.Contains(t, string(c.XML()), "<value>[memory=10Gi,vcores=10]</value>")
	want, err := Parse(c, Hadoop3)
	require.NoError(t, err)
	got, err := Parse(x, Hadoop3)
	require.NoError(t, err)
	for _, q := range want.Queues() {
		g := got.Queue(q.Path)
		require.Equal(t, q.MinResource, g.MinResource, q.Path)
		require.Equal(t, q.MaxResource, g.MaxResource, q.Path)
		require.Equal(t, q.Absolute, g.Absolute, q.Path)
	}
	require.Equal(t, resource.New(10240, 10), got.Queue("root.a").MinResource)
}
