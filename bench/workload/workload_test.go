package workload_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/bench/workload"
	"yarnplay/core"
	"yarnplay/core/resource"
)

var update = flag.Bool("update", false, "rewrite testdata/states.golden")

// goldenSpecs are small versions of the benchmarks' workloads, with a few
// settings varied, whose every tick is pinned by testdata/states.golden:
// the optimisations of the scheduler's hot path must not change them.
func goldenSpecs() []workload.Spec {
	small := workload.Allocation()
	small.Nodes, small.Apps, small.Users, small.Fanout = 40, 300, 25, []int{4, 5}
	deep := small
	deep.Fanout, deep.Apps = []int{2, 5, 2}, 500
	deep.Seed = 2
	drc := small
	drc.Seed = 3
	drc.NodeVCores = 12
	drc.Extra = map[string]string{
		"yarn.scheduler.capacity.resource-calculator":                  resource.DominantCalculatorClass,
		"yarn.scheduler.capacity.reservations-continue-look-all-nodes": "false",
	}
	tight := small
	tight.Seed = 4
	tight.UserLimitFactor, tight.MinUserLimitPercent = 1, 100
	tight.Extra = map[string]string{
		"yarn.scheduler.capacity.root.q1.maximum-capacity":                         "30",
		"yarn.scheduler.capacity.per-node-heartbeat.maximum-offswitch-assignments": "3",
	}
	idle := workload.NoAllocation()
	idle.Fanout, idle.Apps, idle.Users = []int{20}, 40, 40
	return []workload.Spec{small, deep, drc, tight, idle}
}

func state(t *testing.T, s *core.Scheduler) []byte {
	b, err := json.Marshal([]any{s.Queues(), s.Apps(), s.Nodes(), s.ClusterResource(), s.ClusterUsed(), s.Now(), s.Counters()})
	require.NoError(t, err)
	return b
}

func TestWorkloadsMatchGolden(t *testing.T) {
	var b strings.Builder
	for i, sp := range goldenSpecs() {
		quiet := sp
		quiet.Record = core.RecordNone
		q, err := workload.New(quiet)
		require.NoError(t, err)
		w, err := workload.New(sp)
		require.NoError(t, err)
		states, record := sha256.New(), sha256.New()
		for tick := 0; tick < 120; tick++ {
			w.Prepare()
			w.Tick()
			ev, err := json.Marshal(w.S.TakeEvents())
			require.NoError(t, err)
			record.Write(ev)
			st := state(t, w.S)
			states.Write(st)
			require.NoError(t, w.S.CheckInvariants(), "spec %d tick %d", i, tick)
			q.Prepare()
			q.Tick()
			require.Nil(t, q.S.TakeEvents())
			require.Equal(t, string(st), string(state(t, q.S)), "spec %d tick %d: recording off scheduled differently", i, tick)
		}
		fmt.Fprintf(&b, "spec %d (%s): states %s record %s\n", i, sp, hex.EncodeToString(states.Sum(nil)), hex.EncodeToString(record.Sum(nil)))
	}
	path := filepath.Join("testdata", "states.golden")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, string(want), b.String(), "the benchmark workloads schedule differently")
}
