package core_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
	"yarnplay/core/config"
)

// hadoop33Workload is a random workload whose configuration uses the
// rules of docs/semantics.md section 14: fair leaves (with or without
// size-based weight), priority-utilization with priorities, and
// max-parallel-apps for queues and users; its refreshes switch them.
func hadoop33Workload(t *testing.T, seed uint64, level core.RecordLevel) *workload {
	pcg := rand.NewPCG(seed, 0x51ed270b27f6d2a3)
	r := rand.New(pcg)
	m := randomConf(r)
	p := "yarn.scheduler.capacity."
	m[p+"root.a.a1.ordering-policy"] = []string{"fifo", "fair"}[r.IntN(2)]
	m[p+"root.b.ordering-policy"] = "fair"
	m[p+"root.b.ordering-policy.fair.enable-size-based-weight"] = fmt.Sprint(r.IntN(2) == 0)
	m[p+"root.ordering-policy"] = []string{"utilization", "priority-utilization"}[r.IntN(2)]
	m[p+"root.c.priority"] = fmt.Sprint(r.IntN(3))
	m[p+"root.a.priority"] = fmt.Sprint(r.IntN(3))
	m[p+"root.a.a2.max-parallel-apps"] = fmt.Sprint(1 + r.IntN(3))
	m[p+"root.max-parallel-apps"] = fmt.Sprint(4 + r.IntN(8))
	m[p+"user.u1.max-parallel-apps"] = fmt.Sprint(1 + r.IntN(2))
	s, err := core.New(config.FromMap(m), config.Hadoop3)
	require.NoError(t, err, "seed %d", seed)
	s.SetRecord(level)
	w := &workload{t: t, pcg: pcg, r: r, s: s, leafs: []string{"root.a.a1", "root.a.a2", "root.b", "root.c"}}
	for i := 0; i < 2+r.IntN(5); i++ {
		w.addNode()
	}
	return w
}

// step33 is the workload's step, with now and then a refresh that
// switches the section 14 settings.
func (w *workload) step33() {
	if w.r.IntN(40) == 0 {
		c := w.s.Conf()
		p := "yarn.scheduler.capacity."
		c.Set(p+"root.a.a1.ordering-policy", []string{"fifo", "fair"}[w.r.IntN(2)])
		c.Set(p+"root.ordering-policy", []string{"utilization", "priority-utilization"}[w.r.IntN(2)])
		c.Set(p+"root.a.a2.max-parallel-apps", fmt.Sprint(1+w.r.IntN(3)))
		c.Set(p+"root.b.priority", fmt.Sprint(w.r.IntN(3)))
		_ = w.s.Refresh(c)
		return
	}
	w.do()
}

// TestRandomHadoop33WorkloadsKeepInvariants runs the section 14 rules at
// random: the invariants hold after every step (the fair order, the
// runnable counts, the kept child order), a clone goes on exactly as its
// source, and recording nothing decides as recording everything does.
func TestRandomHadoop33WorkloadsKeepInvariants(t *testing.T) {
	for seed := uint64(1); seed <= 30; seed++ {
		full := hadoop33Workload(t, seed, core.RecordFull)
		none := hadoop33Workload(t, seed, core.RecordNone)
		for i := 0; i < 300; i++ {
			full.step33()
			none.step33()
			full.s.TakeEvents()
			require.NoError(t, full.s.CheckInvariants(), "seed %d step %d", seed, full.step)
			require.NoError(t, none.s.CheckInvariants(), "seed %d step %d", seed, none.step)
			require.Equal(t, stateJSON(t, full.s), stateJSON(t, none.s), "seed %d step %d: the recording level changed a decision", seed, full.step)
			if i == 150 {
				c := full.s.Clone()
				require.Equal(t, stateJSON(t, full.s), stateJSON(t, c), "seed %d: the clone differs", seed)
			}
		}
	}
}
