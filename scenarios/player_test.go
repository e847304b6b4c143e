package scenarios

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPlayerStepsAndClones(t *testing.T) {
	sc, err := Load(os.DirFS("testdata"), "elastic.yaml")
	require.NoError(t, err)
	p, err := NewPlayer(sc)
	require.NoError(t, err)
	require.Equal(t, 0, p.Pos())
	require.NotEmpty(t, p.Start().Lines)

	state := func(p *Player) string {
		s := p.Scheduler()
		data, err := json.Marshal([]any{s.Queues(), s.Apps(), s.Nodes(), s.Now()})
		require.NoError(t, err)
		return string(data)
	}
	var at3 string
	var clone *Player
	var results []StepResult
	for !p.Done() {
		r := p.Next()
		require.False(t, r.Stop, "step %d: %v", r.Step, r.Err)
		require.Empty(t, r.Mismatches)
		results = append(results, r)
		if p.Pos() == 3 {
			at3, clone = state(p), p.Clone()
		}
	}
	require.Equal(t, len(sc.Steps), len(results))
	require.Equal(t, at3, state(clone), "a clone does not move with its original")
	for clone.Pos() < len(sc.Steps) {
		r := clone.Next()
		require.Equal(t, results[r.Step-1].Lines, r.Lines, "a clone replays the same decisions")
	}
	require.Equal(t, state(p), state(clone))
	require.True(t, p.Next().Stop, "past the end")
}

func TestNewPlayerRefusesABadStart(t *testing.T) {
	sc := mustParse(t, []byte(`
config:
  yarn.scheduler.capacity.root.queues: a
  yarn.scheduler.capacity.root.a.capacity: 50
`))
	_, err := NewPlayer(sc)
	var se *StartError
	require.ErrorAs(t, err, &se)
	require.Equal(t, "config", se.Path)
	require.Contains(t, err.Error(), "Illegal capacity")
}
