package config

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core/resource"
)

const p = Prefix + "root."

func TestQueueDefaults(t *testing.T) {
	parsed := mustParse(t, minimal())
	root := parsed.Root
	leaf := parsed.Queue("root.default")
	require.NotNil(t, leaf)
	require.Equal(t, []*QueueConf{leaf}, root.Children)
	require.Equal(t, &QueueConf{
		Name: "root", Path: "root", Children: []*QueueConf{leaf},
		Capacity: 1, MaxCapacity: 1, AbsCapacity: 1, AbsMaxCapacity: 1, CapacityPercent: 100,
		State:     Running,
		SubmitACL: ParseACL("*"), AdminACL: ParseACL("*"),
		Labels:       QueueLabels{Accessible: []string{Any}},
		MaxAMPercent: 0.1, MaxAlloc: resource.New(8192, 4),
		OrderingPolicy: "utilization", UserWeights: map[string]float32{},
		MaxParallelApps: math.MaxInt32, MaxAppLifetime: -1, DefaultAppLifetime: -1,
	}, root)
	require.Equal(t, &QueueConf{
		Name: "default", Path: "root.default", Parent: root,
		Capacity: 1, MaxCapacity: 1, AbsCapacity: 1, AbsMaxCapacity: 1, CapacityPercent: 100,
		State:     Running,
		SubmitACL: ParseACL(" "), AdminACL: ParseACL(" "),
		Labels:          QueueLabels{Accessible: []string{Any}},
		UserLimitFactor: 1, MinUserLimitPercent: 100,
		MaxApplications: 10000, MaxApplicationsPerUser: 10000, QueueMaxApplications: -1,
		MaxAMPercent: 0.1, MaxAlloc: resource.New(8192, 4),
		OrderingPolicy: "fifo", UserWeights: map[string]float32{},
		MaxParallelApps: math.MaxInt32, MaxAppLifetime: -1, DefaultAppLifetime: -1,
	}, leaf)
	require.True(t, leaf.IsLeaf())
	require.False(t, root.IsLeaf())
	require.Empty(t, parsed.Settings.Warnings)
}

// yarnRollers is the book's cluster.
func yarnRollers(extra ...string) *Conf {
	return kv(append([]string{
		p + "queues", "grumpy-engineers,finance-wizards,marketing-moguls",
		p + "grumpy-engineers.capacity", "60",
		p + "finance-wizards.capacity", "10",
		p + "marketing-moguls.capacity", "30",
		p + "grumpy-engineers.queues", "infinite-monkeys,pesky-testers",
		p + "grumpy-engineers.infinite-monkeys.capacity", "20",
		p + "grumpy-engineers.pesky-testers.capacity", "80",
		p + "finance-wizards.queues", "meticulous-accountants,thrifty-treasurers",
		p + "finance-wizards.meticulous-accountants.capacity", "50",
		p + "finance-wizards.thrifty-treasurers.capacity", "50",
		p + "marketing-moguls.queues", "brand-exploders,social-savants",
		p + "marketing-moguls.brand-exploders.capacity", "50",
		p + "marketing-moguls.social-savants.capacity", "50",
	}, extra...)...)
}

func TestYARNRollers(t *testing.T) {
	parsed := mustParse(t, yarnRollers(p+"grumpy-engineers.infinite-monkeys.maximum-capacity", "40"))
	abs := map[string]float32{}
	var order []string
	parsed.Root.Walk(func(q *QueueConf) {
		abs[q.Path] = q.AbsCapacity
		order = append(order, q.Name)
	})
	require.Equal(t, []string{"root", "grumpy-engineers", "infinite-monkeys", "pesky-testers", "finance-wizards",
		"meticulous-accountants", "thrifty-treasurers", "marketing-moguls", "brand-exploders", "social-savants"}, order)
	for path, want := range map[string]float64{
		"root.grumpy-engineers": 0.6, "root.finance-wizards": 0.1, "root.marketing-moguls": 0.3,
		"root.grumpy-engineers.infinite-monkeys": 0.12, "root.grumpy-engineers.pesky-testers": 0.48,
		"root.finance-wizards.thrifty-treasurers": 0.05,
	} {
		require.InDelta(t, want, abs[path], 1e-6, path)
	}
	im := parsed.Queue("root.grumpy-engineers.infinite-monkeys")
	require.Equal(t, float32(0.4), im.MaxCapacity)
	require.InDelta(t, 0.4, im.AbsMaxCapacity, 1e-6, "product down the path, not 40% of 60%")
	require.Equal(t, 1200, im.MaxApplications) // (int)(10000 * 0.12f)
	require.Len(t, parsed.Leaves(), 6)
	require.Equal(t, "pesky-testers", parsed.Leaves()[1].Name)

	parsed = mustParse(t, yarnRollers(
		p+"grumpy-engineers.infinite-monkeys.maximum-capacity", "40",
		p+"grumpy-engineers.maximum-capacity", "60"))
	im = parsed.Queue("root.grumpy-engineers.infinite-monkeys")
	require.InDelta(t, 0.24, im.AbsMaxCapacity, 1e-6)
	require.InDelta(t, 0.6, parsed.Queue("root.grumpy-engineers.pesky-testers").AbsMaxCapacity, 1e-6)
}

