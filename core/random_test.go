package core_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/core/resource"
)

// workload drives a scheduler with a seeded random mix of steps.
type workload struct {
	t     testing.TB
	pcg   *rand.PCG
	r     *rand.Rand
	s     *core.Scheduler
	apps  []string
	nodes []string
	leafs []string
	step  int
	added int
}

func randomConf(r *rand.Rand) map[string]string {
	m := map[string]string{
		"yarn.scheduler.capacity.root.queues":                          "a,b,c",
		"yarn.scheduler.capacity.root.a.capacity":                      "50",
		"yarn.scheduler.capacity.root.b.capacity":                      "30",
		"yarn.scheduler.capacity.root.c.capacity":                      "20",
		"yarn.scheduler.capacity.root.a.queues":                        "a1,a2",
		"yarn.scheduler.capacity.root.a.a1.capacity":                   "40",
		"yarn.scheduler.capacity.root.a.a2.capacity":                   "60",
		"yarn.scheduler.capacity.root.c.maximum-capacity":              fmt.Sprint(20 + r.IntN(80)),
		"yarn.scheduler.capacity.root.a.a1.user-limit-factor":          fmt.Sprint([]float64{0.5, 1, 2, 4}[r.IntN(4)]),
		"yarn.scheduler.capacity.root.a.a1.minimum-user-limit-percent": fmt.Sprint([]int{20, 25, 50, 100}[r.IntN(4)]),
		"yarn.scheduler.capacity.root.b.user-limit-factor":             fmt.Sprint([]float64{1, 2}[r.IntN(2)]),
		"yarn.scheduler.capacity.root.a.maximum-capacity":              fmt.Sprint(50 + r.IntN(51)),
		"yarn.scheduler.capacity.maximum-am-resource-percent":          fmt.Sprint([]float64{0.1, 0.3, 1}[r.IntN(3)]),
		"yarn.scheduler.capacity.reservations-continue-look-all-nodes": fmt.Sprint(r.IntN(2) == 0),
		"yarn.scheduler.capacity.node-locality-delay":                  fmt.Sprint(r.IntN(4)),
	}
	if r.IntN(3) == 0 {
		m["yarn.scheduler.capacity.resource-calculator"] = resource.DominantCalculatorClass
	}
	if r.IntN(3) == 0 {
		m["yarn.scheduler.capacity.per-node-heartbeat.maximum-offswitch-assignments"] = fmt.Sprint(1 + r.IntN(4))
	}
	return m
}

func newWorkload(t testing.TB, seed uint64) *workload {
	pcg := rand.NewPCG(seed, 0x9e3779b97f4a7c15)
	r := rand.New(pcg)
	s, err := core.New(config.FromMap(randomConf(r)), config.Hadoop3)
	require.NoError(t, err, "seed %d", seed)
	w := &workload{t: t, pcg: pcg, r: r, s: s, leafs: []string{"root.a.a1", "root.a.a2", "root.b", "root.c"}}
	for i := 0; i < 2+r.IntN(5); i++ {
		w.addNode()
	}
	return w
}

func (w *workload) addNode() { w.addNodeIn(func() string { return "" }) }

// addNodeIn adds a node of a random rack and size in the partition label
// draws, after the size.
func (w *workload) addNodeIn(label func() string) {
	name := fmt.Sprintf("n%d", w.added)
	w.added++
	rack := fmt.Sprintf("/r%d", w.r.IntN(2))
	capacity := resource.New(int64(4+w.r.IntN(5))*1024, int64(2+w.r.IntN(6)))
	require.NoError(w.t, w.s.AddNode(core.NodeSpec{Name: name, Rack: rack, Capacity: capacity, Label: label()}))
	w.nodes = append(w.nodes, name)
}

