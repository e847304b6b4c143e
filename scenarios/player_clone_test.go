package scenarios

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
)

// playerState renders what a reader sees of a player's scheduler.
func playerState(t *testing.T, p *Player) string {
	t.Helper()
	s := p.Scheduler()
	pre, _ := s.LastPreemption()
	data, err := json.Marshal([]any{s.Queues(), s.Apps(), s.Nodes(), s.Now(), s.Counters(), pre, p.Pos()})
	require.NoError(t, err)
	return string(data)
}

// TestSteppedPlayerClonesReplayIdentically clones the lessons and the
// example after every step, in steps of 1, 7 or 1000 objects or at once
// (in turn; with each of them after the middle step), and plays each
// clone to the end: it must narrate the same steps and end in the same
// state as the original.
func TestSteppedPlayerClonesReplayIdentically(t *testing.T) {
	files, err := filepath.Glob("lessons/*.yaml")
	require.NoError(t, err)
	files = append(files, "testdata/elastic.yaml")
	for _, name := range files {
		sc, err := Load(os.DirFS("."), name)
		require.NoError(t, err)
		p, err := NewPlayer(sc)
		require.NoError(t, err)
		var results []StepResult
		var players []*Player
		var states []string
		for {
			players, states = append(players, p.Clone()), append(states, playerState(t, p))
			if p.Done() {
				break
			}
			results = append(results, p.Next())
		}
		final := playerState(t, p)
		budgets := []int{1, 7, 1000, 0}
		for k, at := range players {
			for i, budget := range budgets {
				if k != len(players)/2 && i != k%len(budgets) {
					continue
				}
				c := at.BeginClone()
				for {
					_, err := c.Player()
					require.ErrorIs(t, err, core.ErrCloneUnfinished)
					done, err := c.Step(budget)
					require.NoError(t, err)
					if done {
						break
					}
				}
				twin, err := c.Player()
				require.NoError(t, err)
				require.Equal(t, states[k], playerState(t, twin), "%s: clone after step %d, budget %d", name, k, budget)
				for !twin.Done() {
					r := twin.Next()
					want := results[r.Step-1]
					require.Equal(t, want.Lines, r.Lines, "%s step %d from a clone after step %d, budget %d", name, r.Step, k, budget)
					require.Equal(t, want.Events, r.Events, "%s step %d from a clone after step %d, budget %d", name, r.Step, k, budget)
					require.Equal(t, len(want.Mismatches), len(r.Mismatches))
				}
				require.Equal(t, final, playerState(t, twin), "%s: clone after step %d, budget %d", name, k, budget)
			}
		}
	}
}

func TestAPlayerCloneNoticesThatThePlayerChanged(t *testing.T) {
	sc, err := Load(os.DirFS("lessons"), "preemption.yaml")
	require.NoError(t, err)
	changes := map[string]func(p *Player){
		"Next": func(p *Player) { p.Next() },
		"Rebase": func(p *Player) {
			sc := *p.Scenario()
			p.Rebase(&sc)
		},
		"SetNarrate": func(p *Player) { p.SetNarrate(false) },
		"Scheduler":  func(p *Player) { p.Scheduler().Tick() },
	}
	for name, change := range changes {
		for _, after := range []int{0, 5} {
			p, err := NewPlayer(sc)
			require.NoError(t, err)
			for range 3 {
				p.Next()
			}
			c := p.BeginClone()
			if after > 0 {
				done, err := c.Step(after)
				require.NoError(t, err)
				require.False(t, done)
			}
			change(p)
			done, err := c.Step(0)
			require.True(t, done)
			require.ErrorIs(t, err, core.ErrCloneSourceChanged, name)
			_, err = c.Player()
			require.ErrorIs(t, err, core.ErrCloneSourceChanged, name)
		}
	}
}