func TestLookup(t *testing.T) {
	parsed := mustParse(t, kv(p+"queues", "a,b", p+"a.capacity", "50", p+"b.capacity", "50",
		p+"a.queues", "x,y", p+"a.x.capacity", "50", p+"a.y.capacity", "50",
		p+"b.queues", "x", p+"b.x.capacity", "100"))
	q, err := parsed.Lookup("y")
	require.NoError(t, err)
	require.Equal(t, "root.a.y", q.Path)
	q, err = parsed.Lookup("root.b.x")
	require.NoError(t, err)
	require.Equal(t, "root.b.x", q.Path)
	q, err = parsed.Lookup("root")
	require.NoError(t, err)
	require.Same(t, parsed.Root, q)
	_, err = parsed.Lookup("x")
	require.ErrorIs(t, err, ErrAmbiguousQueue)
	require.EqualError(t, err, "ambiguous queue: x please use full queue path instead")
	_, err = parsed.Lookup("zzz")
	require.ErrorIs(t, err, ErrUnknownQueue)
	require.Nil(t, parsed.Queue("root.zzz"))
	require.Len(t, parsed.Queues(), 6)
	require.Equal(t, []string{"root.a.x", "root.a.y", "root.b.x"}, paths(parsed.Leaves()))
}

func paths(qs []*QueueConf) []string {
	var out []string
	for _, q := range qs {
		out = append(out, q.Path)
	}
	return out
}

func TestMaxApplications(t *testing.T) {
	for _, tc := range []struct {
		name          string
		pairs         []string
		apps, perUser int
	}{
		{"default: (int)(10000 * absCapacity)", []string{p + "a.capacity", "10"}, 1000, 1000},
		{"float arithmetic: 10000 * 0.7f is 7000.0f", []string{p + "a.capacity", "70"}, 7000, 7000},
		{"conformance 19: UL 50, ULF 5", []string{p + "a.capacity", "10", p + "a.minimum-user-limit-percent", "50",
			p + "a.user-limit-factor", "5.0"}, 1000, 1000},
		{"own value", []string{p + "a.capacity", "10", p + "a.maximum-applications", "9999"}, 9999, 9999},
		{"own value 0", []string{p + "a.capacity", "10", p + "a.maximum-applications", "0"}, 0, 0},
		{"negative own value is undefined", []string{p + "a.capacity", "10", p + "a.maximum-applications", "-5"}, 1000, 1000},
		{"UL 50 halves per user", []string{p + "a.capacity", "10", p + "a.maximum-applications", "5",
			p + "a.minimum-user-limit-percent", "50"}, 5, 2},
		{"3 * 0.33f truncates to 0", []string{p + "a.capacity", "10", p + "a.maximum-applications", "3",
			p + "a.minimum-user-limit-percent", "33"}, 3, 0},
		{"global-queue-max-application used as is", []string{p + "a.capacity", "10",
			Prefix + "global-queue-max-application", "20", p + "a.user-limit-factor", "0.1"}, 20, 2},
		{"global-queue-max-application 0 is undefined", []string{p + "a.capacity", "10",
			Prefix + "global-queue-max-application", "0"}, 1000, 1000},
		{"system maximum-applications", []string{p + "a.capacity", "10", Prefix + "maximum-applications", "4"}, 0, 0},
		{"zero capacity", []string{p + "a.capacity", "0"}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := kv(p+"queues", "a,b", p+"b.capacity", "100")
			for i := 0; i < len(tc.pairs); i += 2 {
				c.Set(tc.pairs[i], tc.pairs[i+1])
			}
			a, _ := c.Get(p + "a.capacity")
			if a != "0" {
				c.Set(p+"b.capacity", JavaFloatString(100-float32(mustFloat(t, a))))
			}
			q := mustParse(t, c).Queue("root.a")
			require.Equal(t, tc.apps, q.MaxApplications)
			require.Equal(t, tc.perUser, q.MaxApplicationsPerUser)
		})
	}
}

