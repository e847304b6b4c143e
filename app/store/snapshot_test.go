package store

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/scenarios/snapshot"
)

func snapshotFiles(t *testing.T, names ...string) []snapshot.File {
	t.Helper()
	var files []snapshot.File
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join("..", "..", "scenarios", "snapshot", "testdata", "rules", n))
		require.NoError(t, err)
		files = append(files, snapshot.File{Name: n, Data: data})
	}
	return files
}

// A snapshot opens after its restore step, with its assumptions in the
// frame; a broken one is refused naming the file and keeps the work.
func TestImportSnapshotOpensTheClusterAsItStands(t *testing.T) {
	s := New()
	require.NoError(t, s.ImportSnapshot(snapshotFiles(t, "apps.json", "nodes.json", "scheduler.json")))
	f := s.Frame()
	require.Equal(t, 1, f.Step, "the state after the restore")
	require.Equal(t, "cluster snapshot", f.Title)
	require.NotEmpty(t, f.Assumptions)
	require.NotEmpty(t, f.Apps)
	var used int64
	for _, u := range f.NodeUsed {
		used += u.MemoryMB
	}
	require.Positive(t, used, "the running containers are placed")

	rev := f.Revision
	files := snapshotFiles(t, "apps.json", "nodes.json")
	files = append(files, snapshot.File{Name: "scheduler.json", Data: []byte(`{"scheduler": {"schedulerInfo": {"type": "capacityScheduler", "queues": `)})
	err := s.ImportSnapshot(files)
	require.ErrorContains(t, err, "the snapshot does not load")
	require.ErrorContains(t, err, "scheduler.json")
	require.Equal(t, rev, s.Frame().Revision, "the work stays")
	require.Equal(t, "cluster snapshot", s.Frame().Title)
}

// The page's REST export reads back to the same state: the same queues'
// usage after the restore.
func TestExportSnapshotReadsBack(t *testing.T) {
	s := New()
	require.NoError(t, s.ImportSnapshot(snapshotFiles(t, "apps.json", "nodes.json", "scheduler.json")))
	want := s.Frame().Queues
	files, err := s.ExportSnapshot()
	require.NoError(t, err)
	require.Len(t, files, 5)
	back := New()
	require.NoError(t, back.ImportSnapshot(files))
	got := back.Frame().Queues
	require.Len(t, got, len(want))
	for i := range want {
		require.Equal(t, want[i].Path, got[i].Path)
		require.Equal(t, want[i].Used, got[i].Used, want[i].Path)
	}
}
