package protocol

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/core"
	"yarnplay/core/resource"
	"yarnplay/scenarios"
)

// fill sets every exported field reachable from v to a value of its own
// (strings, numbers, true, lists and maps of two, pointers to filled
// values), so that a field the codec forgets cannot go unnoticed.
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprint("s", *n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int32, reflect.Int64:
		v.SetInt(int64(*n))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(*n) + 0.25)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), n)
			}
		}
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fill(s.Index(i), n)
		}
		v.Set(s)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), n)
		v.Set(p)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for range 2 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(k, n)
			fill(e, n)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	default:
		panic("fill: no value for " + v.Type().String())
	}
}

// filledFrame is a frame with every field set, and its lists consistent
// (node i's containers, applications in range).
func filledFrame() *store.Frame {
	f := &store.Frame{}
	n := 0
	fill(reflect.ValueOf(f).Elem(), &n)
	f.NodeAt = []int{0, 1, 2}
	for i := range f.Reserved {
		f.Reserved[i].Node = i
	}
	for i := range f.Containers {
		f.Containers[i].App = int32(i)
		f.Containers[i] = f.Containers[i].WithLocality(core.RackLocal)
	}
	return f
}

// Every field of a frame, down to a user's in a queue and an ask's
// locations, crosses: a field added to a view without its place in the
// codec fails here by name.
func TestEveryFieldOfAFrameCrosses(t *testing.T) {
	f := filledFrame()
	var rw ReplyWriter
	var rr ReplyReader
	_, rep, err := rr.Decode(rw.Encode(1, Reply{Frame: f}))
	require.NoError(t, err)
	require.Equal(t, f, rep.Frame)
	require.Equal(t, core.RackLocal, rep.Frame.Containers[1].Locality())

	// Again, changed: the delta carries every field too.
	g := filledFrame()
	g.Queues = append([]core.QueueView(nil), g.Queues...)
	g.Queues[1].Users[0].AMLimit.MemoryMB++
	g.Apps = append([]core.AppView(nil), g.Apps...)
	g.Apps[0].FinishTick++
	g.Nodes = append(g.Nodes, g.Nodes[0])
	g.NodeUsed = append(g.NodeUsed, g.NodeUsed[0])
	g.NodeUsed[0].VCores++
	g.Containers = append(g.Containers, g.Containers[0])
	g.NodeAt = append(g.NodeAt, 3)
	_, rep, err = rr.Decode(rw.Encode(2, Reply{Frame: g}))
	require.NoError(t, err)
	require.Equal(t, g, rep.Frame)
}

// manyApps is a scenario of four nodes and n applications in one queue,
// each asking for containers that run two ticks.
func manyApps(n int) *scenarios.Scenario {
	sc := &scenarios.Scenario{Version: 1, Name: "many apps",
		Config: map[string]string{"yarn.scheduler.capacity.root.queues": "a,b",
			"yarn.scheduler.capacity.root.a.capacity": "50", "yarn.scheduler.capacity.root.b.capacity": "50"},
		Nodes: []scenarios.NodeSpec{{Name: "n{i}", Count: 40, MemoryMB: 8192, VCores: 8}},
	}
	var asks scenarios.Asks
	for i := range n {
		app := fmt.Sprint("app_", i)
		sc.Steps = append(sc.Steps, scenarios.Step{Submit: &scenarios.Submit{
			App: app, User: fmt.Sprint("u", i%7), Queue: []string{"a", "b"}[i%2],
		}})
		asks = append(asks, scenarios.Ask{App: app, Priority: 1, Count: 4,
			Resource: scenarios.Res{MemoryMB: 1024, VCores: 1}, Duration: int64(1 + i%40)})
	}
	return append1(sc, scenarios.Step{Request: asks})
}

func append1(sc *scenarios.Scenario, st scenarios.Step) *scenarios.Scenario {
	sc.Steps = append(sc.Steps, st)
	return sc
}

// sliceOf is a list's array, to tell a shared list from an equal one.
func sliceOf[T any](s []T) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(s)) }

