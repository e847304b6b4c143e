package scengen

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/core/resource"
	"yarnplay/scenarios"
)

// stats counts what the checked scenarios did, so that a test can hold
// the generator to covering every kind of step, refusal and decision.
type stats struct {
	mu        sync.Mutex
	scenarios int
	counts    map[string]int
}

func (s *stats) add(key string, n int) {
	if s.counts == nil {
		s.counts = map[string]int{}
	}
	s.counts[key] += n
}

func (s *stats) scenario(sc *scenarios.Scenario, calc resource.Calculator) {
	s.scenarios++
	if calc.Kind == resource.DominantKind {
		s.add("config dominant", 1)
	}
	for _, k := range []string{config.KeyACLEnable, config.KeyMonitorEnable} {
		if sc.Config[k] == "true" {
			s.add("config "+k, 1)
		}
	}
	s.add("config continue-look "+sc.Config[config.KeyReservationsContinueLook], 1)
	s.add("profile "+sc.Profile, 1)
}

func (s *stats) step(res scenarios.StepResult) {
	s.add("step "+res.Kind, 1)
	if res.Err != nil {
		s.add("refused "+res.Kind, 1)
	}
}

func (s *stats) event(e core.Event) {
	s.add("event "+string(e.Kind), 1)
	switch e.Kind {
	case core.EvAllocated:
		s.add("locality "+string(e.Locality), 1)
	case core.EvUnreserved, core.EvContainerFinished:
		s.add("reason "+string(e.Reason), 1)
	}
}

func (s *stats) merge(o *stats) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scenarios += o.scenarios
	for k, v := range o.counts {
		s.add(k, v)
	}
}

func (s *stats) String() string {
	keys := sortedKeys(s.counts)
	sort.Strings(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "%d scenarios\n", s.scenarios)
	for _, k := range keys {
		fmt.Fprintf(&b, "  %-40s %d\n", k, s.counts[k])
	}
	return b.String()
}

// requireVariety fails unless the scenarios covered every step kind,
// refusal, decision and configuration the generator is meant to produce.
func (s *stats) requireVariety(t *testing.T) {
	t.Helper()
	want := []string{
		"config dominant", "config " + config.KeyACLEnable, "config " + config.KeyMonitorEnable,
		"config continue-look true", "config continue-look false", "profile hadoop-2",
		"refused submit", "refused request", "refused refresh", "refused finish_app", "refused kill_app", "refused finish_container",
		"locality NODE_LOCAL", "locality RACK_LOCAL", "locality OFF_SWITCH",
		"reason " + string(core.ReasonContinueLooking), "reason " + string(core.ReasonNodeRemoved),
		"reason " + string(core.ReasonCompleted), "reason " + string(core.ReasonReleased), "reason " + string(core.ReasonAppFinished),
		"checked user limit", "checked refused step unchanged", "checked clone replay",
	}
	for _, k := range []core.EventKind{core.EvAllocated, core.EvReserved, core.EvReReserved, core.EvReservationFulfil, core.EvUnreserved,
		core.EvAppRejected, core.EvAppPending, core.EvAppRunning, core.EvAppFinished, core.EvAppKilled, core.EvQueueState,
		core.EvRefreshed, core.EvRefreshRefused, core.EvPreemptionMarked, core.EvPreemptionKilled, core.EvNodeRemoved, core.EvAttemptFailed} {
		want = append(want, "event "+string(k))
	}
	for _, k := range scenarios.StepKinds {
		// restore is an imported snapshot's first step, not generated: the
		// snapshot package's tests and fuzz target cover it.
		if k != scenarios.KindExpect && k != scenarios.KindPreemptionSnapshot && k != scenarios.KindPreemptionRound && k != scenarios.KindRestore {
			want = append(want, "step "+k)
		}
	}
	for _, k := range want {
		require.Positive(t, s.counts[k], "no generated scenario shows %q:\n%s", k, s)
	}
}
