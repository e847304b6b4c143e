package core_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/core/resource"
)

// labelWorkload is a random workload on a cluster with node labels:
// x (exclusive or not, at random) for a's leaves, y (not exclusive) for
// a1 and b, c without labels; nodes join in any partition, and asks and
// AMs name a partition now and then (docs/semantics.md, section 15).
func labelWorkload(t *testing.T, seed uint64, level core.RecordLevel) *workload {
	pcg := rand.NewPCG(seed, 0x2545f4914f6cdd1d)
	r := rand.New(pcg)
	m := randomConf(r)
	p := "yarn.scheduler.capacity.root."
	for k, v := range map[string]string{
		"accessible-node-labels.x.capacity": "100", "accessible-node-labels.y.capacity": "100",
		"a.accessible-node-labels": "x,y", "a.accessible-node-labels.x.capacity": "100", "a.accessible-node-labels.y.capacity": "50",
		"a.a1.accessible-node-labels.x.maximum-capacity": fmt.Sprint(40 + r.IntN(61)),
		"a.a1.accessible-node-labels.x.capacity":         "40", "a.a1.accessible-node-labels.y.capacity": "100",
		"a.a2.accessible-node-labels.x.capacity": "60", "a.a2.accessible-node-labels": "x",
		"b.accessible-node-labels": "y", "b.accessible-node-labels.y.capacity": "50",
		"b.accessible-node-labels.y.maximum-capacity":               fmt.Sprint(50 + r.IntN(51)),
		"c.accessible-node-labels":                                  "",
		"a.a1.accessible-node-labels.y.maximum-am-resource-percent": fmt.Sprint([]float64{0.1, 0.5, 1}[r.IntN(3)]),
	} {
		m[p+k] = v
	}
	if r.IntN(2) == 0 {
		m[p+"a.a2.default-node-label-expression"] = "x"
	}
	s, err := core.New(config.FromMap(m), config.Hadoop3)
	require.NoError(t, err, "seed %d", seed)
	require.NoError(t, s.AddNodeLabels([]core.NodeLabel{{Name: "x", Exclusive: r.IntN(2) == 0}, {Name: "y"}}))
	s.SetRecord(level)
	w := &workload{t: t, pcg: pcg, r: r, s: s, leafs: []string{"root.a.a1", "root.a.a2", "root.b", "root.c"}}
	for i := 0; i < 3+r.IntN(5); i++ {
		w.addLabelledNode()
	}
	return w
}

func (w *workload) addLabelledNode() {
	w.addNodeIn(func() string { return []string{"", "", "x", "y"}[w.r.IntN(4)] })
}

// stepLabels is the workload's step with labelled submissions, asks and
// nodes now and then.
func (w *workload) stepLabels() {
	r, s := w.r, w.s
	switch k := r.IntN(100); {
	case k < 6:
		w.step++
		id := fmt.Sprintf("app%d", len(w.apps))
		am := resource.New(int64(1+r.IntN(2))*1024, 1)
		err := s.Submit(core.Submission{App: id, User: fmt.Sprintf("u%d", r.IntN(4)), Queue: w.leafs[r.IntN(len(w.leafs))],
			AM: &am, AMContainerRequest: r.IntN(4) != 0, AMLabel: []string{"", "", "x", "y"}[r.IntN(4)]})
		if err == nil {
			w.apps = append(w.apps, id)
		}
	case k < 16 && len(w.apps) > 0:
		w.step++
		lbl := []*string{nil, label(""), label("x"), label("y")}[r.IntN(4)]
		_ = s.Request([]core.Ask{{App: w.apps[r.IntN(len(w.apps))], Priority: 1 + r.IntN(3), Resource: resource.New(int64(1+r.IntN(3))*1024, 1),
			Count: r.IntN(5), Locality: core.AnyLocation, Label: lbl, Duration: int64(r.IntN(6))}})
	case k < 18:
		w.step++
		w.addLabelledNode()
	default:
		w.do()
	}
}

// TestRandomLabelledWorkloadsKeepInvariants runs node labels at random:
// the invariants hold after every step (each partition's usage is its
// containers', within its resources), recording nothing decides as
// recording everything, and a clone goes on as its source.
func TestRandomLabelledWorkloadsKeepInvariants(t *testing.T) {
	allocatedInLabel := false
	for seed := uint64(1); seed <= 20; seed++ {
		full := labelWorkload(t, seed, core.RecordFull)
		none := labelWorkload(t, seed, core.RecordNone)
		for i := 0; i < 300; i++ {
			full.stepLabels()
			none.stepLabels()
			full.s.TakeEvents()
			require.NoError(t, full.s.CheckInvariants(), "seed %d step %d", seed, full.step)
			require.NoError(t, none.s.CheckInvariants(), "seed %d step %d", seed, none.step)
			require.Equal(t, stateJSON(t, full.s), stateJSON(t, none.s), "seed %d step %d: the recording level changed a decision", seed, full.step)
			if i == 150 {
				c := full.s.Clone()
				require.Equal(t, stateJSON(t, full.s), stateJSON(t, c), "seed %d: the clone differs", seed)
			}
		}
		for _, q := range full.s.Queues() {
			for _, p := range q.Partitions {
				allocatedInLabel = allocatedInLabel || !p.Used.IsZero()
			}
		}
	}
	require.True(t, allocatedInLabel, "the workloads should use a labelled partition")
}
