package store

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
	"yarnplay/scenarios"
	"yarnplay/scenarios/lessons"
)

// bigCluster is a scenario on more nodes than FullRecordHeartbeats, so that
// its ticks are big steps: apps on two leaves ask for more than the
// cluster holds, with containers that finish by themselves.
func bigCluster(nodes, apps int) *scenarios.Scenario {
	sc := &scenarios.Scenario{
		Version: 1, Name: "big",
		Config: map[string]string{
			"yarn.scheduler.capacity.root.queues":                       "a,b",
			"yarn.scheduler.capacity.root.a.capacity":                   "60",
			"yarn.scheduler.capacity.root.a.user-limit-factor":          "2",
			"yarn.scheduler.capacity.root.b.capacity":                   "40",
			"yarn.scheduler.capacity.root.b.minimum-user-limit-percent": "50",
		},
		Nodes: []scenarios.NodeSpec{{Name: "n{i}", Count: nodes, MemoryMB: 8192, VCores: 8}},
	}
	for i := range apps {
		sc.Steps = append(sc.Steps, scenarios.Step{Submit: &scenarios.Submit{
			App: fmt.Sprint("app_", i), User: fmt.Sprint("u", i%3), Queue: []string{"a", "b"}[i%2],
			AM: &scenarios.Res{MemoryMB: 1024, VCores: 1},
		}})
	}
	for i := range apps {
		sc.Steps = append(sc.Steps, scenarios.Step{Request: scenarios.Asks{{
			App: fmt.Sprint("app_", i), Priority: 1, Count: 40 * nodes / apps,
			Resource: scenarios.Res{MemoryMB: int64(1024 * (1 + i%3)), VCores: 1}, Duration: int64(2 + i%5),
		}}})
	}
	return sc
}

// frameNodes are the whole views of a frame's nodes.
func frameNodes(f *Frame) []core.NodeView {
	out := make([]core.NodeView, len(f.Nodes))
	for i := range f.Nodes {
		out[i] = f.Node(i)
	}
	return out
}

// A frame's nodes come without their containers, which the frame holds in
// brief: they expand into the scheduler's views of the nodes, step after
// step, empty nodes and reservations included.
func TestFrameNodesAreTheSchedulersNodes(t *testing.T) {
	lesson, err := lessons.Load("reservations")
	require.NoError(t, err)
	empty, busy, reserved := 0, 0, 0
	for _, sc := range []*scenarios.Scenario{lesson, bigCluster(30, 6)} {
		s := New()
		require.NoError(t, s.Load(sc, ""))
		for k := 0; k <= len(sc.Steps)+3; k++ {
			if k <= len(sc.Steps) {
				s.Jump(k)
			} else {
				require.NoError(t, s.Tick(1))
			}
			f := s.Frame()
			want := s.cur.Scheduler().Nodes()
			require.Len(t, f.NodeAt, len(f.Nodes)+1)
			for i := range f.Nodes {
				require.Nil(t, f.Nodes[i].Containers, "node %d", i)
				require.Len(t, f.NodeBriefs(i), len(want[i].Containers))
				if want[i].Reservation != nil {
					reserved++
				}
				if len(want[i].Containers) == 0 {
					empty++
				} else {
					busy++
				}
			}
			require.Equal(t, want, frameNodes(f), "%s, step %d", sc.Name, k)
		}
	}
	require.Positive(t, empty, "some frames have empty nodes")
	require.Positive(t, busy, "and nodes running containers")
	require.Positive(t, reserved, "and reservations")
}

// Steps added at the end share the work's steps, in place, and no
// scenario the store held before changes: not after a refused step, not
// after going back and adding another step there.
func TestStepsAddedAtTheEndLeaveEarlierWorkAlone(t *testing.T) {
	s := New()
	require.NoError(t, s.Load(bigCluster(4, 2), ""))
	s.Last()
	var docs []*scenarios.Scenario
	var texts []string
	keep := func() {
		docs = append(docs, s.Scenario())
		texts = append(texts, docJSON(t, s))
	}
	keep()
	for range 3 {
		require.NoError(t, s.Tick(1))
		keep()
	}
	n := len(docs)
	require.Same(t, &docs[n-2].Steps[0], &docs[n-1].Steps[0], "a tick at the end goes in place")

	require.Error(t, s.Heartbeat("nowhere"))
	require.NoError(t, s.Heartbeat("n1"))
	keep()
	require.Equal(t, "n1", s.Scenario().Steps[len(s.Scenario().Steps)-1].Heartbeat[0].Node)

	s.Back()
	s.Back()
	require.NoError(t, s.Heartbeat("n2"))
	keep()
	require.NoError(t, s.Tick(2))
	keep()
	steps := s.Scenario().Steps
	require.Equal(t, "n2", steps[len(steps)-2].Heartbeat[0].Node)

	for i, d := range docs {
		doc, err := d.CanonicalJSON()
		require.NoError(t, err)
		require.Equal(t, texts[i], string(doc), "scenario %d changed", i)
	}
}

