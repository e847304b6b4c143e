package protocol

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/scenarios/lessons"
	"yarnplay/scenarios/snapshot"
	"yarnplay/scenarios/why"
)

// handle sends c through the wire both ways, as the worker and the page
// do: the command encoded and decoded, the reply too.
func handle(t *testing.T, sv *Server, rw *ReplyWriter, rr *ReplyReader, c Command) Reply {
	t.Helper()
	data, err := EncodeCommand(1, c)
	require.NoError(t, err)
	_, got, err := DecodeCommand(data)
	require.NoError(t, err)
	require.Equal(t, c, got)
	_, rep, err := rr.Decode(rw.Encode(1, sv.Handle(got)))
	require.NoError(t, err)
	return rep
}

// The new commands' arguments come back as they went.
func TestAnswerCommandsRoundTrip(t *testing.T) {
	for _, c := range []Command{
		{Op: OpImportSnapshot, Files: []snapshot.File{{Name: "apps.json", Data: []byte(`{"apps":null}`)}, {Name: "nodes.xml", Data: []byte("<nodes/>")}}},
		{Op: OpRestoreUndo, Point: &Point{Name: "a.yaml", Data: []byte("name: a\n"), Lesson: "acls", Step: 3, Selected: "root.a"}},
		{Op: OpImportXMLText, Text: "<configuration/>"},
		{Op: OpRestoreSaved, Saved: `{"version":1}`},
		{Op: OpWhy, App: "app_2"},
		{Op: OpUndoPoint}, {Op: OpExportSnapshot},
	} {
		data, err := EncodeCommand(3, c)
		require.NoError(t, err)
		_, got, err := DecodeCommand(data)
		require.NoError(t, err)
		require.Equal(t, c, got)
	}
}

// An undo point, read back across the wire, brings the work back at its
// step with its selection, after the work was replaced.
func TestUndoPointBringsTheWorkBack(t *testing.T) {
	s := store.New()
	sv := NewServer(s)
	var rw ReplyWriter
	var rr ReplyReader
	do := func(c Command) Reply { return handle(t, sv, &rw, &rr, c) }
	do(Command{Op: OpOpen, Name: "elastic-borrowing"})
	do(Command{Op: OpJump, Step: 12})
	sel := s.Frame().Queues[len(s.Frame().Queues)-1].Path
	do(Command{Op: OpSelect, Queue: sel})
	before := *s.Frame()

	rep := do(Command{Op: OpUndoPoint})
	require.Empty(t, rep.Err)
	require.Nil(t, rep.Frame, "a question publishes no frame")
	p, err := PointOf(rep)
	require.NoError(t, err)
	require.Equal(t, Point{Name: before.Title + ".yaml", Data: p.Data, Lesson: "elastic-borrowing", Step: 12, Selected: sel}, p)

	do(Command{Op: OpBlank})
	require.NotEqual(t, before.Steps, s.Frame().Steps)
	rep = do(Command{Op: OpRestoreUndo, Point: &p})
	require.Empty(t, rep.Err)
	f := rr.Last()
	require.Equal(t, before.Steps, f.Steps)
	require.Equal(t, 12, f.Step)
	require.Equal(t, sel, f.Selected)
	require.Equal(t, "elastic-borrowing", f.Lesson)

	rep = do(Command{Op: OpRestoreUndo, Point: &Point{Name: "bad.yaml", Data: []byte("steps: [")}})
	require.NotEmpty(t, rep.Err, "a point that does not parse is refused")
	require.Equal(t, before.Steps, s.Frame().Steps, "and the work stays")
	require.Contains(t, sv.Handle(Command{Op: OpRestoreUndo}).Err, "without")

	_, err = PointOf(Reply{Data: []byte("{")})
	require.Error(t, err)
}

// Why answers one application's verdict, the one store.Why gives, and
// nothing for an application that does not wait.
func TestWhyAnswersTheStoresVerdict(t *testing.T) {
	s := store.New()
	sv := NewServer(s)
	var rw ReplyWriter
	var rr ReplyReader
	handle(t, sv, &rw, &rr, Command{Op: OpOpen, Name: "user-limits"})
	handle(t, sv, &rw, &rr, Command{Op: OpJump, Step: 14})
	var want *why.Verdict
	for _, v := range s.Why() {
		if v.App == "hillegas-app" {
			want = &v
		}
	}
	require.NotNil(t, want)
	rep := handle(t, sv, &rw, &rr, Command{Op: OpWhy, App: "hillegas-app"})
	got, err := VerdictOf(rep)
	require.NoError(t, err)
	require.Equal(t, want, got)
	require.Equal(t, why.UserLimit, got.Rule)

	got, err = VerdictOf(handle(t, sv, &rw, &rr, Command{Op: OpWhy, App: "no-such-app"}))
	require.NoError(t, err)
	require.Nil(t, got)
	_, err = VerdictOf(Reply{Data: []byte("[")})
	require.Error(t, err)
}

