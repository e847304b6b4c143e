package core_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/core/resource"
)

func nodesConf() *config.Conf {
	return config.FromMap(map[string]string{
		"yarn.scheduler.capacity.root.queues":             "a,b",
		"yarn.scheduler.capacity.root.a.capacity":         "30",
		"yarn.scheduler.capacity.root.b.capacity":         "70",
		"yarn.scheduler.capacity.root.a.maximum-capacity": "50",
	})
}

func nodeSpecs(n int) []core.NodeSpec {
	out := make([]core.NodeSpec, n)
	for i := range out {
		out[i] = core.NodeSpec{Name: fmt.Sprintf("n%d", i), Rack: fmt.Sprintf("/r%d", i%3), Capacity: resource.New(int64(4+i%5)*1024, int64(2+i%4))}
	}
	return out
}

// AddNodes leaves the scheduler exactly as AddNode one node at a time
// does, record included, and then schedules the same way.
func TestAddNodesEqualsAddingOneAtATime(t *testing.T) {
	one, err := core.New(nodesConf(), config.Hadoop3)
	require.NoError(t, err)
	batch, err := core.New(nodesConf(), config.Hadoop3)
	require.NoError(t, err)
	specs := nodeSpecs(7)
	for _, sp := range specs {
		require.NoError(t, one.AddNode(sp))
	}
	require.NoError(t, batch.AddNodes(specs))
	require.Equal(t, stateJSON(t, one), stateJSON(t, batch))
	require.Equal(t, one.TakeEvents(), batch.TakeEvents())
	am := resource.New(1024, 1)
	for _, s := range []*core.Scheduler{one, batch} {
		require.NoError(t, s.Submit(core.Submission{App: "app1", User: "u", Queue: "a", AM: &am}))
		require.NoError(t, s.Request([]core.Ask{{App: "app1", Priority: 1, Resource: resource.New(2048, 1), Count: 9, Locality: core.AnyLocation}}))
		s.Tick()
		s.Tick()
	}
	require.Equal(t, stateJSON(t, one), stateJSON(t, batch))
	require.Equal(t, one.TakeEvents(), batch.TakeEvents())
}

// A batch with one bad node registers none of them, and says which.
func TestAddNodesRefusesTheWholeBatch(t *testing.T) {
	tests := []struct {
		name  string
		specs []core.NodeSpec
		want  string
	}{
		{"no name", []core.NodeSpec{{Name: "x", Capacity: resource.New(1024, 1)}, {Capacity: resource.New(1024, 1)}}, "add_node: the node needs a name"},
		{"registered", []core.NodeSpec{{Name: "x", Capacity: resource.New(1024, 1)}, {Name: "n0", Capacity: resource.New(1024, 1)}}, "add_node: node n0 is already registered"},
		{"repeated", []core.NodeSpec{{Name: "x", Capacity: resource.New(1024, 1)}, {Name: "x", Capacity: resource.New(1024, 1)}}, "add_node: node x is already registered"},
		{"negative", []core.NodeSpec{{Name: "x", Capacity: resource.New(-1, 1)}}, "add_node: node x has a negative capacity"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := core.New(nodesConf(), config.Hadoop3)
			require.NoError(t, err)
			require.NoError(t, s.AddNodes(nodeSpecs(2)))
			s.TakeEvents()
			before := stateJSON(t, s)
			err = s.AddNodes(tt.specs)
			require.ErrorContains(t, err, tt.want)
			require.Equal(t, before, stateJSON(t, s), "a refused batch changed the scheduler")
			require.Empty(t, s.TakeEvents())
			require.Equal(t, 2, s.NumNodes())
		})
	}
}
