package why

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/scenarios"
	"yarnplay/scenarios/lessons"
)

// TestEveryLessonStep explains every step of every lesson: verdicts only
// for apps that wait, words from the vocabulary, a sentence each, and the
// rules the lessons teach among them.
func TestEveryLessonStep(t *testing.T) {
	valid := map[Rule]bool{None: true}
	for _, r := range Rules {
		valid[r] = true
	}
	seen := map[Rule]int{}
	for _, l := range lessons.All() {
		sc, err := lessons.Load(l.Slug)
		require.NoError(t, err)
		p, err := scenarios.NewPlayer(sc)
		require.NoError(t, err)
		p.SetNarrate(false)
		for !p.Done() {
			if r := p.Next(); r.Kind == scenarios.KindExpect {
				continue
			}
			s := p.Scheduler()
			for _, v := range Explain(s, 1) {
				require.True(t, valid[v.Rule], "%s step %d: %q", l.Slug, p.Pos(), v.Rule)
				require.NotEmpty(t, v.Sentence)
				app, ok := s.App(v.App)
				require.True(t, ok)
				require.Equal(t, app.State, v.State)
				seen[v.Rule]++
			}
		}
	}
	t.Logf("verdicts by rule over the lessons: %v", seen)
	for _, r := range []Rule{AMLimit, UserAMLimit, UserLimit, QueueMaxCapacity, Reserved} {
		require.Positive(t, seen[r], "the lessons should show %s", r)
	}
}
