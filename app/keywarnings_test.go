package app

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
)

// TestKeyWarningsFollowTheConfigurationAndTheQueues checks that the kept
// answer is unknownQueueKeys' for every configuration and tree of queues
// the panel is shown, kept or not.
func TestKeyWarningsFollowTheConfigurationAndTheQueues(t *testing.T) {
	queues := func(paths ...string) []core.QueueView {
		qs := make([]core.QueueView, len(paths))
		for i, p := range paths {
			qs[i].Path = p
		}
		return qs
	}
	stray := map[string]string{"yarn.scheduler.capacity.root.b.capacity": "50"}
	fixed := map[string]string{"yarn.scheduler.capacity.root.a.capacity": "50"}
	var k keyWarnings
	for _, c := range []struct {
		name   string
		conf   map[string]string
		queues []core.QueueView
	}{
		{"a key naming no queue", stray, queues("root", "root.a")},
		{"the same map and queues again", stray, queues("root", "root.a")},
		{"a queue created with that path", stray, queues("root", "root.a", "root.b")},
		{"a queue renamed", stray, queues("root", "root.a", "root.c")},
		{"a new configuration", fixed, queues("root", "root.a", "root.c")},
		{"no configuration", nil, queues("root")},
	} {
		require.Equal(t, unknownQueueKeys(c.conf, c.queues), k.of(c.conf, c.queues), c.name)
	}
	require.Len(t, k.of(stray, queues("root", "root.a")), 1, "the stray key is warned of")
	// The page asks again for each stage of one frame: the same lists.
	same := queues("root", "root.a", "root.c")
	require.Equal(t, unknownQueueKeys(stray, same), k.of(stray, same), "a new list")
	require.Equal(t, unknownQueueKeys(stray, same), k.of(stray, same), "the very same list")
}
