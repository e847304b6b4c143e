package config

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core/resource"
)

// kv builds a configuration from name, value pairs.
func kv(pairs ...string) *Conf {
	c := New()
	for i := 0; i+1 < len(pairs); i += 2 {
		c.Set(pairs[i], pairs[i+1])
	}
	return c
}

// minimal is the smallest valid configuration plus extra pairs.
func minimal(extra ...string) *Conf {
	return kv(append([]string{
		"yarn.scheduler.capacity.root.queues", "default",
		"yarn.scheduler.capacity.root.default.capacity", "100",
	}, extra...)...)
}

func mustParse(t *testing.T, c *Conf) *Parsed {
	t.Helper()
	p, err := Parse(c, Hadoop3)
	require.NoError(t, err)
	return p
}

func TestSettingsDefaults(t *testing.T) {
	s := mustParse(t, minimal()).Settings
	require.Equal(t, Settings{
		MinAlloc:                    resource.New(1024, 1),
		MaxAlloc:                    resource.New(8192, 4),
		Calculator:                  resource.Default,
		MaxApplications:             10000,
		MaxAMPercent:                0.1,
		GlobalQueueMaxApps:          -1,
		NodeLocalityDelay:           40,
		RackLocalityAdditionalDelay: -1,
		RackLocalityFullReset:       true,
		AssignMultiple:              true,
		MaxAssignPerHeartbeat:       100,
		OffSwitchPerHeartbeat:       1,
		ContinueLook:                true,
		ACLEnabled:                  false,
		AdminACL:                    ParseACL("*"),
		MaxAppPriority:              0,
		HeartbeatIntervalMS:         1000,
		QueueManagementIntervalMS:   1500,
		AutoQueueExpirationSec:      300,
		UserMaxParallelAppsDefault:  math.MaxInt32,
		Preemption: PreemptionSettings{
			MonitoringIntervalMS:     3000,
			MaxWaitBeforeKillMS:      15000,
			TotalPreemptionPerRound:  0.1,
			MaxIgnoredOverCapacity:   0.1,
			NaturalTerminationFactor: 0.2,
		},
	}, s)
}

func TestSettingsConfigured(t *testing.T) {
	s := mustParse(t, minimal(
		"yarn.scheduler.minimum-allocation-mb", " 512 ",
		"yarn.scheduler.minimum-allocation-vcores", "2",
		"yarn.scheduler.maximum-allocation-mb", "0x4000",
		"yarn.scheduler.maximum-allocation-vcores", "+8",
		"yarn.scheduler.capacity.resource-calculator", " org.apache.hadoop.yarn.util.resource.DominantResourceCalculator\n",
		"yarn.scheduler.capacity.maximum-applications", "50",
		"yarn.scheduler.capacity.maximum-am-resource-percent", "0.25f",
		"yarn.scheduler.capacity.global-queue-max-application", "7",
		"yarn.scheduler.capacity.node-locality-delay", "-1",
		"yarn.scheduler.capacity.rack-locality-additional-delay", "3",
		"yarn.scheduler.capacity.rack-locality-full-reset", "FALSE",
		"yarn.scheduler.capacity.per-node-heartbeat.multiple-assignments-enabled", " false ",
		"yarn.scheduler.capacity.per-node-heartbeat.maximum-container-assignments", "-1",
		"yarn.scheduler.capacity.per-node-heartbeat.maximum-offswitch-assignments", "5",
		"yarn.scheduler.capacity.reservations-continue-look-all-nodes", "False",
		"yarn.acl.enable", "true",
		"yarn.admin.acl", "admin admins",
		"yarn.cluster.max-application-priority", "10",
		"yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", "500",
		"yarn.resourcemanager.scheduler.monitor.enable", "TRUE",
		"yarn.resourcemanager.monitor.capacity.preemption.observe_only", "true",
		"yarn.resourcemanager.monitor.capacity.preemption.monitoring_interval", "1000",
		"yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill", "10000",
		"yarn.resourcemanager.monitor.capacity.preemption.total_preemption_per_round", "1.0",
		"yarn.resourcemanager.monitor.capacity.preemption.max_ignored_over_capacity", "0",
		"yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor", "1",
	)).Settings
	require.Equal(t, resource.New(512, 2), s.MinAlloc)
	require.Equal(t, resource.New(16384, 8), s.MaxAlloc)
	require.Equal(t, resource.Dominant, s.Calculator)
	require.Equal(t, 50, s.MaxApplications)
	require.Equal(t, float32(0.25), s.MaxAMPercent)
	require.Equal(t, 7, s.GlobalQueueMaxApps)
	require.Equal(t, -1, s.NodeLocalityDelay)
	require.Equal(t, 3, s.RackLocalityAdditionalDelay)
	require.False(t, s.RackLocalityFullReset)
	require.False(t, s.AssignMultiple)
	require.Equal(t, -1, s.MaxAssignPerHeartbeat)
	require.Equal(t, 5, s.OffSwitchPerHeartbeat)
	require.False(t, s.ContinueLook)
	require.True(t, s.ACLEnabled)
	require.Equal(t, []string{"admin"}, s.AdminACL.Users)
	require.Equal(t, []string{"admins"}, s.AdminACL.Groups)
	require.Equal(t, 10, s.MaxAppPriority)
	require.Equal(t, int64(500), s.HeartbeatIntervalMS)
	require.Equal(t, PreemptionSettings{true, true, 1000, 10000, 1, 0, 1}, s.Preemption)
	require.Empty(t, s.Warnings)
}

