package core_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/core/resource"
)

const capPrefix = "yarn.scheduler.capacity."

// yarnRollers is the book's example company: 6:1:3 at the top, 1:4 under
// grumpy-engineers (chapter 8, "Capacity Management with Queues").
func yarnRollers(extra map[string]string) map[string]string {
	m := map[string]string{
		capPrefix + "root.queues":                                          "grumpy-engineers,finance-wizards,marketing-moguls",
		capPrefix + "root.grumpy-engineers.capacity":                       "60",
		capPrefix + "root.finance-wizards.capacity":                        "10",
		capPrefix + "root.marketing-moguls.capacity":                       "30",
		capPrefix + "root.grumpy-engineers.queues":                         "infinite-monkeys,pesky-testers",
		capPrefix + "root.grumpy-engineers.infinite-monkeys.capacity":      "20",
		capPrefix + "root.grumpy-engineers.pesky-testers.capacity":         "80",
		capPrefix + "root.finance-wizards.queues":                          "meticulous-accountants,thrifty-treasurers",
		capPrefix + "root.finance-wizards.meticulous-accountants.capacity": "50",
		capPrefix + "root.finance-wizards.thrifty-treasurers.capacity":     "50",
		capPrefix + "root.marketing-moguls.queues":                         "brand-exploders,social-savants",
		capPrefix + "root.marketing-moguls.brand-exploders.capacity":       "50",
		capPrefix + "root.marketing-moguls.social-savants.capacity":        "50",
	}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

// newCluster builds a scheduler with n nodes of mem MB and 8 vcores.
func newCluster(t *testing.T, conf map[string]string, n int, mem int64) *core.Scheduler {
	t.Helper()
	s, err := core.New(config.FromMap(conf), config.Hadoop3)
	require.NoError(t, err)
	for i := 0; i < n; i++ {
		require.NoError(t, s.AddNode(core.NodeSpec{Name: fmt.Sprintf("n%d", i), Capacity: resource.New(mem, 8)}))
	}
	return s
}

func queue(t *testing.T, s *core.Scheduler, name string) core.QueueView {
	t.Helper()
	q, err := s.Queue(name)
	require.NoError(t, err)
	return q
}

func TestYARNRollersCapacities(t *testing.T) {
	// 100 nodes of 10 GB: 1,024,000 MB. Capacities are Java floats and
	// resources truncate (section 1); these happen to be exact.
	tests := []struct {
		name           string
		extra          map[string]string
		queue          string
		abs, absMax    float32
		effMin, effMax int64
	}{
		{"grumpy-engineers 60%", nil, "grumpy-engineers", 0.6, 1, 614400, 1024000},
		{"finance-wizards 10%", nil, "finance-wizards", 0.1, 1, 102400, 1024000},
		{"marketing-moguls 30%", nil, "marketing-moguls", 0.3, 1, 307200, 1024000},
		{"infinite-monkeys 1:4 of 60%", nil, "infinite-monkeys", 0.12, 1, 122880, 1024000},
		{"pesky-testers 4:1 of 60%", nil, "pesky-testers", 0.48, 1, 491520, 1024000},
		// The book boxes infinite-monkeys at "40% of the parent's 600 GB = 240 GB".
		// Hadoop multiplies maximum capacities down the path: 40% of 100% of the cluster.
		{"infinite-monkeys max 40: Hadoop's 400 GB, not the book's 240 GB",
			map[string]string{capPrefix + "root.grumpy-engineers.infinite-monkeys.maximum-capacity": "40"},
			"infinite-monkeys", 0.12, 0.4, 122880, 409600},
		{"the book's 240 GB needs grumpy-engineers' own maximum-capacity at 60",
			map[string]string{
				capPrefix + "root.grumpy-engineers.infinite-monkeys.maximum-capacity": "40",
				capPrefix + "root.grumpy-engineers.maximum-capacity":                  "60",
			},
			"infinite-monkeys", 0.12, 0.24, 122880, 245760},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newCluster(t, yarnRollers(tc.extra), 100, 10240)
			q := queue(t, s, tc.queue)
			require.InDelta(t, tc.abs, q.AbsCapacity, 1e-6)
			require.InDelta(t, tc.absMax, q.AbsMaxCapacity, 1e-6)
			require.Equal(t, tc.effMin, q.EffectiveMin.MemoryMB)
			require.Equal(t, tc.effMax, q.EffectiveMax.MemoryMB)
		})
	}
}

// submitHungry submits an application with no AM that asks for count
// containers of 1 GB anywhere.
func submitHungry(t *testing.T, s *core.Scheduler, app, user, queue string, count int) {
	t.Helper()
	require.NoError(t, s.Submit(core.Submission{App: app, User: user, Queue: queue}))
	require.NoError(t, s.Request([]core.Ask{{App: app, Priority: 1, Resource: resource.New(1024, 1), Count: count, Locality: core.AnyLocation}}))
}

func appMB(t *testing.T, s *core.Scheduler, id string) int64 {
	t.Helper()
	a, ok := s.App(id)
	require.True(t, ok, id)
	return a.Consumption.MemoryMB
}

