package protocol

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/scenarios"
	"yarnplay/scenarios/lessons"
)

// Every command comes back as it went, with its id.
func TestCommandsRoundTrip(t *testing.T) {
	yes := true
	for _, c := range []Command{
		{Op: OpJump, Step: 42},
		{Op: OpSelect, Queue: "root.a", Toggle: true},
		{Op: OpSubmit, Submit: &scenarios.Submit{App: "app_1", User: "ann", Queue: "a", AM: &scenarios.Res{MemoryMB: 1024, VCores: 1}}},
		{Op: OpRequest, Asks: []scenarios.Ask{{App: "app_1", Priority: 1, Resource: scenarios.Res{MemoryMB: 512, VCores: 1}, Count: 3, RelaxLocality: &yes}}},
		{Op: OpAddNodes, Nodes: &scenarios.NodeSpec{Name: "n{i}", Count: 4, MemoryMB: 4096}},
		{Op: OpSetGroups, User: "ann", Groups: []string{"dev", "ops"}},
		{Op: OpSetConfig, Conf: map[string]string{"yarn.scheduler.capacity.root.queues": "a"}},
		{Op: OpImportXML, Data: []byte("<configuration/>")},
		{Op: OpOpen, Name: "acls", Text: "s=1.abc", Saved: `{"v":1}`},
		{Op: OpAddNodes, Nodes: &scenarios.NodeSpec{Name: "g{i}", Count: 2, MemoryMB: 4096, Label: "gpu"}, Exclusive: true},
		{Op: OpSelectPartition, Name: "gpu"},
		{Op: OpResync},
		{Op: OpCanvas, N: 1280, Toggle: true, Node: "n7"},
	} {
		data, err := EncodeCommand(7, c)
		require.NoError(t, err)
		id, got, err := DecodeCommand(data)
		require.NoError(t, err)
		require.Equal(t, uint32(7), id)
		require.Equal(t, c, got)
	}
}

// A message of another version, of another kind, cut short, with bytes
// left over, or naming no command is refused with an error.
func TestMalformedMessagesAreRefused(t *testing.T) {
	good, err := EncodeCommand(1, Command{Op: OpFirst})
	require.NoError(t, err)
	other := append([]byte{Version + 1}, good[1:]...)
	_, _, err = DecodeCommand(other)
	require.ErrorIs(t, err, ErrVersion)
	require.ErrorContains(t, err, "reload the page")

	var rw ReplyWriter
	reply := rw.Encode(1, Reply{Text: "x"})
	_, _, err = DecodeCommand(reply)
	require.ErrorContains(t, err, "kind")

	for i := range good {
		_, _, err := DecodeCommand(good[:i])
		require.Error(t, err, "cut at %d", i)
	}
	_, _, err = DecodeCommand(append(good, 0))
	require.ErrorContains(t, err, "after the end")

	bad, err := EncodeCommand(1, Command{Op: "launch"})
	require.NoError(t, err)
	_, _, err = DecodeCommand(bad)
	require.ErrorContains(t, err, `no command "launch"`)

	var rr ReplyReader
	for i := range reply {
		_, _, err := rr.Decode(reply[:i])
		require.Error(t, err, "cut at %d", i)
	}
}

// equalFrames requires two frames to show the same, nil and empty
// slices and maps alike (the encoding does not tell them apart), the
// containers' localities included.
func equalFrames(t *testing.T, want, got *store.Frame) {
	t.Helper()
	norm := func(f *store.Frame) any {
		data, err := json.Marshal(f)
		require.NoError(t, err)
		var v any
		require.NoError(t, json.Unmarshal(data, &v))
		return dropEmpty(v)
	}
	require.Equal(t, norm(want), norm(got))
	require.Equal(t, len(want.Containers), len(got.Containers))
	for i := range want.Containers {
		require.Equal(t, want.Containers[i].Locality(), got.Containers[i].Locality())
	}
}

// dropEmpty makes empty lists and maps null.
func dropEmpty(v any) any {
	switch x := v.(type) {
	case []any:
		if len(x) == 0 {
			return nil
		}
		for i := range x {
			x[i] = dropEmpty(x[i])
		}
	case map[string]any:
		if len(x) == 0 {
			return nil
		}
		for k := range x {
			x[k] = dropEmpty(x[k])
		}
	}
	return v
}

