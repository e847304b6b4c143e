package snapshot

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestClassifySortsDroppedFiles(t *testing.T) {
	f := rulesFiles(t)
	xmlApps := fixture(t, "apps.xml")
	got, err := Classify([]File{
		{"c.json", []byte(`{"containers": null}`)}, f.Apps, {"conf.xml", []byte(`<?xml version="1.0"?><configuration></configuration>`)},
		f.Nodes, {"c2.xml", []byte(`<containers/>`)}, f.Scheduler,
	})
	require.NoError(t, err)
	require.Equal(t, "apps.json", got.Apps.Name)
	require.Equal(t, "nodes.json", got.Nodes.Name)
	require.Equal(t, "scheduler.json", got.Scheduler.Name)
	require.Equal(t, "conf.xml", got.Conf.Name)
	require.Len(t, got.Containers, 2)

	_, err = Classify([]File{f.Apps, xmlApps, {"x.txt", []byte("hello")}})
	require.ErrorContains(t, err, "apps.xml: is a second apps response (the first is apps.json)")
	require.ErrorContains(t, err, "x.txt: is not a ResourceManager response")
	require.ErrorContains(t, err, "has no scheduler response")
	require.ErrorContains(t, err, "has no nodes response")
}