func TestElasticBorrowingInInfiniteMonkeys(t *testing.T) {
	// sid and hitesh each ask far more than infinite-monkeys' 120 GB. With
	// user-limit-factor 1 each user is held to the queue's guarantee,
	// 122,880 MB, plus one container (the user-limit check is "used > limit"),
	// so together they borrow 242 GB, not the book's round 240 GB.
	tests := []struct {
		name             string
		extra            map[string]string
		sid, hitesh, que int64
	}{
		{"unboxed", nil, 123904, 123904, 247808},
		{"boxed at 240 GB by grumpy-engineers max 60 and infinite-monkeys max 40",
			map[string]string{
				capPrefix + "root.grumpy-engineers.infinite-monkeys.maximum-capacity": "40",
				capPrefix + "root.grumpy-engineers.maximum-capacity":                  "60",
			}, 123904, 121856, 245760},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newCluster(t, yarnRollers(tc.extra), 100, 10240)
			submitHungry(t, s, "sid-app", "sid", "infinite-monkeys", 1000)
			submitHungry(t, s, "hitesh-app", "hitesh", "infinite-monkeys", 1000)
			for i := 0; i < 4; i++ {
				s.Tick()
				require.NoError(t, s.CheckInvariants())
			}
			require.Equal(t, tc.sid, appMB(t, s, "sid-app"))
			require.Equal(t, tc.hitesh, appMB(t, s, "hitesh-app"))
			require.Equal(t, tc.que, queue(t, s, "infinite-monkeys").Used.MemoryMB)
		})
	}
}

func TestInfiniteMonkeysFiveUsersBoxedByMaximumCapacity(t *testing.T) {
	for _, tc := range []struct {
		name  string
		extra map[string]string
		used  int64
	}{
		{"max 40: Hadoop's 400 GB", map[string]string{capPrefix + "root.grumpy-engineers.infinite-monkeys.maximum-capacity": "40"}, 409600},
		{"max 40 under grumpy-engineers max 60: the book's 240 GB", map[string]string{
			capPrefix + "root.grumpy-engineers.infinite-monkeys.maximum-capacity": "40",
			capPrefix + "root.grumpy-engineers.maximum-capacity":                  "60",
		}, 245760},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newCluster(t, yarnRollers(tc.extra), 100, 10240)
			for _, u := range []string{"sid", "hitesh", "jian", "zhijie", "xuan"} {
				submitHungry(t, s, u+"-app", u, "infinite-monkeys", 1000)
			}
			for i := 0; i < 6; i++ {
				s.Tick()
			}
			require.NoError(t, s.CheckInvariants())
			q := queue(t, s, "infinite-monkeys")
			require.Equal(t, tc.used, q.Used.MemoryMB, "a queue reaches its maximum exactly and never passes it")
		})
	}
}

func TestThriftyTreasurersUserLimitWalk(t *testing.T) {
	// thrifty-treasurers is boxed at its 50 GB guarantee (finance-wizards and
	// thrifty-treasurers maximum-capacity set to their capacities) with
	// minimum-user-limit-percent 20. hillegas fills it alone; then each new
	// user with demand lowers the user limit, until the 20% floor stops the
	// division: the sixth user, selden, does not lower it further.
	s := newCluster(t, yarnRollers(map[string]string{
		capPrefix + "root.finance-wizards.maximum-capacity":                              "10",
		capPrefix + "root.finance-wizards.thrifty-treasurers.maximum-capacity":           "50",
		capPrefix + "root.finance-wizards.thrifty-treasurers.minimum-user-limit-percent": "20",
	}), 100, 10240)
	q := "root.finance-wizards.thrifty-treasurers"
	submitHungry(t, s, "hillegas-app", "hillegas", q, 100)
	for i := 0; i < 2; i++ {
		s.Tick()
	}
	// The queue's maximum (51,200 MB) stops hillegas, not the user limit.
	require.Equal(t, int64(51200), appMB(t, s, "hillegas-app"))
	require.Equal(t, int64(51200), queue(t, s, q).UserLimit.MemoryMB)

	// With the queue full, consumed = 51,200 MB is not below the guarantee, so
	// the user limit works from currentCapacity = consumed + 1,024 = 52,224 MB:
	// max(ceil((activeUsed + 1,024) / users), ceil(52,224 x 20 / 100)), rounded
	// up to 1,024 MB. The book's "50%, 33%, 25%, 20%" become these numbers.
	want := []struct {
		user  string
		limit int64
	}{
		{"meredith", 26624}, // 26,112 rounded up
		{"tucker", 17408},
		{"user4", 13312},  // 13,056 rounded up
		{"user5", 11264},  // the 20% floor, 10,445 rounded up
		{"selden", 11264}, // a sixth user does not lower the limit
	}
	for _, w := range want {
		submitHungry(t, s, w.user+"-app", w.user, q, 100)
		require.Equal(t, w.limit, queue(t, s, q).UserLimit.MemoryMB, w.user)
	}
	// As hillegas's containers finish, each freed container goes, in FIFO
	// order, to the first application whose user is not over the limit. While
	// a container is free the queue is below its guarantee, so the limit is
	// max(51,200 / 6 users, 51,200 x 20%) = 10,240 MB and each earlier user
	// ends one container past it, at 11,264 MB. Once hillegas is down there
	// too, hillegas (first in FIFO) takes back what it frees: user5 keeps
	// what it got and selden, the sixth, waits. The book's "alternately
	// allocated" balance is not what Hadoop's FIFO leaf does.
	for i := 0; i < 60; i++ {
		require.NoError(t, s.FinishContainers("hillegas-app", 1, ""))
		s.Tick()
		require.NoError(t, s.CheckInvariants())
	}
	got := map[string]int64{}
	for _, u := range []string{"hillegas", "meredith", "tucker", "user4", "user5", "selden"} {
		got[u] = appMB(t, s, u+"-app")
	}
	require.Equal(t, map[string]int64{
		"hillegas": 11264, "meredith": 11264, "tucker": 11264, "user4": 11264, "user5": 6144, "selden": 0,
	}, got)
	require.Equal(t, int64(51200), queue(t, s, q).Used.MemoryMB)
}