func mustFloat(t *testing.T, s string) float64 {
	v, err := parseJavaFloat(s, 32)
	require.NoError(t, err)
	return v
}

func TestQueueSettings(t *testing.T) {
	parsed := mustParse(t, kv(
		p+"queues", " a , b ",
		p+"acl_submit_applications", " ",
		p+"acl_administer_queue", "admin",
		p+"disable_preemption", "true",
		p+"maximum-allocation-mb", "4096",
		p+"a.capacity", "40", p+"b.capacity", "60",
		p+"a.queues", "a1",
		p+"a.a1.capacity", "100",
		p+"a.a1.acl_submit_applications", "alice,bob devs",
		p+"a.a1.user-limit-factor", "2",
		p+"a.a1.minimum-user-limit-percent", "25",
		p+"a.a1.maximum-am-resource-percent", "0.5",
		p+"a.a1.ordering-policy", " fifo ",
		p+"a.a1.default-application-priority", "3",
		p+"a.a1.priority", "2",
		p+"a.a1.max-parallel-apps", "7",
		p+"a.ordering-policy", "utilization",
		p+"b.disable_preemption", "false",
		p+"b.state", "stopped",
		p+"b.maximum-allocation-vcores", "2",
		Prefix+"max-parallel-apps", "9",
	))
	a1, b := parsed.Queue("root.a.a1"), parsed.Queue("root.b")
	require.Equal(t, ParseACL(" "), parsed.Root.SubmitACL)
	require.Equal(t, []string{"admin"}, parsed.Root.AdminACL.Users)
	require.Equal(t, []string{"alice", "bob"}, a1.SubmitACL.Users)
	require.Equal(t, ParseACL(" "), a1.AdminACL)
	require.True(t, a1.DisablePreemption, "inherited from root")
	require.False(t, b.DisablePreemption)
	require.Equal(t, float32(2), a1.UserLimitFactor)
	require.Equal(t, float32(25), a1.MinUserLimitPercent)
	require.Equal(t, float32(0.5), a1.MaxAMPercent)
	require.Equal(t, float32(0.1), b.MaxAMPercent)
	require.Equal(t, "fifo", a1.OrderingPolicy)
	require.Equal(t, 3, a1.DefaultAppPriority)
	require.Equal(t, 2, a1.Priority)
	require.Equal(t, 7, a1.MaxParallelApps)
	require.Equal(t, 9, b.MaxParallelApps)
	require.Equal(t, resource.New(4096, 4), a1.MaxAlloc, "inherited from root")
	require.Equal(t, resource.New(4096, 2), b.MaxAlloc)
	require.Equal(t, Stopped, b.ConfiguredState)
	require.Equal(t, Stopped, b.State)
	require.Equal(t, QueueState(""), a1.ConfiguredState)
	require.Equal(t, Running, a1.State)
	require.Equal(t, 4000, a1.MaxApplications)
	require.Equal(t, 2000, a1.MaxApplicationsPerUser) // (int)(4000 * 0.25f * 2.0f)
}

func TestStates(t *testing.T) {
	base := func(extra ...string) *Conf {
		return kv(append([]string{p + "queues", "q1", p + "q1.queues", "q2,q3", p + "q1.capacity", "100",
			p + "q1.q2.capacity", "50", p + "q1.q3.capacity", "50"}, extra...)...)
	}
	parsed := mustParse(t, base(p+"q1.state", "STOPPED"))
	require.Equal(t, Stopped, parsed.Queue("root.q1.q2").State, "children inherit STOPPED")
	require.Equal(t, QueueState(""), parsed.Queue("root.q1.q2").ConfiguredState)

	parsed = mustParse(t, base(p+"state", "STOPPED", p+"q1.q2.state", "STOPPED"))
	require.Equal(t, Stopped, parsed.Queue("root.q1").State)

	parsed = mustParse(t, base(p+"q1.q2.state", "STOPPED", p+"q1.q3.state", "running"))
	require.Equal(t, Stopped, parsed.Queue("root.q1.q2").State)
	require.Equal(t, Running, parsed.Queue("root.q1.q3").State)
}