// A page reading a worker's replies sees the frames the worker's store
// published, whatever the steps between them: forward, back, a jump, a
// selection, an edit that changes the queues, another lesson. Replies
// written over the last one's bytes (as the worker writes them) are the
// same bytes.
func TestFramesCrossAsTheStorePublishedThem(t *testing.T) {
	s := store.New()
	sv := NewServer(s)
	var rw, over ReplyWriter
	var rr ReplyReader
	var id uint32
	var out []byte
	do := func(c Command) {
		t.Helper()
		id++
		rep := sv.Handle(c)
		enc := rw.Encode(id, rep)
		out = over.AppendEncode(out[:0], id, rep)
		require.Equal(t, enc, out)
		_, got, err := rr.Decode(enc)
		require.NoError(t, err)
		require.Equal(t, rep.Err, got.Err)
		require.Equal(t, rep.Issue, got.Issue)
		require.Equal(t, rep.Played, got.Played)
		require.Equal(t, rep.Works, got.Works)
		require.Equal(t, rep.Took, got.Took)
		require.Equal(t, rep.Text, got.Text)
		require.Equal(t, len(rep.Data), len(got.Data))
		require.Equal(t, rep.Frame == nil, got.Frame == nil)
		equalFrames(t, sv.SentToPage(), rr.Last())
	}
	for _, l := range lessons.All()[:2] {
		do(Command{Op: OpOpen, Name: l.Slug})
		do(Command{Op: OpLast})
		do(Command{Op: OpBack})
		do(Command{Op: OpJump, Step: 2})
		f := s.Frame()
		if len(f.Queues) > 1 {
			do(Command{Op: OpSelect, Queue: f.Queues[len(f.Queues)-1].Path})
		}
		do(Command{Op: OpForwardTick})
		do(Command{Op: OpLink})
		do(Command{Op: OpExportXML})
	}
	do(Command{Op: OpSetConfig, Conf: map[string]string{"yarn.scheduler.capacity.root.queues": "a"}})
	do(Command{Op: OpBlank})
	do(Command{Op: OpTick, N: 2})
	do(Command{Op: OpSubmit, Submit: &scenarios.Submit{User: "ann", Queue: "default", AM: &scenarios.Res{MemoryMB: 1024, VCores: 1}}})
	do(Command{Op: OpRequest, Asks: []scenarios.Ask{{App: "app_1", Priority: 1, Resource: scenarios.Res{MemoryMB: 1024, VCores: 1}, Count: 20}}})
	do(Command{Op: OpTick, N: 1})
	do(Command{Op: OpFirst})
	do(Command{Op: OpLast})
}

// The history a frame carries is only what the reader lacks.
func TestFramesCarryOnlyNewHistory(t *testing.T) {
	s := store.New()
	sv := NewServer(s)
	require.Empty(t, sv.Handle(Command{Op: OpOpen, Name: "elastic-borrowing"}).Err)
	var rw ReplyWriter
	first := len(rw.Encode(1, sv.Handle(Command{Op: OpLast})))
	require.Empty(t, sv.Handle(Command{Op: OpTick, N: 1}).Err)
	var again ReplyWriter
	again.Encode(1, Reply{Frame: s.Frame()})
	sv.Handle(Command{Op: OpTick, N: 1})
	whole := len(ReplyWriter{}.encodeOnce(Reply{Frame: s.Frame()}))
	delta := len(again.Encode(2, Reply{Frame: s.Frame()}))
	require.Less(t, delta, whole, "the points the reader has are not sent again")
	require.Positive(t, first)
}

// A frame read keeps its history whatever the reader reads after it:
// going on shares the points' array, going back takes a new one, and no
// frame read before sees the points appended after it.
func TestAFrameReadKeepsItsHistory(t *testing.T) {
	s := store.New()
	sv := NewServer(s)
	var rw ReplyWriter
	var rr ReplyReader
	type seen struct {
		f    *store.Frame
		hist []store.HistoryPoint
	}
	var read []seen
	do := func(c Command) *store.Frame {
		rep := sv.Handle(c)
		require.Empty(t, rep.Err)
		_, got, err := rr.Decode(rw.Encode(1, rep))
		require.NoError(t, err)
		require.NotNil(t, got.Frame)
		read = append(read, seen{got.Frame, slices.Clone(got.Frame.History)})
		require.Len(t, got.Frame.History, got.Frame.Step+1)
		return got.Frame
	}
	do(Command{Op: OpOpen, Name: "elastic-borrowing"})
	arrays := map[*store.HistoryPoint]bool{}
	for range 16 {
		arrays[&do(Command{Op: OpTick, N: 1}).History[0]] = true
	}
	require.Less(t, len(arrays), 8, "going on shares the points")
	do(Command{Op: OpFirst})
	do(Command{Op: OpForward})
	do(Command{Op: OpForward})
	do(Command{Op: OpBack})
	do(Command{Op: OpBack})
	do(Command{Op: OpForward})
	do(Command{Op: OpForward})
	do(Command{Op: OpBack})
	// A new step from an earlier one: its point is not the old step's.
	do(Command{Op: OpSubmit, Submit: &scenarios.Submit{User: "ann", Queue: "pesky-testers", AM: &scenarios.Res{MemoryMB: 1024, VCores: 1}}})
	do(Command{Op: OpTick, N: 1})
	for i, r := range read {
		require.Equal(t, r.hist, r.f.History, "frame %d", i)
	}
}

