package preemption

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core/resource"
)

// gen builds random but plausible snapshots from a seeded PCG.
type gen struct {
	r       *rand.Rand
	cluster resource.Resource
	budget  resource.Resource // what containers may still use
	seq     int64
	cid     ContainerID
}

func (g *gen) splitPercents(n int) []int {
	out := make([]int, n)
	left := 100
	for i := 0; i < n-1; i++ {
		out[i] = g.r.IntN(left + 1)
		left -= out[i]
	}
	out[n-1] = left
	g.r.Shuffle(n, func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

func (g *gen) queue(path string, parent *Queue, capPct, maxPct int, depth int) *Queue {
	q := &Queue{Path: path}
	if parent == nil {
		q.AbsCapacity, q.AbsMaxCapacity = 1, 1
	} else {
		q.AbsCapacity = parent.AbsCapacity * (float32(capPct) / 100)
		q.AbsMaxCapacity = parent.AbsMaxCapacity * (float32(maxPct) / 100)
		q.DisablePreemption = parent.DisablePreemption
	}
	if g.r.IntN(8) == 0 {
		q.DisablePreemption = !q.DisablePreemption
	}
	q.Guaranteed = multiply(g.cluster, float64(q.AbsCapacity))
	q.Max = multiply(g.cluster, float64(q.AbsMaxCapacity))
	if parent == nil || (depth < 3 && g.r.IntN(3) == 0) {
		n := 2 + g.r.IntN(3)
		for i, c := range g.splitPercents(n) {
			m := c + g.r.IntN(101-c)
			child := g.queue(fmt.Sprintf("%s.q%d", path, i), q, c, m, depth+1)
			q.Children = append(q.Children, child)
			q.Used = q.Used.Add(child.Used)
		}
		return q
	}
	q.MaxAMPercent = []float32{0, 0.1, 0.5}[g.r.IntN(3)]
	q.Pending = resource.New(g.r.Int64N(g.cluster.MemoryMB/2+1), g.r.Int64N(g.cluster.VCores/2+1))
	for a := g.r.IntN(4); a > 0; a-- {
		g.seq++
		app := App{ID: fmt.Sprintf("app_%d", g.seq), Seq: g.seq, Priority: g.r.IntN(3)}
		for c := g.r.IntN(9); c > 0; c-- {
			size := resource.New(1+g.r.Int64N(g.cluster.MemoryMB/30+1), 1+g.r.Int64N(4))
			if !resource.FitsIn(size, g.budget) {
				break
			}
			g.budget = g.budget.Sub(size)
			g.cid++
			ct := Container{ID: g.cid, Size: size, RequestPriority: 1 + g.r.IntN(3)}
			switch {
			case len(app.Containers) == 0 && g.r.IntN(2) == 0:
				ct.IsAM, ct.RequestPriority = true, 0
				app.AMResource = size
			case g.r.IntN(10) == 0:
				ct.Reserved = true
				q.Reserved = q.Reserved.Add(size)
			}
			app.Containers = append(app.Containers, ct)
			q.Used = q.Used.Add(size)
		}
		q.Apps = append(q.Apps, app)
	}
	return q
}

func randomCase(seed uint64) (*Snapshot, Settings) {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	cluster := resource.New(100+r.Int64N(1900), 50+r.Int64N(450))
	g := &gen{r: r, cluster: cluster, budget: cluster}
	rc := resource.Default
	if r.IntN(3) == 0 {
		rc = resource.Dominant
	}
	snap := &Snapshot{Cluster: cluster, Calculator: rc, Root: g.queue("root", nil, 100, 100, 0)}
	set := DefaultSettings()
	set.Enabled = true
	set.ObserveOnly = r.IntN(10) == 0
	set.TotalPreemptionPerRound = []float32{0.05, 0.1, 0.5, 1}[r.IntN(4)]
	set.MaxIgnoredOverCapacity = []float64{0, 0.1, 0.5}[r.IntN(3)]
	set.NaturalTerminationFactor = []float64{0.1, 0.2, 1}[r.IntN(3)]
	set.MaxWaitBeforeKillMS = []int64{1000, 15000}[r.IntN(2)]
	return snap, set
}

func cloneQueue(q *Queue) *Queue {
	c := *q
	c.Children = nil
	for _, k := range q.Children {
		c.Children = append(c.Children, cloneQueue(k))
	}
	c.Apps = nil
	for _, a := range q.Apps {
		a.Containers = append([]Container(nil), a.Containers...)
		c.Apps = append(c.Apps, a)
	}
	return &c
}

func cloneSnapshot(s *Snapshot) *Snapshot {
	c := *s
	c.Root = cloneQueue(s.Root)
	return &c
}

func TestPropertiesOnRandomSnapshots(t *testing.T) {
	const seeds = 300
	selectedSomething := 0
	for seed := uint64(1); seed <= seeds; seed++ {
		snap, set := randomCase(seed)
		orig := cloneSnapshot(snap)
		st := NewState()
		for round := int64(0); round < 3; round++ {
			now := round * 7000
			before := st.Clone()
			d := Round(snap, st, set, now)
			msg := fmt.Sprintf("seed %d round %d", seed, round)
			require.Empty(t, d.Error, msg)

			// Deterministic: the same input gives the same Decision and State.
			st2 := before.Clone()
			d2 := Round(cloneSnapshot(orig), st2, set, now)
			require.Equal(t, d, d2, msg)
			require.Equal(t, st.Candidates(), st2.Candidates(), msg)
			require.Equal(t, orig, snap, "the snapshot is not modified; "+msg)

			checkRound(t, snap, set, before, st, d, msg)
			if len(d.Selected) > 0 {
				selectedSomething++
			}
		}
	}
	require.Greater(t, selectedSomething, seeds/4, "the generator exercises selection")
}

func checkRound(t *testing.T, snap *Snapshot, set Settings, before, after *State, d Decision, msg string) {
	rc, cluster := snap.Calculator, snap.Cluster

	// Nothing from a queue at or below its guarantee, or with preemption off.
	for _, s := range d.Selected {
		q := d.Queue(s.Queue)
		require.NotNil(t, q, msg)
		require.False(t, rc.LessThanOrEqual(cluster, q.Used, q.Guaranteed), "%s: selected from %s at or below guarantee", msg, s.Queue)
		require.False(t, q.PreemptionDisabled, msg)
	}

	// At most cluster x total_preemption_per_round per round.
	require.True(t, rc.FitsIn(d.SelectedTotal, d.TotalPreemptionAllowed), "%s: %v over %v", msg, d.SelectedTotal, d.TotalPreemptionAllowed)
	require.LessOrEqual(t, d.SelectedTotal.MemoryMB, multiply(cluster, float64(set.TotalPreemptionPerRound)).MemoryMB, msg)

	// Per leaf: AM containers only after every non-AM one; with the default
	// calculator no more than one container beyond ResToObtain.
	amSeen := map[string]bool{}
	perQueue := map[string]resource.Resource{}
	last := map[string]resource.Resource{}
	for _, s := range d.Selected {
		if s.IsAM {
			amSeen[s.Queue] = true
		} else {
			require.False(t, amSeen[s.Queue], "%s: non-AM container %d of %s after an AM container", msg, s.ContainerID, s.Queue)
		}
		perQueue[s.Queue] = perQueue[s.Queue].Add(s.Size)
		last[s.Queue] = s.Size
	}
	if rc.Kind == resource.DefaultKind {
		for q, sum := range perQueue {
			obtain := d.Queue(q).ResToObtain
			require.Less(t, sum.MemoryMB-last[q].MemoryMB, obtain.MemoryMB, "%s: %s took %v for %v", msg, q, sum, obtain)
		}
	}

	if set.ObserveOnly {
		require.Empty(t, d.Marked, msg)
		require.Empty(t, d.Killed, msg)
		require.Equal(t, before.Candidates(), after.Candidates(), msg)
		return
	}
	// Every selection is marked, waiting or killed according to the state.
	killedAfterWait := 0
	for _, k := range d.Killed {
		if k.Event == MarkKillable {
			killedAfterWait++
			first, ok := before.FirstSelected(k.ContainerID)
			require.True(t, ok, msg)
			require.LessOrEqual(t, first+set.MaxWaitBeforeKillMS, d.NowMS, msg)
			_, still := after.FirstSelected(k.ContainerID)
			require.False(t, still, msg)
		} else {
			require.Equal(t, KillReserved, k.Event, msg)
			require.True(t, k.Reserved, msg)
		}
	}
	require.Equal(t, len(d.Selected), len(d.Marked)+len(d.Waiting)+killedAfterWait, msg)
	for _, m := range d.Marked {
		_, known := before.FirstSelected(m.ContainerID)
		require.False(t, known, msg)
		first, ok := after.FirstSelected(m.ContainerID)
		require.True(t, ok, msg)
		require.Equal(t, d.NowMS, first, msg)
	}
}

// A random state with AM containers and reservations, through several
// rounds until kills.
func TestRoundsUntilKill(t *testing.T) {
	snap, set := randomCase(42)
	set.ObserveOnly = false
	set.MaxWaitBeforeKillMS = 5000
	st := NewState()
	marked := map[ContainerID]int64{}
	kills := 0
	for now := int64(0); now <= 20000; now += 3000 {
		d := Round(snap, st, set, now)
		for _, m := range d.Marked {
			marked[m.ContainerID] = now
		}
		for _, k := range d.Killed {
			if k.Event == MarkKillable {
				kills++
				require.GreaterOrEqual(t, now-marked[k.ContainerID], set.MaxWaitBeforeKillMS)
			}
		}
	}
	// The frozen state asks for the same containers every round: marked at
	// 0, waiting at 3000, killed at 6000, marked again at 9000, ...
	require.Equal(t, 12, kills)
}
