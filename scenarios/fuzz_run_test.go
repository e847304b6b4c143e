package scenarios

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Budget of a scenario FuzzRun plays, so that every input runs quickly; the
// limits themselves are tested in TestLimits and TestLimitsInEveryForm.
const (
	fuzzRunHeartbeats = 500
	fuzzRunQueues     = 64
	fuzzRunAsked      = 10_000
)

// withinFuzzBudget reports whether the scenario is small enough to play in
// a fuzz run: few heartbeats, queues and asked containers.
func withinFuzzBudget(sc *Scenario) bool {
	v := &validator{sc: sc, apps: map[string]int{}, nodes: map[string]bool{}, everNodes: map[string]bool{}}
	v.top()
	v.steps()
	if v.heartbeats < 0 || v.heartbeats > fuzzRunHeartbeats {
		return false
	}
	if n, _, _ := countQueues(v.conf); n > fuzzRunQueues {
		return false
	}
	asked := 0
	for _, st := range sc.Steps {
		if st.Refresh != nil && countRefreshQueues(st.Refresh) > fuzzRunQueues {
			return false
		}
		for _, a := range st.Request {
			if asked += a.Count; a.Count > fuzzRunAsked || asked > fuzzRunAsked {
				return false
			}
		}
	}
	return true
}

// countRefreshQueues bounds the queues a refresh may define: it counts the
// `queues` lists it sets, as if each listed one new queue per name.
func countRefreshQueues(r *Refresh) int {
	n := 0
	for _, m := range []map[string]string{r.Set, r.ReplaceConfig} {
		for k, v := range m {
			if strings.HasSuffix(k, ".queues") {
				n += strings.Count(v, ",") + 1
			}
		}
	}
	return n
}

// visible renders what a reader sees of the player's scheduler.
func visible(p *Player) string {
	s := p.Scheduler()
	b, err := json.Marshal([]any{s.Queues(), s.Apps(), s.Nodes(), s.ClusterUsed(), s.Now()})
	if err != nil {
		panic(err)
	}
	return string(b)
}

// FuzzRun plays whatever Parse accepts (within a small budget): the player
// never panics, a scenario it cannot start fails with a *StartError, and
// the scheduler's bookkeeping holds (CheckInvariants) after every step, and
// a clone taken halfway and played on ends in the same state.
func FuzzRun(f *testing.F) {
	addSeedFiles(f)
	if files, err := filepath.Glob("lessons/*.yaml"); err == nil {
		for _, name := range files {
			if data, err := os.ReadFile(name); err == nil {
				f.Add(data)
			}
		}
	}
	f.Add(lines(append(append([]string{}, base...),
		"  - submit: {app: a1, user: u, queue: a, am: {memory_mb: 1024, vcores: 1}}",
		"  - request: [{app: a1, priority: 1, resource: {memory_mb: 3000, vcores: 1}, count: 4, locality: h1}, "+
			"{app: a1, priority: 1, resource: {memory_mb: 3000}, count: 4, locality: /default-rack}, {app: a1, priority: 1, resource: {memory_mb: 3000}, count: 4}]",
		"  - heartbeat: {node: h1, times: 3}",
		"  - add_node: {name: h2, rack: /r2, memory_mb: 2048}",
		"  - tick: 2",
		"  - refresh: {set: {yarn.scheduler.capacity.root.a.maximum-capacity: '50'}}",
		"  - remove_node: h1",
		"  - finish_container: {app: a1, count: 1}",
		"  - kill_app: {app: a1, by: u}",
	)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > fuzzInputLimit {
			return
		}
		sc, err := Parse("fuzz", data)
		if err != nil || !withinFuzzBudget(sc) {
			return
		}
		p, err := NewPlayer(sc)
		if err != nil {
			var se *StartError
			if !errors.As(err, &se) || se.Path == "" {
				t.Fatalf("a scenario that cannot start fails with %T %v, not a *StartError naming the part", err, err)
			}
			return
		}
		if err := p.Scheduler().CheckInvariants(); err != nil {
			t.Fatalf("at the start: %v", err)
		}
		var clone *Player
		for !p.Done() {
			if p.Pos() == len(sc.Steps)/2 {
				clone = p.Clone()
			}
			res := p.Next()
			if err := p.Scheduler().CheckInvariants(); err != nil {
				t.Fatalf("after step %d (%s): %v", res.Step, res.Kind, err)
			}
		}
		if clone == nil {
			return
		}
		for !clone.Done() {
			clone.Next()
		}
		if a, b := visible(p), visible(clone); a != b {
			t.Fatalf("played on from a clone taken at step %d, the scenario ends elsewhere:\n%s\n%s", len(sc.Steps)/2, a, b)
		}
	})
}
