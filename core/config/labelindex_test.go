package config

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// indexLabel reads a property name every way it reads as a queue's
// accessible-node-labels.<label>.<property>, as a look for the prefix
// of every queue would.
func TestLabelIndexReadsEveryQueueAPropertyNames(t *testing.T) {
	for _, c := range []struct {
		body string
		want map[string]map[string]bool
	}{
		{"root.a.accessible-node-labels.gpu.capacity", map[string]map[string]bool{"root.a": {"gpu": true}}},
		{"root.a.accessible-node-labels", map[string]map[string]bool{}},
		{"root.a.accessible-node-labels.gpu", map[string]map[string]bool{}},
		{"root.accessible-node-labels.x.accessible-node-labels.gpu.capacity", map[string]map[string]bool{
			"root":                          {"x": true},
			"root.accessible-node-labels.x": {"gpu": true},
		}},
	} {
		p := &parser{labels: map[string]map[string]bool{}}
		p.indexLabel(c.body)
		require.Equal(t, c.want, p.labels, c.body)
	}
}
