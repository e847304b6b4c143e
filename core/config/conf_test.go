package config

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestConf(t *testing.T) {
	c := New()
	require.Equal(t, 0, c.Len())
	c.Set(" a.b ", " v ")
	v, ok := c.Get("a.b")
	require.True(t, ok)
	require.Equal(t, " v ", v, "values are kept as written")
	v, ok = c.Get("\ta.b\n")
	require.True(t, ok, "names are trimmed on read too")
	require.Equal(t, " v ", v)
	c.Set("   ", "ignored")
	c.Set("c", "")
	c.Set("b", " ")
	require.Equal(t, []string{"a.b", "b", "c"}, c.Keys())
	require.Equal(t, 3, c.Len())

	d := c.Clone()
	d.Set("a.b", "changed")
	d.Unset(" c")
	require.Equal(t, map[string]string{"a.b": " v ", "b": " ", "c": ""}, c.Map())
	require.Equal(t, map[string]string{"a.b": "changed", "b": " "}, d.Map())

	m := c.Map()
	m["x"] = "y"
	_, ok = c.Get("x")
	require.False(t, ok, "Map returns a copy")

	f := FromMap(map[string]string{"k": "1", " k": "2", "z ": "3"})
	require.Equal(t, map[string]string{"k": "1", "z": "3"}, f.Map(), "the name sorting last wins")

	var nilConf *Conf
	_, ok = nilConf.Get("k")
	require.False(t, ok)
	require.Equal(t, 0, nilConf.Len())
	require.Empty(t, nilConf.Keys())
}

func TestQueueKey(t *testing.T) {
	require.Equal(t, "yarn.scheduler.capacity.root.a.capacity", QueueKey("root.a", SuffixCapacity))
	require.Equal(t, "yarn.scheduler.capacity.root.a.user-settings.bob.weight", UserWeightKey("root.a", "bob"))
}