// A step of more than FullRecordHeartbeats heartbeats is summed up rather
// than narrated, and makes the decisions a fully recorded one makes.
func TestBigStepsAreSummedUp(t *testing.T) {
	nodes := FullRecordHeartbeats + 1
	sc := bigCluster(nodes, 6)
	s := New()
	require.NoError(t, s.Load(sc, ""))
	s.Last()
	require.NoError(t, s.Tick(1))
	f := s.Frame()
	require.Equal(t, "tick", f.Kind)
	require.Empty(t, f.Events, "the big step's decisions are not recorded")
	require.Len(t, f.Narration, 3)
	require.Contains(t, f.Narration[0], fmt.Sprintf("%d node heartbeats in this step; simulated time is now tick 1.", nodes))
	require.Regexp(t, `^\d+ containers allocated, 0 containers completed, 0 reservations made\.$`, f.Narration[1])
	require.True(t, strings.HasPrefix(f.Narration[2], fmt.Sprintf("Steps of more than %d heartbeats are summed up", FullRecordHeartbeats)))

	// The same steps played by a bare player, recording everything.
	d := *sc
	one := 1
	d.Steps = append(append([]scenarios.Step(nil), sc.Steps...), scenarios.Step{Tick: &one})
	p, err := scenarios.NewPlayer(&d)
	require.NoError(t, err)
	for !p.Done() {
		require.NoError(t, p.Next().Err)
	}
	require.Equal(t, core.RecordFull, p.Scheduler().Record())
	require.Equal(t, p.Scheduler().Queues(), f.Queues)
	apps := p.Scheduler().Apps()
	for i := range apps {
		apps[i].Containers = nil // the frame's apps leave them to the nodes
	}
	require.Equal(t, apps, f.Apps)
	require.Equal(t, p.Scheduler().Nodes(), frameNodes(f))

	// A small step after it is narrated in full again.
	require.NoError(t, s.Heartbeat("n0"))
	require.NotEmpty(t, s.Frame().Events)
	require.Equal(t, "n0", s.Frame().HeartbeatNode)
}

// A tick added at the end plays on the current player (no clone), and the
// frames are those of the same steps replayed from the start.
func TestTicksAtTheEndPlayInPlace(t *testing.T) {
	sc := bigCluster(20, 4)
	s := New()
	require.NoError(t, s.Load(sc, ""))
	s.Last()
	cur := s.cur
	for range 3 {
		require.NoError(t, s.Tick(1))
		require.NoError(t, s.Heartbeat(""))
		require.Same(t, cur, s.cur, "the step played on the current player")
	}
	end := *s.Frame()
	again := New()
	require.NoError(t, again.Load(s.Scenario(), ""))
	again.Last()
	replayed := *again.Frame()
	replayed.Revision = end.Revision
	sameFrame(t, &end, &replayed, "replayed")

	// A refused step still changes nothing.
	require.Error(t, s.Heartbeat("nowhere"))
	require.Same(t, cur, s.cur)
	refused := *s.Frame()
	refused.Err = ""
	sameFrame(t, &end, &refused, "refused")
}

// Checkpoints are spaced by their cost: each is taken at the first step
// where the work since the last one (heartbeats, plus one per step)
// reaches the objects a clone copies over checkpointSpan. The spacing
// depends on the steps alone.
func TestCheckpointsAreSpacedByCost(t *testing.T) {
	defer func(n int64) { cloneFloor = n }(cloneFloor)
	cloneFloor = 0
	check := func(t *testing.T, s *Store) {
		t.Helper()
		for i := 1; i < len(s.cps); i++ {
			a, b := s.cps[i-1], s.cps[i]
			work := s.work(a.step, b.step)
			objects := objects(b.p.Scheduler(), s.recs[b.step])
			require.GreaterOrEqual(t, work, span(objects), "checkpoint %d at step %d", i, b.step)
		}
	}
	sc, err := lessons.Load(lessons.Default())
	require.NoError(t, err)
	s := New()
	require.NoError(t, s.Load(sc, ""))
	s.Last()
	check(t, s)

	// Many cheap steps on a big state: few checkpoints. 300 submits and
	// requests on 1,000 nodes make 600 steps, less than half the objects.
	big := bigCluster(1000, 300)
	s = New()
	require.NoError(t, s.Load(big, ""))
	s.Last()
	require.Len(t, s.cps, 1, "no checkpoint: the steps cost less than one")
	for range 12 {
		require.NoError(t, s.Tick(1))
	}
	check(t, s)
	var at []int
	for _, cp := range s.cps {
		at = append(at, cp.step)
	}
	again := New()
	require.NoError(t, again.Load(s.Scenario(), ""))
	again.Last()
	var at2 []int
	for _, cp := range again.cps {
		at2 = append(at2, cp.step)
	}
	require.Equal(t, at, at2, "the same steps, the same checkpoints")
	require.Greater(t, len(at), 1, "ticks of 1,000 nodes reach a checkpoint")
}

