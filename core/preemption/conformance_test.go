package preemption

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The conformance cases 46, 47 and 49 (copies of /work/shared/conformance in
// testdata), run through FromSpec and Round.

type scenario struct {
	Name   string                       `json:"name"`
	Config map[string]string            `json:"config"`
	Steps  []map[string]json.RawMessage `json:"steps"`
}

// parseSpec decodes a preemption_snapshot as the scenario runner would,
// rejecting unknown fields.
func parseSpec(data []byte) (SnapshotSpec, error) {
	var s SnapshotSpec
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(&s)
	return s, err
}

// settingsFromConfig reads the preemption keys the cases set (a test-only
// parser: the project parses them elsewhere).
func settingsFromConfig(t *testing.T, cfg map[string]string) Settings {
	s := DefaultSettings()
	const p = "yarn.resourcemanager.monitor.capacity.preemption."
	for k, v := range cfg {
		var err error
		switch k {
		case "yarn.resourcemanager.scheduler.monitor.enable":
			s.Enabled, err = strconv.ParseBool(v)
		case p + "observe_only":
			s.ObserveOnly, err = strconv.ParseBool(v)
		case p + "max_wait_before_kill":
			s.MaxWaitBeforeKillMS, err = strconv.ParseInt(v, 10, 64)
		case p + "monitoring_interval":
			s.MonitoringIntervalMS, err = strconv.ParseInt(v, 10, 64)
		case p + "total_preemption_per_round":
			var f float64
			f, err = strconv.ParseFloat(v, 32)
			s.TotalPreemptionPerRound = float32(f)
		case p + "max_ignored_over_capacity":
			s.MaxIgnoredOverCapacity, err = strconv.ParseFloat(v, 64)
		case p + "natural_termination_factor":
			s.NaturalTerminationFactor, err = strconv.ParseFloat(v, 64)
		default:
			require.False(t, strings.HasPrefix(k, p), "unhandled preemption key %s", k)
		}
		require.NoError(t, err, k)
	}
	return s
}

func TestConformanceCases(t *testing.T) {
	files, err := filepath.Glob("testdata/*_pp_*.json")
	require.NoError(t, err)
	require.Len(t, files, 3)
	want := map[string]map[string]int{
		"pp_proportional_preemption": {"root.a": 10, "root.b": 0, "root.c": 0, "root.d": 0},
		"pp_preempt_cycle":           {"root.a": 0, "root.b": 0, "root.c": 10},
		"pp_deadzone":                {"root.a": 0, "root.b": 0, "root.c": 0},
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		var sc scenario
		require.NoError(t, json.Unmarshal(data, &sc))
		t.Run(sc.Name, func(t *testing.T) {
			set := settingsFromConfig(t, sc.Config)
			require.True(t, set.Enabled)
			var snap *Snapshot
			var d Decision
			st := NewState()
			checked := 0
			for _, step := range sc.Steps {
				if raw, ok := step["preemption_snapshot"]; ok {
					spec, err := parseSpec(raw)
					require.NoError(t, err)
					snap, err = FromSpec(spec)
					require.NoError(t, err)
					st = NewState()
				}
				if raw, ok := step["preemption_round"]; ok {
					var r struct {
						NowMS int64 `json:"now_ms"`
					}
					require.NoError(t, json.Unmarshal(raw, &r))
					d = Round(snap, st, set, r.NowMS)
					require.Empty(t, d.Error)
				}
				if raw, ok := step["expect"]; ok {
					var e struct {
						Marked map[string]int `json:"preemption_marked"`
					}
					require.NoError(t, json.Unmarshal(raw, &e))
					got := markedPerQueue(d)
					sel := map[string]int{}
					for _, s := range d.Selected {
						sel[s.Queue]++
					}
					for q, n := range e.Marked {
						require.Equal(t, n, got[q], "marked in %s", q)
						require.Equal(t, n, sel[q], "selected in %s", q)
					}
					require.Equal(t, want[sc.Name], e.Marked, "the brief's expectation")
					checked++
				}
			}
			require.Equal(t, 1, checked)
		})
	}
}

// Case 46's queues as Hadoop computes them (SEMANTICS 11: ideal A 20, B 60,
// C 20, D 0) and the reasons the other queues yield nothing.
func TestConformanceProportionalDetails(t *testing.T) {
	data, err := os.ReadFile("testdata/46_pp_proportional_preemption.json")
	require.NoError(t, err)
	var sc scenario
	require.NoError(t, json.Unmarshal(data, &sc))
	spec, err := parseSpec(sc.Steps[0]["preemption_snapshot"])
	require.NoError(t, err)
	snap, err := FromSpec(spec)
	require.NoError(t, err)
	d := Round(snap, NewState(), settingsFromConfig(t, sc.Config), 0)
	ideal := map[string]int64{"root": 100, "root.a": 20, "root.b": 60, "root.c": 20, "root.d": 0}
	for q, v := range ideal {
		require.Equal(t, v, d.Queue(q).Ideal.MemoryMB, q)
	}
	a := d.Queue("root.a")
	require.Equal(t, int64(10), a.ToBePreempted.MemoryMB)
	require.Equal(t, int64(10), a.ResToObtain.MemoryMB)
	require.Equal(t, "", a.Reason)
	require.Equal(t, "ideal assignment keeps its usage", d.Queue("root.b").Reason)
	require.Equal(t, "under guarantee", d.Queue("root.c").Reason)
	// The youngest containers of the app go first.
	require.Len(t, d.Marked, 10)
	for i, m := range d.Marked {
		require.Equal(t, ContainerID(30-i), m.ContainerID)
		require.Equal(t, MarkForPreemption, m.Event)
	}
}