// A tick crosses as what changed: far fewer bytes than the whole frame,
// read back to the frame the store published; a step that changes no
// state (a selection) shares the page's lists instead of copying them.
func TestFramesCrossAsDeltas(t *testing.T) {
	s := store.New()
	require.NoError(t, s.Load(manyApps(400), ""))
	sv := NewServer(s)
	var rw ReplyWriter
	var rr ReplyReader
	cross := func(c Command) int {
		t.Helper()
		rep := sv.Handle(c)
		require.Empty(t, rep.Err)
		data := rw.Encode(1, rep)
		_, _, err := rr.Decode(data)
		require.NoError(t, err, "after %s", c.Op)
		equalFrames(t, sv.SentToPage(), rr.Last())
		return len(data)
	}
	cross(Command{Op: OpLast})
	for range 3 {
		cross(Command{Op: OpForwardTick})
	}
	// One more application: the frame carries it and what it changed
	// (its queue, the users), not the state it left alone.
	delta := cross(Command{Op: OpSubmit, Submit: &scenarios.Submit{App: "late", User: "u1", Queue: "a"}})
	whole := len(ReplyWriter{}.encodeOnce(Reply{Frame: s.Frame()}))
	require.Less(t, 10*delta, whole, "a step's frame is a delta: %d bytes of %d", delta, whole)

	before := rr.Last()
	sel := cross(Command{Op: OpSelect, Queue: "root.a"})
	after := rr.Last()
	require.Equal(t, "root.a", after.Selected)
	// The queues are the last frame's but for the users the page holds:
	// root.b's lane is no longer shown (store.Frame.ForPage).
	require.Less(t, 2*sel, whole, "a selection's frame is a delta: %d bytes of %d", sel, whole)
	require.Len(t, after.Queues, len(before.Queues))
	for i := range after.Queues {
		q, was := after.Queues[i], before.Queues[i]
		if q.Path == "root.b" {
			require.NotEmpty(t, was.Users)
			require.NotEmpty(t, was.ActiveApps)
			require.Empty(t, q.Users, "the users of a queue the page does not show")
			require.Empty(t, q.ActiveApps, "the cards of a lane the page does not show")
			q.Users, q.ActiveApps = was.Users, was.ActiveApps
		}
		require.Equal(t, was, q, q.Path)
	}
	// The applications are the selection's (the table lists root.a's):
	// only the apps shown cross (store.Frame.ForPage).
	require.Less(t, len(after.Apps), 401)
	require.Equal(t, sliceOf(before.Nodes), sliceOf(after.Nodes))

	// Back and forth, a jump to the start and to the end: each frame reads
	// back as published, lists shrinking and growing.
	for _, c := range []Command{{Op: OpBack}, {Op: OpFirst}, {Op: OpJump, Step: 200}, {Op: OpLast}, {Op: OpBlank}, {Op: OpLast}} {
		cross(c)
	}
}

// A node's containers go as runs over the last frame's: kept, dropped,
// added, in any mix.
func TestContainerRuns(t *testing.T) {
	b := func(ids ...int64) []core.ContainerBrief {
		var out []core.ContainerBrief
		for _, id := range ids {
			out = append(out, core.ContainerBrief{ID: id, StartTick: id * 3})
		}
		return out
	}
	for _, c := range []struct{ old, now []core.ContainerBrief }{
		{nil, nil},
		{nil, b(1, 2)},
		{b(1, 2), nil},
		{b(1, 2, 3), b(1, 2, 3)},
		{b(1, 2, 3), b(2, 3, 4)},
		{b(1, 2, 3, 4), b(1, 3, 5)},
		{b(1, 2, 3), b(4, 5, 1)},
		{b(1, 2, 3), b(3, 2, 1)},
		{b(5, 6), b(1, 5, 2, 6, 3)},
	} {
		var w writer
		writeBriefs(&w, c.now, []int{0, len(c.now)}, c.old, []int{0, len(c.old)})
		r := reader{b: w.b}
		cs, at := readBriefs(&r, c.old, []int{0, len(c.old)})
		require.NoError(t, r.end())
		require.Equal(t, []int{0, len(c.now)}, at)
		require.Equal(t, len(c.now), len(cs))
		for i := range c.now {
			require.Equal(t, c.now[i], cs[i])
		}
	}
}