func TestThinKeepsTheStartTheNewestAndEveryOtherBetween(t *testing.T) {
	cps := func(objects ...int64) []checkpoint {
		out := []checkpoint{{step: 0}}
		for i, n := range objects {
			out = append(out, checkpoint{step: i + 1, objects: n})
		}
		return out
	}
	steps := func(cps []checkpoint) []int {
		var out []int
		for _, c := range cps {
			out = append(out, c.step)
		}
		return out
	}
	tests := []struct {
		name    string
		objects []int64
		limit   int64
		want    []int
	}{
		{"none after the start", nil, 10, []int{0}},
		{"within the limit", []int64{3, 3, 4}, 10, []int{0, 1, 2, 3}},
		{"the newest alone, however big", []int64{30}, 10, []int{0, 1}},
		{"one over: every other goes", []int64{3, 3, 3, 3}, 10, []int{0, 2, 4}},
		{"until within", []int64{2, 2, 2, 2, 2, 2, 2, 2}, 5, []int{0, 4, 8}},
		{"down to the newest", []int64{5, 5, 5}, 4, []int{0, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := cps(tt.objects...)
			saved := slices.Clone(in)
			require.Equal(t, tt.want, steps(thin(in, tt.limit)))
			require.Equal(t, saved, in, "the checkpoints given are left as they were")
		})
	}
}

// A long run of a small cluster keeps its checkpoints few: each clone
// holds at least cloneFloor objects' worth of blocks, and thinning counts
// them so.
func TestCheckpointsOfASmallClusterStayFew(t *testing.T) {
	sc := bigCluster(10, 10)
	s := New()
	require.NoError(t, s.Load(sc, ""))
	s.Last()
	for range 3000 {
		require.NoError(t, s.Tick(1))
	}
	require.LessOrEqual(t, int64(len(s.cps)-1), checkpointShare, "each holds a state's blocks (cloneFloor)")
	var total int64
	for _, c := range s.cps[1:] {
		total += c.objects
	}
	require.LessOrEqual(t, total, checkpointShare*s.furthest)
}

// Past checkpointShare, checkpoints are thinned, and going back still
// shows what the steps did.
func TestThinnedCheckpointsGoBackTheSame(t *testing.T) {
	defer func(n int64) { cloneFloor = n }(cloneFloor)
	cloneFloor = 0
	defer func(n int64) { checkpointShare = n }(checkpointShare)
	checkpointShare = 1000
	sc := bigCluster(40, 8)
	plain := New()
	require.NoError(t, plain.Load(sc, ""))
	plain.Last()
	for range 40 {
		require.NoError(t, plain.Tick(1))
	}
	require.Greater(t, len(plain.cps), 4)

	checkpointShare = 1
	thinned := New()
	require.NoError(t, thinned.Load(sc, ""))
	thinned.Last()
	for range 40 {
		require.NoError(t, thinned.Tick(1))
	}
	require.Less(t, len(thinned.cps), len(plain.cps))
	var total int64
	for _, c := range thinned.cps[1:] {
		total += c.objects
	}
	if len(thinned.cps) > 2 {
		require.LessOrEqual(t, total, checkpointShare*thinned.furthest, "within the share, or the newest alone")
	}
	for _, k := range []int{len(sc.Steps) + 40, 3, len(sc.Steps) + 1, len(sc.Steps) + 17, len(sc.Steps) + 39, 0} {
		plain.Jump(k)
		thinned.Jump(k)
		sameFrame(t, plain.Frame(), thinned.Frame(), fmt.Sprint("step ", k))
	}
}

