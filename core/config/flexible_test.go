package config

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core/resource"
)

// TestAutoQueueTemplate follows AutoCreatedQueueTemplate: explicit
// entries before wildcard ones, one wildcard level and none for root's
// children, and setTemplateEntriesForChild's order (leaf-template, then
// template, never over the child's own properties).
func TestAutoQueueTemplate(t *testing.T) {
	p := Prefix + "root."
	c := FromMap(map[string]string{
		p + "a.b." + TemplatePrefix + "capacity":               "2w",
		p + "a.*." + TemplatePrefix + "capacity":               "6w",
		p + "a.*." + TemplatePrefix + "user-limit-factor":      "3",
		p + "a.*." + LeafTemplatePrefix + "maximum-capacity":   "50",
		p + "a.*." + ParentTemplatePrefix + "maximum-capacity": "80",
		p + "*." + TemplatePrefix + "capacity":                 "9w",
		p + "a.b.x.user-limit-factor":                          "7",
	})
	tmpl := NewAutoQueueTemplate(c, "root.a.b")
	require.Equal(t, map[string]string{"capacity": "2w", "user-limit-factor": "3"}, tmpl.Template)
	require.Equal(t, map[string]string{"maximum-capacity": "50"}, tmpl.LeafOnly)
	require.Equal(t, map[string]string{"maximum-capacity": "80"}, tmpl.ParentOnly)
	require.Empty(t, NewAutoQueueTemplate(c, "root.a").Template, "root.a has no wildcard level")
	require.Equal(t, [][2]string{{p + "a.b.x.maximum-capacity", "50"}, {p + "a.b.x.capacity", "2w"}},
		tmpl.entriesForChild(c, "root.a.b.x", true), "user-limit-factor is the child's own")
	require.Equal(t, [][2]string{{p + "a.b.y.maximum-capacity", "80"}, {p + "a.b.y.capacity", "2w"},
		{p + "a.b.y.user-limit-factor", "3"}}, tmpl.entriesForChild(c, "root.a.b.y", false))
}

// FuzzDynamicQueues parses configurations with dynamic queues at any
// paths and templates with any values: an error or a tree in which every
// dynamic path is a queue marked Dynamic, never a panic.
func FuzzDynamicQueues(f *testing.F) {
	for _, s := range [][3]string{{"root.c", "root.a.x.y", "2w"}, {"root.a.a1.z", "root.b", "50"},
		{"root", "root..x", "[memory=1]"}, {"root.*", "root.a.*.q", "-1w"}, {"x", "root.a.b.c.d", "w"}} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, d1, d2, capacity string) {
		p := Prefix + "root."
		c := FromMap(map[string]string{
			p + "queues": "a,b", p + "a.capacity": "1w", p + "b.capacity": "1w", p + "a.queues": "a1", p + "a.a1.capacity": "1w",
			p + SuffixAutoQueueCreationV2: "true", p + "a." + SuffixAutoQueueCreationV2: "true",
			p + "a." + TemplatePrefix + "capacity": capacity, p + "a.*." + TemplatePrefix + "capacity": capacity,
		})
		var dynamic []DynamicQueue
		for _, d := range []string{d1, d2} {
			if strings.HasPrefix(d, "root.") && len(d) < 200 {
				dynamic = append(dynamic, DynamicQueue{Path: d, Parent: strings.HasPrefix(d2, d+".")})
			}
		}
		ps, err := ParseWithDynamicQueues(c, Hadoop34, resource.New(1024, 1), dynamic)
		if err != nil {
			requireConfigError(t, err)
			return
		}
		for _, d := range dynamic {
			if q := ps.Queue(d.Path); q != nil && !q.Dynamic {
				t.Fatalf("%s: not marked dynamic", d.Path)
			}
		}
	})
}

// TestAutoQueueDeletionSettings: the monitor runs
// AutoCreatedQueueDeletionPolicy when it is listed; its expiration time
// is a long, 300 s by default.
func TestAutoQueueDeletionSettings(t *testing.T) {
	base := map[string]string{Prefix + "root.queues": "a", Prefix + "root.a.capacity": "100"}
	c := FromMap(base)
	ps, err := Parse(c, Hadoop34)
	require.NoError(t, err)
	require.False(t, ps.Settings.AutoQueueDeletion)
	require.Equal(t, int64(300), ps.Settings.AutoQueueExpirationSec)
	c.Set(KeyMonitorEnable, "true")
	c.Set(KeyMonitorPolicies, AutoQueueDeletionPolicyClass)
	c.Set(KeyAutoQueueExpirationTime, "60")
	ps, err = Parse(c, Hadoop34)
	require.NoError(t, err)
	require.True(t, ps.Settings.AutoQueueDeletion)
	require.False(t, ps.Settings.Preemption.Enabled, "only the listed policies run")
	require.Equal(t, int64(60), ps.Settings.AutoQueueExpirationSec)
	c.Set(KeyAutoQueueExpirationTime, "soon")
	_, err = Parse(c, Hadoop34)
	var e *Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, KeyAutoQueueExpirationTime, e.Property)
}