// encodeOnce encodes a reply with a new writer.
func (ReplyWriter) encodeOnce(r Reply) []byte {
	var w ReplyWriter
	return w.Encode(1, r)
}

// The server answers the store's questions without a frame, and a draft
// Hadoop refuses with the queue and the property, leaving the frame.
func TestTheServerAnswersQuestions(t *testing.T) {
	s := store.New()
	sv := NewServer(s)
	sv.Handle(Command{Op: OpOpen, Name: "acls"})
	rep := sv.Handle(Command{Op: OpLink})
	require.Contains(t, rep.Text, "s=")
	require.Nil(t, rep.Frame)
	rep = sv.Handle(Command{Op: OpSave})
	require.Contains(t, rep.Text, `"lesson":"acls"`)
	saved := rep.Text

	conf := map[string]string{}
	for k, v := range s.Frame().Conf {
		conf[k] = v
	}
	f := s.Frame()
	conf["yarn.scheduler.capacity."+f.Queues[1].Path+".capacity"] = "150"
	rep = sv.Handle(Command{Op: OpSetConfig, Conf: conf})
	require.NotEmpty(t, rep.Err)
	require.NotNil(t, rep.Issue)
	require.Same(t, f, s.Frame(), "a refused draft leaves the frame")

	// The saved work opens on / and on its lesson's page, not on another's.
	other := NewServer(store.New())
	require.False(t, other.Handle(Command{Op: OpOpen, Saved: saved, Name: "user-limits"}).Played)
	require.Equal(t, "user-limits", other.Store().Frame().Lesson)
	other.Handle(Command{Op: OpOpen, Saved: saved})
	require.Equal(t, "acls", other.Store().Frame().Lesson)
	other.Handle(Command{Op: OpOpen, Text: "s=1.@@@", Saved: saved})
	require.Contains(t, other.Store().Frame().Err, "link")

	rep = other.Handle(Command{Op: "launch"})
	require.Contains(t, rep.Err, "no command")
	rep = other.Handle(Command{Op: OpSubmit})
	require.Contains(t, rep.Err, "without")
}

// The sequencer sends one command at a time and coalesces repeats; a
// command that is not a repeat always waits its turn.
func TestSequencerCoalesces(t *testing.T) {
	var sent []Op
	var dones []func(Reply)
	q := NewSequencer(clientFunc(func(c Command, done func(Reply)) {
		sent = append(sent, c.Op)
		dones = append(dones, done)
	}))
	var busy []bool
	q.Busy = func(b bool) { busy = append(busy, b) }
	got := 0
	for range 10 {
		q.Send(Command{Op: OpForwardTick, Repeat: true}, func(Reply) { got++ })
	}
	q.Send(Command{Op: OpSubmit}, nil)
	q.Send(Command{Op: OpSubmit, Repeat: true}, nil)
	q.Send(Command{Op: OpBack}, nil)
	q.Send(Command{Op: OpBack}, nil)
	require.Equal(t, 4, q.Pending())
	for len(dones) > 0 {
		d := dones[0]
		dones = dones[1:]
		d(Reply{})
	}
	require.Equal(t, []Op{OpForwardTick, OpForwardTick, OpSubmit, OpBack, OpBack}, sent)
	require.Equal(t, 2, got)
	require.Equal(t, []bool{true, true, true, true, true, false}, busy)
}

type clientFunc func(Command, func(Reply))

func (f clientFunc) Send(c Command, done func(Reply)) { f(c, done) }

// Ticks at the end of a work of many applications cross whole (the held
// key's work in the browser tests).
func TestTicksOfManyAppsCross(t *testing.T) {
	sc := &scenarios.Scenario{Version: 1, Name: "many apps",
		Config: map[string]string{"yarn.scheduler.capacity.root.queues": "a", "yarn.scheduler.capacity.root.a.capacity": "100"},
		Nodes:  []scenarios.NodeSpec{{Name: "n{i}", Count: 4, MemoryMB: 8192, VCores: 8}},
	}
	for i := range 120 {
		sc.Steps = append(sc.Steps, scenarios.Step{Submit: &scenarios.Submit{
			App: fmt.Sprint("app_", i), User: fmt.Sprint("u", i%4), Queue: "a",
		}})
	}
	link, err := scenarios.EncodeLink(sc, len(sc.Steps), "")
	require.NoError(t, err)
	s := store.New()
	sv := NewServer(s)
	var rw ReplyWriter
	var rr ReplyReader
	for i, c := range []Command{{Op: OpOpen, Text: link}, {Op: OpForwardTick}, {Op: OpForwardTick}, {Op: OpSave},
		{Op: OpForwardTick}, {Op: OpBack}, {Op: OpForwardTick, Repeat: true}} {
		rep := sv.Handle(c)
		require.Empty(t, rep.Err)
		_, _, err := rr.Decode(rw.Encode(uint32(i), rep))
		require.NoError(t, err, "after %s", c.Op)
		equalFrames(t, sv.SentToPage(), rr.Last())
	}
}