// Going back far from the nearest checkpoint leaves one near the step gone
// to: stepping back again replays from there, and every step shows what
// a fresh replay shows.
func TestSteppingBackReplaysFromANearCheckpoint(t *testing.T) {
	// Many apps on few nodes: checkpoints some 30 ticks apart. Tick until
	// one is taken, then 20 ticks more.
	sc := bigCluster(100, 1000)
	s, ref := New(), New()
	require.NoError(t, s.Load(sc, ""))
	s.Last()
	ticks := 20
	for n := len(s.cps); len(s.cps) == n; ticks++ {
		require.NoError(t, s.Tick(1))
	}
	for range 20 {
		require.NoError(t, s.Tick(1))
	}
	// ref does the same, and goes to each step from the end.
	require.NoError(t, ref.Load(sc, ""))
	ref.Last()
	for range ticks {
		require.NoError(t, ref.Tick(1))
	}
	last := len(s.Scenario().Steps)
	cp := s.cps[len(s.cps)-1].step
	require.Equal(t, last-20, cp, "the newest checkpoint is 20 ticks back")
	var plays []int
	for k := last - 1; k >= last-5; k-- {
		before := s.played
		s.Back()
		plays = append(plays, s.played-before)
		require.Equal(t, k, s.Step())
		ref.Last()
		ref.Jump(k)
		sameFrame(t, ref.Frame(), s.Frame(), fmt.Sprint("back to step ", k))
	}
	require.NotNil(t, s.near)
	require.Greater(t, s.near.step, cp)
	require.Equal(t, last-1-cp, plays[0], "the first step back replays from the checkpoint")
	for i, n := range plays[1:] {
		require.Less(t, n, plays[0]/2, "step back %d replays from the near checkpoint: %v", i+2, plays)
	}

	// An edit before the near checkpoint drops it (the replay to the
	// edit may leave another, before it).
	edit := s.near.step - 1
	s.Jump(edit)
	require.NoError(t, s.Tick(1))
	if s.near != nil {
		require.LessOrEqual(t, s.near.step, edit)
	}
}

// sameFrame fails with the first field where two frames differ, not with
// the whole frames (megabytes of JSON at scale).
func sameFrame(t *testing.T, want, got *Frame, msg string) {
	t.Helper()
	wv, gv := reflect.ValueOf(*want), reflect.ValueOf(*got)
	for i := 0; i < wv.NumField(); i++ {
		a, _ := json.Marshal(wv.Field(i).Interface())
		b, _ := json.Marshal(gv.Field(i).Interface())
		if string(a) != string(b) {
			if len(a) > 300 {
				a = a[:300]
			}
			if len(b) > 300 {
				b = b[:300]
			}
			t.Fatalf("%s: the frames differ in %s:\n%s\n%s", msg, wv.Type().Field(i).Name, a, b)
		}
	}
}

