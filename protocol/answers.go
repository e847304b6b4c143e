package protocol

import (
	"encoding/json"
	"fmt"

	"yarnplay/app/store"
	"yarnplay/scenarios"
	"yarnplay/scenarios/snapshot"
	"yarnplay/scenarios/why"
)

// Point is the work as it stands, kept so that one click brings it back
// (the page's undo): the scenario as its canonical file, the lesson it
// was, the step and the selection. OpUndoPoint answers one; OpRestoreUndo
// brings it back.
type Point struct {
	// Name is the file's name (the work's title, .yaml).
	Name     string `json:"name"`
	Data     []byte `json:"data"`
	Lesson   string `json:"lesson,omitempty"`
	Step     int    `json:"step,omitempty"`
	Selected string `json:"selected,omitempty"`
}

// Opened is what opening the work came to (OpOpen, OpRestoreSaved): a
// link opened, the saved work restored, or why the saved work did not
// open ("" when it did, or when there was none to open).
type Opened struct {
	Link     bool   `json:"link,omitempty"`
	Restored bool   `json:"restored,omitempty"`
	SavedErr string `json:"savedErr,omitempty"`
}

// answer puts v in rep.Data as JSON.
func answer(rep *Reply, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		rep.Err = fmt.Sprintf("protocol: the answer does not encode: %v", err)
		return
	}
	rep.Data = data
}

// read reads rep.Data as JSON into v; what names the answer in the error.
func read(rep Reply, what string, v any) error {
	if err := json.Unmarshal(rep.Data, v); err != nil {
		return fmt.Errorf("protocol: %s that does not decode: %w", what, err)
	}
	return nil
}

// PointOf reads OpUndoPoint's answer.
func PointOf(rep Reply) (Point, error) {
	var p Point
	err := read(rep, "an undo point", &p)
	return p, err
}

// OpenedOf reads OpOpen's and OpRestoreSaved's answer (nothing opened
// when the reply has none).
func OpenedOf(rep Reply) Opened {
	var o Opened
	if len(rep.Data) > 0 && read(rep, "an opening", &o) != nil {
		return Opened{}
	}
	return o
}

// VerdictOf reads OpWhy's answer: nil when the application does not wait.
func VerdictOf(rep Reply) (*why.Verdict, error) {
	if len(rep.Data) == 0 {
		return nil, nil
	}
	var v why.Verdict
	if err := read(rep, "a verdict", &v); err != nil {
		return nil, err
	}
	return &v, nil
}

// FilesOf reads OpExportSnapshot's answer.
func FilesOf(rep Reply) ([]snapshot.File, error) {
	var files []snapshot.File
	err := read(rep, "a snapshot", &files)
	return files, err
}

// undoPoint is the store's work now (no point when it does not export).
func undoPoint(s *store.Store) (Point, error) {
	f := s.Frame()
	if f == nil {
		return Point{}, fmt.Errorf("no work to keep")
	}
	data, err := s.ExportYAML()
	if err != nil {
		return Point{}, err
	}
	name := f.Title
	if name == "" {
		name = "scenario"
	}
	return Point{Name: name + ".yaml", Data: data, Lesson: f.Lesson, Step: f.Step, Selected: f.Selected}, nil
}

// restoreUndo brings p back, at its step with its selection.
func restoreUndo(s *store.Store, p Point) error {
	sc, err := scenarios.Parse(p.Name, p.Data)
	if err != nil {
		return err
	}
	if err := s.Load(sc, p.Lesson); err != nil {
		return err
	}
	s.Jump(p.Step)
	if p.Selected != "" {
		s.Select(p.Selected)
	}
	return nil
}

// verdict is why app waits at the step shown (nil when it does not).
func verdict(s *store.Store, app string) *why.Verdict {
	for _, v := range s.Why() {
		if v.App == app {
			return &v
		}
	}
	return nil
}
