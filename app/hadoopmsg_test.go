package app

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
)

func TestWithPercents(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Illegal capacity of 1.0 for children of queue root", "Illegal capacity of 1.0 (100%) for children of queue root"},
		{"Illegal capacity of 0.9 for children of queue root.a", "Illegal capacity of 0.9 (90%) for children of queue root.a"},
		{"Illegal capacity of 1.5 for queue root.a", "Illegal capacity of 1.5 (150%) for queue root.a"},
		{"Illegal queue capacity setting (abs-capacity=0.6) > (abs-maximum-capacity=0.5) for queue=[root.a],label=[]",
			"Illegal queue capacity setting (abs-capacity=0.6 (60%)) > (abs-maximum-capacity=0.5 (50%)) for queue=[root.a],label=[]"},
		{"unknown queue: qa-team", "unknown queue: qa-team"},
	} {
		require.Equal(t, tc.want, withPercents(tc.in))
	}
}

func TestUnknownQueueKeys(t *testing.T) {
	qs := []core.QueueView{{Path: "root"}, {Path: "root.finance-wizards"}}
	conf := map[string]string{
		"yarn.scheduler.capacity.root.queues":                   "finance-wizards",
		"yarn.scheduler.capacity.root.finance-wizards.capacity": "100",
		"yarn.scheduler.capacity.finance-wizards.queues":        "a,b",
		"yarn.scheduler.capacity.root.nowhere.capacity":         "10",
		"yarn.scheduler.capacity.maximum-applications":          "100",
		"yarn.scheduler.capacity.resource-calculator":           "x",
		"yarn.resourcemanager.scheduler.monitor.enable":         "false",
	}
	require.Equal(t, []string{
		"yarn.scheduler.capacity.finance-wizards.queues names no queue (finance-wizards): Hadoop reads queue properties by the full path from root, e.g. yarn.scheduler.capacity.root.finance-wizards.queues, and ignores this one",
		"yarn.scheduler.capacity.root.nowhere.capacity names no queue (root.nowhere): no configured queue has that path, so Hadoop ignores it",
	}, unknownQueueKeys(conf, qs))
}