func TestUserWeights(t *testing.T) {
	parsed := mustParse(t, minimal(
		p+"user-settings.alice.weight", "2",
		p+"user-settings.bob.weight", "3",
		p+"default.user-settings.bob.weight", "0.5",
		p+"default.user-settings.john.doe.weight", "9",
		p+"default.user-settings.carol_2.weight", "1e0",
		p+"default.minimum-user-limit-percent", "25",
	))
	require.Equal(t, map[string]float32{"alice": 2, "bob": 3}, parsed.Root.UserWeights, "a parent's weights are not validated")
	require.Equal(t, map[string]float32{"alice": 2, "bob": 0.5, "carol_2": 1}, parsed.Queue("root.default").UserWeights)
	require.Equal(t, []string{"yarn.scheduler.capacity.root.default.user-settings.john.doe.weight: Hadoop only reads user " +
		"weights of user names made of letters, digits and _; ignored"}, parsed.Settings.Warnings)

	parsed = mustParse(t, minimal(p+"default.minimum-user-limit-percent", "50", p+"default.user-settings.a.weight", "2"))
	require.Equal(t, float32(2), parsed.Queue("root.default").UserWeights["a"])
}

func TestLifetimes(t *testing.T) {
	parsed := mustParse(t, kv(p+"queues", "a,b", p+"a.capacity", "50", p+"b.capacity", "50",
		p+"maximum-application-lifetime", "100", p+"default-application-lifetime", "50",
		p+"a.maximum-application-lifetime", "40", p+"b.default-application-lifetime", "80"))
	require.Equal(t, int64(100), parsed.Root.MaxAppLifetime)
	require.Equal(t, int64(50), parsed.Root.DefaultAppLifetime)
	a, b := parsed.Queue("root.a"), parsed.Queue("root.b")
	require.Equal(t, int64(40), a.MaxAppLifetime)
	require.Equal(t, int64(40), a.DefaultAppLifetime, "the parent's default exceeds this max: use the max")
	require.Equal(t, int64(100), b.MaxAppLifetime)
	require.Equal(t, int64(80), b.DefaultAppLifetime)
}

func TestWarningsPerQueue(t *testing.T) {
	parsed := mustParse(t, minimal(
		p+"capacity", "50",
		p+"default.maximum-capacity", "150",
		p+"default.maximum-allocation", "memory-mb=2048",
		p+"default.disable_preemption", "maybe",
		p+"default.accessible-node-labels", "x",
		p+"default.queue-mappings", "${user}",
	))
	q := parsed.Queue("root.default")
	require.Equal(t, resource.New(2048, 0), q.MaxAlloc, "Hadoop 3.3 sets the types left out to 0")
	require.InDelta(t, 1.5, q.AbsMaxCapacity, 1e-6)
	require.Equal(t, []string{
		`yarn.scheduler.capacity.root.default.queue-mappings: Hadoop expands ${...} variables in values; yarnplay uses "${user}" literally`,
		`yarn.scheduler.capacity.root.capacity: root's capacity is always 100; "50" is ignored`,
		`yarn.scheduler.capacity.root.default.maximum-capacity: 150.0 is outside [0, 100]; Hadoop uses it as is`,
		`yarn.scheduler.capacity.root.default.maximum-allocation = "memory-mb=2048" does not set vcores: Hadoop 3.3 sets it to 0 for queue root.default`,
		`yarn.scheduler.capacity.root.default.disable_preemption: "maybe" is not a boolean (true or false); Hadoop uses the default, false`,
	}, parsed.Settings.Warnings)
}

func TestMaximumAllocationString(t *testing.T) {
	for in, want := range map[string]resource.Resource{
		"memory-mb=2048,vcores=2":    resource.New(2048, 2),
		" vcores=3 , memory-mb=1G ":  resource.New(1024, 3),
		"memory=2g,vcores=1":         resource.New(2048, 1),
		"memory=2048M,vcores=1":      resource.New(2048, 1),
		"memory=4294967296,vcores=1": resource.New(4096, 1),
		"memory-mb=512 m,vcores=4,":  resource.New(512, 4),
	} {
		got, _, err := parseResourceString(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for in, msg := range map[string]string{
		"memory-mb=-1":  `"memory-mb=-1" is not a valid resource type/amount pair. Please provide key=amount pairs separated by commas.`,
		"memory-mb":     `"memory-mb" is not a valid resource type/amount pair. Please provide key=amount pairs separated by commas.`,
		",memory-mb=1":  `"" is not a valid resource type/amount pair. Please provide key=amount pairs separated by commas.`,
		"memory-mb=1T":  `Acceptable units are M/G or empty`,
		"gpu=1":         `Unknown resource: yarn.io/gpu`,
		"disk=1":        `Unknown resource: disk`,
		"memory-mb =1":  `Unknown resource: memory-mb `,
		"memory-mb=1=2": `"memory-mb=1=2" is not a valid resource type/amount pair. Please provide key=amount pairs separated by commas.`,
	} {
		_, _, err := parseResourceString(in)
		require.EqualError(t, err, msg, in)
	}
}
