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

// TestUserLimitsLessonNamesTheUserLimit: once the leaf is full and
// containers free up, the user-limits lesson's apps wait for their users'
// limits, not for the queue's maximum that held them while it was full:
// the queue let them through when room appeared, and the user limit gave
// the room to others.
func TestUserLimitsLessonNamesTheUserLimit(t *testing.T) {
	sc, err := lessons.Load("user-limits")
	require.NoError(t, err)
	p, err := scenarios.NewPlayer(sc)
	require.NoError(t, err)
	p.SetNarrate(false)
	for p.Pos() < 14 {
		p.Next()
	}
	v := byApp(Explain(p.Scheduler(), 1))["hillegas-app"]
	require.Equal(t, UserLimit, v.Rule, v.Sentence)
	require.Contains(t, v.Sentence, "hillegas's user limit in root.finance-wizards.thrifty-treasurers")
}