// A reply whose frame does not read leaves the page without frames to
// apply the next delta to: it says ErrResync, the next delta is refused,
// and once the writer starts again (OpResync) frames read again.
func TestAFrameThatDoesNotReadAsksForAFreshOne(t *testing.T) {
	s := store.New()
	require.NoError(t, s.Load(manyApps(40), ""))
	sv := NewServer(s)
	var rw ReplyWriter
	var rr ReplyReader
	_, _, err := rr.Decode(rw.Encode(1, sv.Handle(Command{Op: OpLast})))
	require.NoError(t, err)
	data := rw.Encode(2, sv.Handle(Command{Op: OpForwardTick}))
	_, _, err = rr.Decode(data[:len(data)-3])
	require.ErrorIs(t, err, ErrResync)
	_, _, err = rr.Decode(rw.Encode(3, sv.Handle(Command{Op: OpForwardTick})))
	require.ErrorIs(t, err, ErrResync, "the next delta has no frame to apply to")
	rw.Reset()
	_, rep, err := rr.Decode(rw.Encode(4, Reply{Frame: s.Frame()}))
	require.NoError(t, err)
	equalFrames(t, s.Frame(), rep.Frame)
}

// A queue whose configuration changed crosses with it; one whose usage
// alone changed, without it: each reads back as written.
func TestAQueueCrossesWithWhatChanged(t *testing.T) {
	q := core.QueueView{Path: "root.a", Name: "a", Parent: "root", Leaf: true, Capacity: 0.5, MaxCapacity: 1}
	f1 := &store.Frame{Queues: []core.QueueView{{Path: "root", Name: "root"}, q}}
	used := *f1
	used.Queues = slices.Clone(f1.Queues)
	used.Queues[1].Used = resource.New(1024, 1)
	grown := used
	grown.Queues = slices.Clone(used.Queues)
	grown.Queues[1].Capacity = 0.75
	var fw FrameWriter
	var fr FrameReader
	sizes := map[string]int{}
	for _, tc := range []struct {
		name string
		f    *store.Frame
	}{{"first", f1}, {"used", &used}, {"grown", &grown}} {
		var w writer
		fw.write(&w, tc.f)
		got := fr.read(&reader{b: w.b})
		require.Equal(t, tc.f.Queues, got.Queues, tc.name)
		sizes[tc.name] = len(w.b)
	}
	require.Less(t, sizes["used"], sizes["grown"], "the configuration crosses only when it changed")
}

// A queue whose one field changed, whichever, crosses with that change:
// the static part goes again exactly when it changed (queueDelta).
func TestEveryFieldOfAQueueCrossesWhenItChanges(t *testing.T) {
	base := core.QueueView{Path: "root.a", Name: "a", Parent: "root", Leaf: true, Children: []string{"root.a.x"},
		Capacity: 50, Weight: 1, SubmitACL: "*", Users: []core.UserView{{Name: "u"}}, ActiveApps: []string{"app_1"}}
	typ := reflect.TypeFor[core.QueueView]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		changed := base
		v := reflect.ValueOf(&changed).Elem().Field(i)
		switch v.Kind() {
		case reflect.String:
			v.SetString(v.String() + "+")
		case reflect.Bool:
			v.SetBool(!v.Bool())
		case reflect.Int, reflect.Int64:
			v.SetInt(v.Int() + 1)
		case reflect.Float32:
			v.SetFloat(v.Float() + 1)
		case reflect.Struct: // a resource
			v.Field(0).SetInt(v.Field(0).Int() + 1)
		case reflect.Slice:
			v.Set(reflect.Append(v, reflect.New(v.Type().Elem()).Elem()))
		default:
			t.Fatalf("field %s: a kind this test does not change (%s)", f.Name, v.Kind())
		}
		var fw FrameWriter
		var fr FrameReader
		for _, q := range []core.QueueView{base, changed, base} {
			var w writer
			fw.write(&w, &store.Frame{Queues: []core.QueueView{q}})
			r := &reader{b: w.b}
			got := fr.read(r)
			require.NoError(t, r.err, "QueueView.%s changed", f.Name)
			require.Equal(t, []core.QueueView{q}, got.Queues, "QueueView.%s changed", f.Name)
		}
	}
}