func TestSettingsWarnings(t *testing.T) {
	s := mustParse(t, minimal(
		"yarn.scheduler.capacity.per-node-heartbeat.multiple-assignments-enabled", "yes",
		"yarn.scheduler.capacity.per-node-heartbeat.maximum-offswitch-assignments", "0",
		"yarn.acl.enable", "",
		"yarn.scheduler.capacity.maximum-am-resource-percent", "10",
	)).Settings
	require.True(t, s.AssignMultiple, "an invalid boolean is the default")
	require.Equal(t, 1, s.OffSwitchPerHeartbeat)
	require.False(t, s.ACLEnabled, "an empty boolean is the default, silently")
	require.Equal(t, []string{
		`yarn.scheduler.capacity.per-node-heartbeat.maximum-offswitch-assignments(0) < 1. Using 1.`,
		`yarn.scheduler.capacity.maximum-am-resource-percent is a fraction (0.1 = 10%): 10.0 lets AMs use more than the whole queue`,
		`yarn.scheduler.capacity.per-node-heartbeat.multiple-assignments-enabled: "yes" is not a boolean (true or false); Hadoop uses the default, true`,
	}, s.Warnings)
}

func TestSettingsErrors(t *testing.T) {
	for _, tc := range []struct {
		pairs    []string
		property string
		msg      string
	}{
		{[]string{"yarn.scheduler.minimum-allocation-mb", "2048", "yarn.scheduler.maximum-allocation-mb", "1024"},
			"yarn.scheduler.minimum-allocation-mb",
			"Invalid resource scheduler memory allocation configuration, yarn.scheduler.minimum-allocation-mb=2048, " +
				"yarn.scheduler.maximum-allocation-mb=1024, min and max should be greater than 0, max should be no smaller than min."},
		{[]string{"yarn.scheduler.minimum-allocation-mb", "0"}, "yarn.scheduler.minimum-allocation-mb",
			"Invalid resource scheduler memory allocation configuration, yarn.scheduler.minimum-allocation-mb=0, " +
				"yarn.scheduler.maximum-allocation-mb=8192, min and max should be greater than 0, max should be no smaller than min."},
		{[]string{"yarn.scheduler.minimum-allocation-vcores", "2", "yarn.scheduler.maximum-allocation-vcores", "1"},
			"yarn.scheduler.minimum-allocation-vcores",
			"Invalid resource scheduler vcores allocation configuration, yarn.scheduler.minimum-allocation-vcores=2, " +
				"yarn.scheduler.maximum-allocation-vcores=1, min and max should be greater than 0, max should be no smaller than min."},
		{[]string{"yarn.scheduler.minimum-allocation-vcores", "-1"}, "yarn.scheduler.minimum-allocation-vcores",
			"Invalid resource scheduler vcores allocation configuration, yarn.scheduler.minimum-allocation-vcores=-1, " +
				"yarn.scheduler.maximum-allocation-vcores=4, min and max should be greater than 0, max should be no smaller than min."},
		{[]string{"yarn.scheduler.maximum-allocation-mb", "8g"}, "yarn.scheduler.maximum-allocation-mb",
			`Invalid integer value "8g" for yarn.scheduler.maximum-allocation-mb: java.lang.NumberFormatException: For input string: "8g"`},
		{[]string{"yarn.scheduler.capacity.resource-calculator", "DominantResourceCalculator"},
			"yarn.scheduler.capacity.resource-calculator",
			"java.lang.ClassNotFoundException: Class DominantResourceCalculator not found (yarn.scheduler.capacity.resource-calculator must be " +
				"org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator or org.apache.hadoop.yarn.util.resource.DominantResourceCalculator)"},
		{[]string{"yarn.scheduler.capacity.maximum-applications", "1e4"}, "yarn.scheduler.capacity.maximum-applications",
			`Invalid integer value "1e4" for yarn.scheduler.capacity.maximum-applications: java.lang.NumberFormatException: For input string: "1e4"`},
		{[]string{"yarn.scheduler.capacity.maximum-am-resource-percent", "10%"}, "yarn.scheduler.capacity.maximum-am-resource-percent",
			`Invalid float value "10%" for yarn.scheduler.capacity.maximum-am-resource-percent: java.lang.NumberFormatException: For input string: "10%"`},
		{[]string{"yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", "0"}, "yarn.resourcemanager.nodemanagers.heartbeat-interval-ms",
			"Invalid Configuration. yarn.resourcemanager.nodemanagers.heartbeat-interval-ms should be larger than 0."},
		{[]string{"yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor", "NaN"},
			"yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor",
			`Invalid double value "NaN" for yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor: NaN and Infinity are not accepted`},
	} {
		_, err := Parse(minimal(tc.pairs...), Hadoop3)
		var e *Error
		require.ErrorAs(t, err, &e, tc.msg)
		require.Equal(t, tc.msg, e.Error())
		require.Equal(t, tc.property, e.Property)
		require.Empty(t, e.Queue)
	}
}

