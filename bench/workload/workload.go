// Package workload builds the seeded, deterministic workloads of yarnplay's
// benchmarks: a cluster of identical nodes, a queue tree of a given shape,
// applications spread over users and leaves that keep asking for
// containers of 1 to 8 GB, and containers that finish by themselves after
// a random number of ticks, so that the cluster churns.
//
// The same seed gives the same scheduler inputs on every platform (the
// generator is math/rand/v2's PCG), so the benchmarks measure the same
// work natively and as WebAssembly.
package workload

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/core/resource"
)

// Spec describes a workload.
type Spec struct {
	Nodes      int
	NodeMemGB  int64 // per node
	NodeVCores int64 // per node
	NodesRack  int   // nodes per rack (0: 40)

	// Fanout is the queue tree's shape: Fanout[0] children of root, each
	// with Fanout[1] children, and so on; the last level are the leaves.
	// Every fanout must divide 100 evenly enough for Hadoop's capacity sums
	// (1, 2, 4, 5, 10, 20, 25, 50 or 100).
	Fanout []int

	Apps  int
	Users int
	// UserLimitFactor and MinUserLimitPercent are set on every leaf.
	UserLimitFactor     float64
	MinUserLimitPercent int

	AskMinGB, AskMaxGB int64 // container sizes, uniform, whole GB
	// MeanLife is the containers' mean run time in ticks (uniform in
	// 1..2*MeanLife-1); 0 makes containers run until the app finishes.
	MeanLife int
	// Outstanding is how many containers each app asks for at a time; its
	// ask is renewed (YARN's replace semantics) every RenewEvery ticks
	// (0: never after the first).
	Outstanding int
	RenewEvery  int
	// RoundRobin puts app i in leaf i mod leaves with user i mod users;
	// otherwise both are drawn at random.
	RoundRobin bool

	// Extra are further Capacity Scheduler properties (they win).
	Extra map[string]string

	Seed   uint64
	Record core.RecordLevel
}

// Allocation is benchmark 1 of the performance issue: 10,000 nodes of 128
// GB and 64 vcores, a 10 x 10 x 10 tree, 20,000 apps from 200 users.
func Allocation() Spec {
	return Spec{
		Nodes: 10000, NodeMemGB: 128, NodeVCores: 64,
		Fanout: []int{10, 10, 10},
		Apps:   20000, Users: 200,
		UserLimitFactor: 2, MinUserLimitPercent: 25,
		AskMinGB: 1, AskMaxGB: 8, MeanLife: 30,
		Outstanding: 8, RenewEvery: 10,
		Seed: 1,
	}
}

// NoAllocation is benchmark 3, the shape of Hadoop's
// TestCapacitySchedulerPerf: 100 leaves under root, 200 apps (two users per
// leaf) that want far more than their user limits allow, and 2 nodes with
// room to spare. Once every user is above its limit, heartbeats walk the
// whole tree and allocate nothing.
func NoAllocation() Spec {
	return Spec{
		Nodes: 2, NodeMemGB: 512, NodeVCores: 512,
		Fanout: []int{100},
		Apps:   200, Users: 200, RoundRobin: true,
		UserLimitFactor: 0.25, MinUserLimitPercent: 100,
		AskMinGB: 1, AskMaxGB: 1, MeanLife: 0,
		Outstanding: 100, RenewEvery: 0,
		Seed: 3,
	}
}

// Wasm is benchmark 4's workload: benchmark 1 scaled to 5,000 nodes, 500
// leaves (10 x 10 x 5) and 10,000 apps.
func Wasm() Spec {
	sp := Allocation()
	sp.Nodes, sp.Fanout, sp.Apps = 5000, []int{10, 10, 5}, 10000
	return sp
}

// WithLeaves returns the spec with a tree of n leaves: 10 to a parent, as
// deep as it takes (n is a power of ten).
func (sp Spec) WithLeaves(n int) Spec {
	sp.Fanout = nil
	for ; n > 1; n /= 10 {
		sp.Fanout = append(sp.Fanout, 10)
	}
	return sp
}

// Leaves is the number of leaf queues of the spec's tree.
func (sp Spec) Leaves() int {
	n := 1
	for _, f := range sp.Fanout {
		n *= f
	}
	return n
}

// Conf returns the Capacity Scheduler configuration of the spec's tree:
// children share their parent's capacity equally; leaves carry the user
// limits; the application limits are lifted so that every app is accepted.
func (sp Spec) Conf() map[string]string {
	m := map[string]string{
		"yarn.scheduler.capacity.maximum-applications": strconv.Itoa(10 * max(sp.Apps, 1000) * max(sp.Leaves(), 1)),
	}
	var walk func(path string, level int)
	walk = func(path string, level int) {
		if level == len(sp.Fanout) {
			m[path+".user-limit-factor"] = strconv.FormatFloat(sp.UserLimitFactor, 'g', -1, 64)
			m[path+".minimum-user-limit-percent"] = strconv.Itoa(sp.MinUserLimitPercent)
			return
		}
		f := sp.Fanout[level]
		names := make([]string, f)
		for i := range names {
			names[i] = "q" + strconv.Itoa(i)
		}
		m[path+".queues"] = strings.Join(names, ",")
		for _, n := range names {
			m[path+"."+n+".capacity"] = strconv.FormatFloat(100/float64(f), 'g', -1, 64)
			walk(path+"."+n, level+1)
		}
	}
	walk("yarn.scheduler.capacity.root", 0)
	for k, v := range sp.Extra {
		m[k] = v
	}
	return m
}

