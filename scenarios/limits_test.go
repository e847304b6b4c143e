package scenarios

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core/config"
)

// chainConfig is a queue tree that is one path depth levels below root.
func chainConfig(depth int) map[string]string {
	m := map[string]string{}
	path := "root"
	for i := 1; i <= depth; i++ {
		name := fmt.Sprintf("q%d", i)
		m[capacityPrefix+path+".queues"] = name
		path += "." + name
		m[capacityPrefix+path+".capacity"] = "100"
	}
	return m
}

// wideConfig is n leaves under root.
func wideConfig(n int) map[string]string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("q%d", i)
	}
	return map[string]string{capacityPrefix + "root.queues": strings.Join(names, ","), capacityPrefix + "root.q0.capacity": "100"}
}

// asFile, asXML and asLink carry a scenario in each of the ways one reaches
// the loader: a scenario file with a config map, one with config_xml, and
// a share link.
func asFile(t *testing.T, sc *Scenario) error {
	t.Helper()
	data, err := sc.CanonicalJSON()
	require.NoError(t, err)
	_, err = Parse("limits.json", data)
	return err
}

func asXML(t *testing.T, sc *Scenario) error {
	t.Helper()
	x := *sc
	x.ConfigXML, x.Config = string(config.FromMap(sc.Config).XML()), nil
	y, err := x.YAML()
	require.NoError(t, err)
	_, err = Parse("limits.yaml", y)
	return err
}

func asLink(t *testing.T, sc *Scenario) error {
	t.Helper()
	link, err := EncodeLink(sc, 0, "")
	require.NoError(t, err)
	_, _, _, err = DecodeLink(link)
	return err
}

// asBuilt validates a scenario built in memory, as the playground's work
// is before it is saved in a link.
func asBuilt(t *testing.T, sc *Scenario) error {
	t.Helper()
	return sc.Validate()
}

// TestLimitsInEveryForm holds every limit on a scenario file, a
// configuration imported as XML, a share link and a scenario built in
// memory, with the message that names it; a scenario at the limit loads.
func TestLimitsInEveryForm(t *testing.T) {
	forms := map[string]func(*testing.T, *Scenario) error{"file": asFile, "xml": asXML, "link": asLink, "built": asBuilt}
	tick := func(n int) Step { return Step{Tick: &n} }
	for _, tc := range []struct {
		name    string
		ok, bad *Scenario
		msg     string
	}{
		{"queue depth", &Scenario{Config: chainConfig(MaxQueueDepth)}, &Scenario{Config: chainConfig(MaxQueueDepth + 1)},
			"config: queue root.q1.q2.q3.q4.q5.q6.q7.q8.q9.q10.q11.q12.q13.q14.q15.q16.q17 is 17 levels below root; the limit is 16 levels"},
		{"queue count", &Scenario{Config: wideConfig(MaxQueues - 1)}, &Scenario{Config: wideConfig(MaxQueues)},
			fmt.Sprintf("config: the configuration defines more than %d queues; the limit is %d queues", MaxQueues, MaxQueues)},
		{"queue depth after a refresh",
			&Scenario{Config: chainConfig(1), Steps: []Step{{Refresh: &Refresh{ReplaceConfig: chainConfig(MaxQueueDepth)}}}},
			&Scenario{Config: chainConfig(1), Steps: []Step{{Refresh: &Refresh{ReplaceConfig: chainConfig(MaxQueueDepth + 1)}}}},
			"steps[0].refresh: queue root.q1.q2.q3.q4.q5.q6.q7.q8.q9.q10.q11.q12.q13.q14.q15.q16.q17 is 17 levels below root"},
		{"nodes", &Scenario{Config: chainConfig(1), Nodes: []NodeSpec{{Name: "n{i}", Count: MaxNodes}}},
			&Scenario{Config: chainConfig(1), Nodes: []NodeSpec{{Name: "n{i}", Count: MaxNodes}}, Steps: []Step{{AddNode: &NodeSpec{Name: "x"}}}},
			"steps[0].add_node: more than 10000 nodes (counting every count and add_node); the limit is 10000 nodes"},
		{"steps", &Scenario{Config: chainConfig(1), Steps: make([]Step, MaxSteps)}, &Scenario{Config: chainConfig(1), Steps: make([]Step, MaxSteps+1)},
			fmt.Sprintf("steps: %d steps; the limit is %d steps", MaxSteps+1, MaxSteps)},
		{"heartbeats in a step",
			&Scenario{Config: chainConfig(1), Nodes: []NodeSpec{{Name: "n{i}", Count: 100}}, Steps: []Step{tick(MaxStepHeartbeats / 100)}},
			&Scenario{Config: chainConfig(1), Nodes: []NodeSpec{{Name: "n{i}", Count: 100}}, Steps: []Step{tick(MaxStepHeartbeats/100 + 1)}},
			"steps[0].tick: 100100 node heartbeats in one step (counting ticks times nodes); the limit is 100000 a step: split the step"},
	} {
		for _, sc := range []*Scenario{tc.ok, tc.bad} {
			for i := range sc.Steps {
				if sc.Steps[i].Kind() == "" {
					sc.Steps[i] = tick(1)
				}
			}
		}
		for form, load := range forms {
			if form == "xml" && !strings.HasPrefix(tc.name, "queue count") && tc.name != "queue depth" {
				continue // only the starting configuration is XML
			}
			t.Run(tc.name+"/"+form, func(t *testing.T) {
				require.NoError(t, load(t, tc.ok))
				err := load(t, tc.bad)
				require.ErrorContains(t, err, tc.msg)
			})
		}
	}
}

func TestNodeSizeAndAskLimits(t *testing.T) {
	_, err := Parse("n.yaml", lines("nodes: [{name: n0, memory_mb: 1099511627777}]"))
	require.ErrorContains(t, err, "nodes[0]: memory_mb and vcores must be at most 1099511627776 (2^40), the limit on a node's size (line 1)")
	_, err = Parse("n.yaml", lines("nodes: [{name: 'n{i}', count: 10000, memory_mb: 1099511627776, vcores: 1099511627776}]"))
	require.NoError(t, err)
	_, err = Parse("n.yaml", withSteps("  - add_node: {name: x, vcores: 1099511627777}"))
	require.ErrorContains(t, err, "steps[0].add_node: memory_mb and vcores must be at most 1099511627776")

	submit := "  - submit: {app: a1, user: u, queue: a}"
	ask := func(n int) string {
		return fmt.Sprintf("  - request: {app: a1, priority: 1, resource: {memory_mb: 1024}, count: %d}", n)
	}
	_, err = Parse("a.yaml", withSteps(submit, ask(600_000), ask(400_000)))
	require.NoError(t, err)
	_, err = Parse("a.yaml", withSteps(submit, ask(600_000), ask(400_001)))
	require.ErrorContains(t, err, "steps[2].request: the asks of the request steps add up to more than 1000000 containers; the limit keeps a run bounded (line 9)")
}

func TestHeartbeatStepLimit(t *testing.T) {
	_, err := Parse("h.yaml", lines("nodes: [{name: n0}]", "steps:", "  - heartbeat: [{node: n0, times: 60000}, {node: n0, times: 40001}]"))
	require.ErrorContains(t, err, "steps[0].heartbeat: 100001 node heartbeats in one step")
	_, err = Parse("h.yaml", lines("nodes: [{name: n0}]", "steps:", "  - heartbeat: [{node: n0, times: 60000}, {node: n0, times: 40000}]"))
	require.NoError(t, err)
}