func TestParseProfile(t *testing.T) {
	for in, want := range map[string]Profile{
		"": Hadoop3, "hadoop-3": Hadoop3, "hadoop-3.3": Hadoop3, " Hadoop-3.3 ": Hadoop3,
		"hadoop-3.4": Hadoop34, "hadoop-2": Hadoop2, " Hadoop-2 ": Hadoop2,
	} {
		p, err := ParseProfile(in)
		require.NoError(t, err)
		require.Equal(t, want, p)
	}
	for _, bad := range []string{"hadoop-3.2", "hadoop-4", "3.4"} {
		_, err := ParseProfile(bad)
		require.ErrorContains(t, err, "use hadoop-2, hadoop-3.3 (or hadoop-3) or hadoop-3.4")
	}
	_, err := Parse(minimal(), Profile("hadoop-1"))
	require.Error(t, err)
	_, err = Parse(minimal(), Profile(Hadoop33Alias))
	require.NoError(t, err, "Parse reads the alias too")
}

func TestProfilePredicates(t *testing.T) {
	for _, tc := range []struct {
		p                Profile
		hadoop3, atLeast bool
		canonical        Profile
	}{
		{"", true, false, Hadoop3},
		{Hadoop3, true, false, Hadoop3},
		{Hadoop33Alias, true, false, Hadoop3},
		{Hadoop34, true, true, Hadoop34},
		{Hadoop2, false, false, Hadoop2},
		{"hadoop-9", false, false, "hadoop-9"},
	} {
		require.Equal(t, tc.hadoop3, tc.p.Hadoop3Rules(), tc.p)
		require.Equal(t, tc.atLeast, tc.p.AtLeast34(), tc.p)
		require.Equal(t, tc.canonical, tc.p.Canonical(), tc.p)
	}
}
