package store

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// With ReuseViews, a state's views of the containers and applications are
// written over the lists of the views before the last, also once the store
// has opened other work; without it, each state's lists are new. Either
// way the frames are the same.
func TestReuseViewsWritesOverTheViewsBeforeTheLast(t *testing.T) {
	var frames [2][]string
	for i, reuse := range []bool{false, true} {
		s := New()
		if reuse {
			s.ReuseViews()
		}
		for range 2 { // a second work: the store starts anew (start)
			require.NoError(t, s.Load(parse(t, twoQueues), ""))
			s.Last()
			var fs []*Frame
			for range 3 {
				require.NoError(t, s.ForwardTick())
				fs = append(fs, s.Frame())
				frames[i] = append(frames[i], frameJSON(t, s.Frame()))
			}
			require.NotEmpty(t, fs[0].Containers)
			require.NotEmpty(t, fs[0].Apps)
			sameCs := unsafe.SliceData(fs[0].Containers) == unsafe.SliceData(fs[2].Containers)
			sameApps := unsafe.SliceData(fs[0].Apps) == unsafe.SliceData(fs[2].Apps)
			require.Equal(t, reuse, sameCs, "the containers' list of the frame before the last")
			require.Equal(t, reuse, sameApps, "the applications' list of the frame before the last")
			require.NotSame(t, unsafe.SliceData(fs[1].Apps), unsafe.SliceData(fs[2].Apps), "the last frame's lists stay")
		}
	}
	require.Equal(t, frames[0], frames[1])
}