// A step added at the end skips the whole validation only when the
// scenario is surely valid: whatever validAppend accepts, Validate accepts.
func TestValidAppendsAreValid(t *testing.T) {
	one, ten, zero, neg := 1, 10, 0, -1
	steps := []scenarios.Step{
		{Tick: &one}, {Tick: &ten}, {Tick: &zero}, {Tick: &neg},
		{Heartbeat: scenarios.Heartbeats{{Node: "n1"}}}, {Heartbeat: scenarios.Heartbeats{{Node: "n1", Times: -1}}},
		{Heartbeat: scenarios.Heartbeats{{Node: "nowhere"}}}, {Heartbeat: scenarios.Heartbeats{}},
		{Tick: &one, Error: scenarios.Texts{"boom"}},
		{Submit: &scenarios.Submit{App: "app_x", User: "u", Queue: "a"}},
	}
	accepted := 0
	for seed := range uint64(4) {
		prev := randomScenario(rand.New(rand.NewPCG(seed, 9)), 30)
		p, err := scenarios.NewPlayer(prev)
		require.NoError(t, err)
		for i := range steps {
			doc := *prev
			doc.Steps = append(slices.Clone(prev.Steps), steps[i])
			if validAppend(prev, &doc, len(prev.Steps), p.Scheduler()) {
				accepted++
				require.NoError(t, doc.Validate(), "seed %d, step %d", seed, i)
			}
			require.False(t, validAppend(prev, &doc, len(prev.Steps)-1, p.Scheduler()), "not an append")
		}
	}
	require.Equal(t, 4*3, accepted, "ticks of 1 and 10 and a heartbeat of n1")

	// At the limit of a run's heartbeats, the whole validation decides.
	near := &scenarios.Scenario{Version: 1, Config: map[string]string{"yarn.scheduler.capacity.root.queues": "default",
		"yarn.scheduler.capacity.root.default.capacity": "100"},
		Nodes: []scenarios.NodeSpec{{Name: "n{i}", Count: 100}}}
	times := scenarios.MaxStepHeartbeats
	for range scenarios.MaxHeartbeats/times - 1 {
		near.Steps = append(near.Steps, scenarios.Step{Heartbeat: scenarios.Heartbeats{{Node: "n0", Times: times}}})
	}
	// 49,999 heartbeats short of the limit.
	near.Steps = append(near.Steps, scenarios.Step{Heartbeat: scenarios.Heartbeats{{Node: "n0", Times: times/2 + 1}}})
	require.NoError(t, near.Validate())
	p, err := scenarios.NewPlayer(near)
	require.NoError(t, err)
	doc := *near
	doc.Steps = append(slices.Clone(near.Steps), scenarios.Step{Tick: &ten})
	require.True(t, validAppend(near, &doc, len(near.Steps), p.Scheduler()))
	require.NoError(t, doc.Validate())
	over := times / 2 / 100 // 50,000 heartbeats on 100 nodes
	doc.Steps[len(doc.Steps)-1] = scenarios.Step{Tick: &over}
	require.False(t, validAppend(near, &doc, len(near.Steps), p.Scheduler()))
	require.ErrorContains(t, doc.Validate(), "node heartbeats in all")

	// At the limit of steps too: a link of one more would not load.
	full := &scenarios.Scenario{Version: 1, Config: near.Config, Nodes: []scenarios.NodeSpec{{Name: "n0"}}}
	for range scenarios.MaxSteps {
		full.Steps = append(full.Steps, scenarios.Step{Tick: &one})
	}
	require.NoError(t, full.Validate())
	doc = *full
	doc.Steps = append(slices.Clone(full.Steps), scenarios.Step{Tick: &one})
	require.False(t, validAppend(full, &doc, len(full.Steps), p.Scheduler()))
	require.ErrorContains(t, doc.Validate(), fmt.Sprintf("%d steps; the limit is %d steps", scenarios.MaxSteps+1, scenarios.MaxSteps))
}

// The checkpoints after the start and near hold at most checkpointShare
// times the objects of the furthest state: past it, the newest after the
// step gone to go, then every other checkpoint (thin), then near if a
// checkpoint newer than it is left; near and a newest before it are kept,
// beyond the share.
func TestFitKeepsTheCheckpointsWithinTheShare(t *testing.T) {
	defer func(n int64) { checkpointShare = n }(checkpointShare)
	checkpointShare = 1
	steps := func(s *Store) (cps []int, near int) {
		for _, c := range s.cps {
			cps = append(cps, c.step)
		}
		near = -1
		if s.near != nil {
			near = s.near.step
		}
		return cps, near
	}
	tests := []struct {
		name     string
		objects  []int64 // of the checkpoints after the start, at steps 10, 20, ...
		near     int     // its step (objects 4), -1 none
		at       int
		wantCps  []int
		wantNear int
	}{
		{"within", []int64{3, 3}, -1, 30, []int{0, 10, 20}, -1},
		{"thinned", []int64{3, 3, 3, 3}, -1, 50, []int{0, 20, 40}, -1},
		{"the newest after the step goes", []int64{7}, 5, 8, []int{0}, 5},
		{"the newest before near stays", []int64{7}, 15, 20, []int{0, 10}, 15},
		{"room for both", []int64{5}, 5, 8, []int{0, 10}, 5},
		{"thinned, leaving room for near", []int64{3, 3, 3}, 35, 40, []int{0, 20, 30}, 35},
		{"a newer checkpoint than near drops it", []int64{7}, 5, 20, []int{0, 10}, -1},
		{"after the step first, then thinned", []int64{3, 3, 3, 3}, 25, 26, []int{0, 10, 20}, 25},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Store{furthest: 10, cps: []checkpoint{{step: 0}}}
			for i, n := range tt.objects {
				s.cps = append(s.cps, checkpoint{step: 10 * (i + 1), objects: n})
			}
			if tt.near >= 0 {
				s.near = &checkpoint{step: tt.near, objects: 4}
			}
			saved := slices.Clone(s.cps)
			in := s.cps
			s.fit(tt.at)
			cps, near := steps(s)
			require.Equal(t, tt.wantCps, cps)
			require.Equal(t, tt.wantNear, near)
			require.Equal(t, saved, in, "the checkpoints given are left as they were")
		})
	}
}
