package scenarios

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"yarnplay/core/preemption"
)

// snapshotSpec decodes a preemption_snapshot step's value into the
// preemption package's SnapshotSpec (strictly: unknown keys are refused).
func snapshotSpec(m map[string]any) (preemption.SnapshotSpec, error) {
	var spec preemption.SnapshotSpec
	data, err := json.Marshal(m)
	if err != nil {
		return spec, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&spec); err != nil {
		return spec, err
	}
	return spec, nil
}

// checkSnapshot reports what makes a preemption snapshot unusable.
func checkSnapshot(m map[string]any) error {
	spec, err := snapshotSpec(m)
	if err != nil {
		return err
	}
	if _, err := preemption.FromSpec(spec); err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "preemption_snapshot: "))
	}
	return nil
}