// do runs one random step; refused steps are fine (they must change nothing).
func (w *workload) do() {
	w.step++
	r, s := w.r, w.s
	switch k := r.IntN(100); {
	case k < 12:
		id := fmt.Sprintf("app%d", len(w.apps))
		am := resource.New(int64(1+r.IntN(2))*1024, 1)
		err := s.Submit(core.Submission{App: id, User: fmt.Sprintf("u%d", r.IntN(4)), Queue: w.leafs[r.IntN(len(w.leafs))], AM: &am, AMContainerRequest: r.IntN(4) != 0})
		if err == nil {
			w.apps = append(w.apps, id)
		}
	case k < 30 && len(w.apps) > 0:
		app := w.apps[r.IntN(len(w.apps))]
		loc := core.AnyLocation
		var asks []core.Ask
		size := resource.New(int64(1+r.IntN(4))*1024, int64(1+r.IntN(2)))
		prio := 1 + r.IntN(3)
		n := r.IntN(5)
		if r.IntN(3) == 0 && len(w.nodes) > 0 {
			nn, _ := s.Node(w.nodes[r.IntN(len(w.nodes))])
			asks = append(asks, core.Ask{App: app, Priority: prio, Resource: size, Count: n, Locality: nn.Name}, core.Ask{App: app, Priority: prio, Resource: size, Count: n, Locality: nn.Rack})
		}
		asks = append(asks, core.Ask{App: app, Priority: prio, Resource: size, Count: n, Locality: loc, Duration: int64(r.IntN(6))})
		_ = s.Request(asks)
	case k < 80 && len(w.nodes) > 0:
		_ = s.Heartbeat(w.nodes[r.IntN(len(w.nodes))])
	case k < 85:
		s.Tick()
	case k < 90 && len(w.apps) > 0:
		_ = s.FinishContainers(w.apps[r.IntN(len(w.apps))], 1+r.IntN(2), "")
	case k < 93 && len(w.apps) > 0:
		_ = s.FinishApp(w.apps[r.IntN(len(w.apps))])
	case k < 94 && len(w.apps) > 0:
		_ = s.KillApp(w.apps[r.IntN(len(w.apps))], "u0")
	case k < 96:
		w.addNode()
	case k < 97 && len(w.nodes) > 1:
		i := r.IntN(len(w.nodes))
		require.NoError(w.t, s.RemoveNode(w.nodes[i]))
		w.nodes = append(w.nodes[:i], w.nodes[i+1:]...)
	case k < 100:
		c := s.Conf()
		c.Set("yarn.scheduler.capacity.root.b.maximum-capacity", fmt.Sprint(30+r.IntN(71)))
		c.Set("yarn.scheduler.capacity.root.a.a2.user-limit-factor", fmt.Sprint(1+r.IntN(3)))
		_ = s.Refresh(c)
	}
}

// usedAboveMax reports queues whose usage grew past their effective maximum.
func usedAboveMax(before, after []core.QueueView, dominant bool) error {
	prev := map[string]core.QueueView{}
	for _, q := range before {
		prev[q.Path] = q
	}
	for _, q := range after {
		p, ok := prev[q.Path]
		if !ok || q.EffectiveMax != p.EffectiveMax {
			continue
		}
		grew := q.Used.MemoryMB > p.Used.MemoryMB
		over := q.Used.MemoryMB > q.EffectiveMax.MemoryMB
		if dominant {
			grew = grew || q.Used.VCores > p.Used.VCores
			over = over || q.Used.VCores > q.EffectiveMax.VCores
		}
		if grew && over {
			return fmt.Errorf("queue %s grew to %s, above its maximum %s", q.Path, q.Used, q.EffectiveMax)
		}
	}
	return nil
}

func TestRandomWorkloadsKeepInvariants(t *testing.T) {
	for seed := uint64(1); seed <= 60; seed++ {
		w := newWorkload(t, seed)
		dominant := w.s.Settings().Calculator.Kind == resource.DominantKind
		for i := 0; i < 300; i++ {
			before := w.s.Queues()
			w.do()
			require.NoError(t, w.s.CheckInvariants(), "seed %d step %d", seed, w.step)
			require.NoError(t, usedAboveMax(before, w.s.Queues(), dominant), "seed %d step %d", seed, w.step)
		}
	}
}

func record(t *testing.T, seed uint64, steps int) []byte {
	w := newWorkload(t, seed)
	var all []core.Event
	for i := 0; i < steps; i++ {
		w.do()
		all = append(all, w.s.TakeEvents()...)
	}
	b, err := json.Marshal(all)
	require.NoError(t, err)
	return b
}

func TestSameInputsGiveTheSameRecord(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		a, b := record(t, seed, 200), record(t, seed, 200)
		require.Equal(t, string(a), string(b), "seed %d", seed)
	}
}

func TestCloneIsIndependentAndExact(t *testing.T) {
	for seed := uint64(1); seed <= 10; seed++ {
		w := newWorkload(t, seed)
		for i := 0; i < 120; i++ {
			w.do()
		}
		w.s.TakeEvents()
		pcg := *w.pcg
		twin := &workload{t: t, pcg: &pcg, r: rand.New(&pcg), s: w.s.Clone(),
			apps: append([]string(nil), w.apps...), nodes: append([]string(nil), w.nodes...), leafs: w.leafs, step: w.step, added: w.added}
		state := func(s *core.Scheduler) string { return stateJSON(t, s) }
		before := state(twin.s)
		for i := 0; i < 80; i++ {
			w.do()
		}
		require.Equal(t, before, state(twin.s), "seed %d: the clone changed when the original moved on", seed)
		for i := 0; i < 80; i++ {
			twin.do()
		}
		require.Equal(t, state(w.s), state(twin.s), "seed %d: the clone replayed differently", seed)
		require.Equal(t, w.s.TakeEvents(), twin.s.TakeEvents(), "seed %d", seed)
	}
}

// stateJSON renders everything a reader can see of a scheduler.
func stateJSON(t testing.TB, s *core.Scheduler) string {
	b, err := json.Marshal([]any{s.Queues(), s.Apps(), s.Nodes(), s.ClusterResource(), s.ClusterUsed(), s.Now()})
	require.NoError(t, err)
	return string(b)
}
