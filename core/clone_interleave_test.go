package core_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// Clones of one scheduler are independent: two clones played in
// alternation (as the store's checkpoints and its current player are)
// reach, step by step, the states a third clone reaches played alone.
// An empty list a clone shared with its source (an application's
// reservations) once let one clone's append write into the other's.
func TestClonesPlayedInAlternationStayIndependent(t *testing.T) {
	for seed := uint64(1); seed <= 12; seed++ {
		w := newWorkload(t, seed)
		for range 200 {
			w.do()
		}
		fork := func() *workload {
			pcg := *w.pcg
			return &workload{t: t, pcg: &pcg, r: rand.New(&pcg), s: w.s.Clone(),
				apps: append([]string(nil), w.apps...), nodes: append([]string(nil), w.nodes...),
				leafs: w.leafs, step: w.step, added: w.added}
		}
		a, b, alone := fork(), fork(), fork()
		var sa, sb []string
		for range 60 {
			a.do()
			b.do()
			sa, sb = append(sa, stateJSON(t, a.s)), append(sb, stateJSON(t, b.s))
		}
		for i := range 60 {
			alone.do()
			want := stateJSON(t, alone.s)
			require.Equal(t, want, sa[i], "seed %d, step %d after the fork: the first of two clones", seed, i)
			require.Equal(t, want, sb[i], "seed %d, step %d after the fork: the second", seed, i)
		}
	}
}