// LeafPaths returns the leaves' full paths in configuration order.
func (sp Spec) LeafPaths() []string {
	paths := []string{"root"}
	for _, f := range sp.Fanout {
		next := make([]string, 0, len(paths)*f)
		for _, p := range paths {
			for i := 0; i < f; i++ {
				next = append(next, p+".q"+strconv.Itoa(i))
			}
		}
		paths = next
	}
	return paths
}

// App is one application of the workload.
type App struct {
	ID   string
	Size resource.Resource
}

// Workload is a scheduler driven by a spec.
type Workload struct {
	Spec  Spec
	S     *core.Scheduler
	Apps  []App
	rng   *rand.Rand
	ticks int
	asks  []core.Ask
}

// New builds the scheduler: the configuration, the nodes, then the
// applications with their first asks (Empty, AddNodes, SubmitApps).
func New(sp Spec) (*Workload, error) {
	w, err := Empty(sp)
	if err == nil {
		err = w.AddNodes()
	}
	if err == nil {
		err = w.SubmitApps()
	}
	return w, err
}

// Empty builds the scheduler with the spec's queues and nothing else.
func Empty(sp Spec) (*Workload, error) {
	s, err := core.New(config.FromMap(sp.Conf()), config.Hadoop3)
	if err != nil {
		return nil, fmt.Errorf("workload configuration: %w", err)
	}
	s.SetRecord(sp.Record)
	return &Workload{Spec: sp, S: s, rng: rand.New(rand.NewPCG(sp.Seed, 0x5eed))}, nil
}

// AddNodes registers the spec's nodes, racks of NodesRack in turn, in one
// batch (limits are recomputed once).
func (w *Workload) AddNodes() error {
	sp, s := w.Spec, w.S
	perRack := sp.NodesRack
	if perRack <= 0 {
		perRack = 40
	}
	specs := make([]core.NodeSpec, sp.Nodes)
	for i := range specs {
		specs[i] = core.NodeSpec{
			Name:     "n" + strconv.Itoa(i),
			Rack:     "/rack" + strconv.Itoa(i/perRack),
			Capacity: resource.New(sp.NodeMemGB*1024, sp.NodeVCores),
		}
	}
	if err := s.AddNodes(specs); err != nil {
		return err
	}
	s.TakeEvents()
	return nil
}

// SubmitApps submits the spec's applications (each with a 1 GB AM that
// counts toward the AM limits) and makes their first asks.
func (w *Workload) SubmitApps() error {
	sp, s := w.Spec, w.S
	leaves := sp.LeafPaths()
	am := resource.New(1024, 1)
	for i := 0; i < sp.Apps; i++ {
		id := "app" + strconv.Itoa(i)
		user, leaf := i%max(sp.Users, 1), i%len(leaves)
		if !sp.RoundRobin {
			user, leaf = w.rng.IntN(max(sp.Users, 1)), w.rng.IntN(len(leaves))
		}
		sub := core.Submission{App: id, User: "u" + strconv.Itoa(user), Queue: leaves[leaf], AM: &am}
		if err := s.Submit(sub); err != nil {
			return err
		}
		gb := sp.AskMinGB + w.rng.Int64N(sp.AskMaxGB-sp.AskMinGB+1)
		w.Apps = append(w.Apps, App{ID: id, Size: resource.New(gb*1024, 1)})
		if i%1024 == 1023 {
			s.TakeEvents()
		}
	}
	w.renew(true)
	s.TakeEvents()
	return nil
}

// life draws a container run time.
func (w *Workload) life() int64 {
	if w.Spec.MeanLife <= 0 {
		return 0
	}
	return 1 + w.rng.Int64N(int64(2*w.Spec.MeanLife-1))
}

// renew renews the asks of the apps whose turn it is (all when all is set):
// each asks again for Outstanding containers, with a new run time.
func (w *Workload) renew(all bool) {
	every := w.Spec.RenewEvery
	if every <= 0 && !all {
		return
	}
	for i := range w.Apps {
		if !all && (i+w.ticks)%every != 0 {
			continue
		}
		a := &w.Apps[i]
		w.asks = append(w.asks[:0], core.Ask{App: a.ID, Priority: 1, Resource: a.Size, Count: w.Spec.Outstanding, Locality: core.AnyLocation, Duration: w.life()})
		if err := w.S.Request(w.asks); err != nil {
			panic(fmt.Sprintf("workload: renewing %s: %v", a.ID, err))
		}
	}
}

// Prepare renews the asks due before the next tick and drops the events
// recorded since the last tick. The benchmarks time Tick alone.
func (w *Workload) Prepare() {
	w.renew(false)
	w.S.TakeEvents()
}

// Tick runs one tick (every node heartbeats once) and counts it.
func (w *Workload) Tick() {
	w.S.Tick()
	w.ticks++
}

// Step is Prepare then Tick, dropping the tick's events.
func (w *Workload) Step() {
	w.Prepare()
	w.Tick()
	w.S.TakeEvents()
}

// Ticks is the number of ticks run.
func (w *Workload) Ticks() int { return w.ticks }
