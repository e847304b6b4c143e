package scenarios

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// A player that pauses within its big steps plays them exactly as one that
// does not, and pauses where it says.
func TestPausesDoNotChangeTheSteps(t *testing.T) {
	sc := mustParse(t, []byte(`
config:
  yarn.scheduler.capacity.root.queues: a,b
  yarn.scheduler.capacity.root.a.capacity: 60
  yarn.scheduler.capacity.root.b.capacity: 40
nodes:
  - {name: "n{i}", count: 5, memory_mb: 8192, vcores: 8}
steps:
  - submit: {app: app_1, user: alice, queue: a, am: {memory_mb: 1024, vcores: 1}}
  - request: {app: app_1, priority: 1, resource: {memory_mb: 1024, vcores: 1}, count: 30, duration: 2}
  - tick: 3
  - heartbeat: [{node: n1, times: 4}, n2, n3]
  - submit: {app: app_2, user: bob, queue: b, am: {memory_mb: 1024, vcores: 1}}
  - request: {app: app_2, priority: 1, resource: {memory_mb: 2048, vcores: 1}, count: 9}
  - tick: 2
`))
	plain, err := NewPlayer(sc)
	require.NoError(t, err)
	paused, err := NewPlayer(sc)
	require.NoError(t, err)
	pauses := 0
	paused.SetPause(2, func() { pauses++ })
	state := func(p *Player) string {
		s := p.Scheduler()
		data, err := json.Marshal([]any{s.Queues(), s.Apps(), s.Nodes(), s.Now()})
		require.NoError(t, err)
		return string(data)
	}
	want := []int{0, 0, 6, 3, 0, 0, 4} // ticks: 2 pauses in each 5-node round; heartbeats: after the 2nd, 4th and 6th
	for i := range sc.Steps {
		pauses = 0
		a, b := plain.Next(), paused.Next()
		require.Equal(t, a, b, "step %d", i+1)
		require.Equal(t, state(plain), state(paused), "step %d", i+1)
		require.Equal(t, want[i], pauses, "pauses in step %d", i+1)
	}
	off, err := NewPlayer(sc)
	require.NoError(t, err)
	off.SetPause(0, func() { t.Fatal("pausing is off") })
	for !off.Done() {
		off.Next()
	}
	require.Equal(t, state(plain), state(off))
}
