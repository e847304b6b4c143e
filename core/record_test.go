package core_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
)

var levels = []struct {
	name  string
	level core.RecordLevel
}{{"full", core.RecordFull}, {"decisions", core.RecordDecisions}, {"none", core.RecordNone}}

// TestSchedulingIsTheSameAtEveryRecordLevel runs the workloads of
// states.golden at every recording level: the visible state after every
// step must hash to the golden file's, whatever is recorded.
func TestSchedulingIsTheSameAtEveryRecordLevel(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("testdata", "states.golden"))
	require.NoError(t, err)
	for _, l := range levels {
		var b strings.Builder
		for _, seed := range []uint64{3, 7, 11, 19} {
			w := newWorkload(t, seed)
			w.s.SetRecord(l.level)
			require.Equal(t, l.level, w.s.Record())
			h := sha256.New()
			for i := 0; i < 400; i++ {
				w.do()
				h.Write([]byte(stateJSON(t, w.s)))
			}
			fmt.Fprintf(&b, "seed %d: sha256 %s\n", seed, hex.EncodeToString(h.Sum(nil)))
		}
		require.Equal(t, string(want), b.String(), "recording level %s changed the scheduling", l.name)
	}
}

// TestRecordLevelsKeepWhatTheySay checks what each level records: the
// decisions are the full record without the walk, and none is nothing.
func TestRecordLevelsKeepWhatTheySay(t *testing.T) {
	walk := map[core.EventKind]bool{
		core.EvHeartbeat: true, core.EvAssignPass: true, core.EvHeartbeatDone: true, core.EvQueueVisit: true,
		core.EvQueueSkipped: true, core.EvChildOrder: true, core.EvAppConsidered: true, core.EvAppSkipped: true,
	}
	for seed := uint64(1); seed <= 8; seed++ {
		full, decisions, none := newWorkload(t, seed), newWorkload(t, seed), newWorkload(t, seed)
		for _, w := range []*workload{full, decisions, none} {
			w.s.TakeEvents()
		}
		decisions.s.SetRecord(core.RecordDecisions)
		none.s.SetRecord(core.RecordNone)
		for i := 0; i < 300; i++ {
			full.do()
			decisions.do()
			none.do()
			var want []core.Event
			for _, e := range full.s.TakeEvents() {
				if !walk[e.Kind] {
					want = append(want, e)
				}
			}
			require.Equal(t, want, decisions.s.TakeEvents(), "seed %d step %d", seed, i)
			require.Empty(t, none.s.TakeEvents(), "seed %d step %d", seed, i)
		}
		require.Equal(t, full.s.Counters(), none.s.Counters(), "seed %d", seed)
	}
}

// TestUnrecordedRunsMatchRecordedOnesStepByStep compares, after every step
// of many random workloads, a scheduler that records nothing (and so skips
// idle passes and replays idle leaf visits) with one that records
// everything (and so walks every time).
func TestUnrecordedRunsMatchRecordedOnesStepByStep(t *testing.T) {
	for seed := uint64(1); seed <= 60; seed++ {
		full, none := newWorkload(t, seed), newWorkload(t, seed)
		none.s.SetRecord(core.RecordNone)
		for i := 0; i < 300; i++ {
			full.do()
			none.do()
			require.Equal(t, stateJSON(t, full.s), stateJSON(t, none.s), "seed %d step %d", seed, i)
			require.NoError(t, none.s.CheckInvariants(), "seed %d step %d", seed, i)
		}
	}
}