func snapshotFiles(t *testing.T, names ...string) []snapshot.File {
	t.Helper()
	var files []snapshot.File
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join("..", "scenarios", "snapshot", "testdata", "rules", n))
		require.NoError(t, err)
		files = append(files, snapshot.File{Name: n, Data: data})
	}
	return files
}

// A snapshot imports across the wire, with its assumptions in the frame;
// its export comes back as the REST responses, which import again; a
// broken one is refused and the work stays.
func TestSnapshotsCross(t *testing.T) {
	s := store.New()
	sv := NewServer(s)
	var rw ReplyWriter
	var rr ReplyReader
	do := func(c Command) Reply { return handle(t, sv, &rw, &rr, c) }
	rep := do(Command{Op: OpImportSnapshot, Files: snapshotFiles(t, "apps.json", "nodes.json", "scheduler.json")})
	require.Empty(t, rep.Err)
	f := rr.Last()
	require.Equal(t, "cluster snapshot", f.Title)
	require.NotEmpty(t, f.Assumptions, "the assumptions cross with the frame")
	require.Equal(t, s.Frame().Assumptions, f.Assumptions)

	rep = do(Command{Op: OpExportSnapshot})
	require.Empty(t, rep.Err)
	files, err := FilesOf(rep)
	require.NoError(t, err)
	want, err := s.ExportSnapshot()
	require.NoError(t, err)
	require.Equal(t, want, files)

	again := NewServer(store.New())
	require.Empty(t, again.Handle(Command{Op: OpImportSnapshot, Files: files}).Err)
	require.Equal(t, len(s.Frame().Apps), len(again.Store().Frame().Apps))

	steps := s.Frame().Steps
	rep = do(Command{Op: OpImportSnapshot, Files: []snapshot.File{{Name: "apps.json", Data: []byte("{")}}})
	require.Contains(t, rep.Err, "snapshot")
	require.Equal(t, steps, s.Frame().Steps)
	_, err = FilesOf(Reply{Data: []byte("x")})
	require.Error(t, err)
}

// Pasted XML is read as text; saved work that opens is restored, and saved
// work that does not says why, leaving the work; OpOpen says which of the
// link, the saved work or the lesson opened.
func TestOpeningSaysWhatOpened(t *testing.T) {
	s := store.New()
	sv := NewServer(s)
	o := OpenedOf(sv.Handle(Command{Op: OpOpen, Name: "acls"}))
	require.Equal(t, Opened{}, o)
	saved := sv.Handle(Command{Op: OpSave}).Text
	link := sv.Handle(Command{Op: OpLink}).Text

	rep := sv.Handle(Command{Op: OpImportXMLText, Text: `<?xml version="1.0" encoding="ISO-8859-1"?><configuration><property><name>yarn.scheduler.capacity.root.queues</name><value>default,é</value></property></configuration>`})
	require.NotEmpty(t, rep.Err, "a queue named é is refused, so the text was read")
	require.Empty(t, sv.Handle(Command{Op: OpImportXMLText, Text: `<configuration><property><name>yarn.scheduler.capacity.root.queues</name><value>default</value></property><property><name>yarn.scheduler.capacity.root.default.capacity</name><value>100</value></property></configuration>`}).Err)

	other := NewServer(store.New())
	require.Equal(t, Opened{Link: true}, OpenedOf(other.Handle(Command{Op: OpOpen, Text: link, Saved: saved})))
	require.Equal(t, Opened{Restored: true}, OpenedOf(other.Handle(Command{Op: OpOpen, Saved: saved})))
	o = OpenedOf(other.Handle(Command{Op: OpOpen, Saved: `{"v":1,"link":"s=1.@@@"}`}))
	require.False(t, o.Restored)
	require.Contains(t, o.SavedErr, "saved work")
	require.Equal(t, lessons.Default(), other.Store().Frame().Lesson, "the default lesson opened instead")

	works := other.Store().Works()
	o = OpenedOf(other.Handle(Command{Op: OpRestoreSaved, Saved: `{"v":1,"link":"s=1.@@@"}`}))
	require.Contains(t, o.SavedErr, "saved work")
	require.Equal(t, works, other.Store().Works(), "the work stays")
	o = OpenedOf(other.Handle(Command{Op: OpRestoreSaved, Saved: saved}))
	require.Equal(t, Opened{Restored: true}, o)
	require.Equal(t, Opened{}, OpenedOf(Reply{Data: []byte("{")}))
}
