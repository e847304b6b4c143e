package app

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core/resource"
)

func TestViewFormats(t *testing.T) {
	tests := []struct{ got, want string }{
		{pctText(0.35), "35.0%"},
		{pctText(0), "0.0%"},
		{pctText(1.75), "175.0%"},
		{memText(512), "512 MB"},
		{memText(6144), "6 GB"},
		{memText(9830), "9.6 GB"},
		{resText(resource.New(20480, 16)), "20 GB, 16 vcores"},
		{resText(resource.New(1024, 1)), "1 GB, 1 vcore"},
		{rmText(resource.New(20480, 16)), "<memory:20480, vCores:16>"},
		{cssPct(0.2), "20.00%"},
		{cssPct(1.3), "100.00%"},
		{cssPct(-1), "0.00%"},
		{plural(1, "node", "nodes"), "1 node"},
		{plural(3, "node", "nodes"), "3 nodes"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, tt.got)
	}
}

func TestShareFollowsTheCalculator(t *testing.T) {
	cluster := resource.New(10240, 10)
	tests := []struct {
		name     string
		r        resource.Resource
		dominant bool
		want     float64
	}{
		{"memory only", resource.New(2048, 8), false, 0.2},
		{"dominant takes vcores", resource.New(2048, 8), true, 0.8},
		{"dominant takes memory", resource.New(5120, 1), true, 0.5},
		{"nothing", resource.None, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.InDelta(t, tt.want, resShare(tt.r, cluster, tt.dominant), 1e-9)
		})
	}
	require.Zero(t, resShare(resource.New(1, 1), resource.None, true), "an empty cluster")
}

func TestColorsAreStableAcrossSteps(t *testing.T) {
	early := fixtureFrame(t, 2, "", "")
	late := fixtureFrame(t, 14, "", "")
	a, b := NewColors(&early), NewColors(&late)
	seen := map[int]string{}
	for _, q := range late.Queues {
		require.Equal(t, a.Hue(q.Path), b.Hue(q.Path), "queue %s keeps its hue", q.Path)
		if other, dup := seen[b.Hue(q.Path)]; dup {
			t.Fatalf("%s and %s share a hue", q.Path, other)
		}
		seen[b.Hue(q.Path)] = q.Path
	}
	// Shades follow submission order within a queue.
	require.Equal(t, 0, b.Shade("app_1"))
	require.Equal(t, 1, b.Shade("app_2"))
	require.Equal(t, 0, b.Shade("app_3"), "first app of fin")
	require.Equal(t, 2, b.Shade("app_4"))
	require.Equal(t, a.Shade("app_2"), b.Shade("app_2"))
	require.Equal(t, "--h:"+strconv.Itoa(b.Hue("root.fin"))+";--s:0", b.blockStyle("root.fin", "app_3"))
}

func TestHSLToRGB(t *testing.T) {
	tests := []struct {
		h, s, l float64
		want    rgbColor
	}{
		{0, 100, 50, rgbColor{255, 0, 0}},
		{120, 100, 50, rgbColor{0, 255, 0}},
		{240, 100, 50, rgbColor{0, 0, 255}},
		{0, 0, 100, rgbColor{255, 255, 255}},
		{210, 0, 0, rgbColor{0, 0, 0}},
		{60, 100, 25, rgbColor{128, 128, 0}},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, hslRGB(tt.h, tt.s, tt.l), "hsl(%v %v%% %v%%)", tt.h, tt.s, tt.l)
	}
}

func TestColorsFollowTheTree(t *testing.T) {
	f := fixtureFrame(t, 0, "", "")
	c := NewColors(&f)
	// root's two children split the wheel; eng's children share eng's half.
	require.Equal(t, 200, c.Hue("root"))
	require.Equal(t, 110, c.Hue("root.eng"))
	require.Equal(t, 290, c.Hue("root.fin"))
	require.Equal(t, 74, c.Hue("root.eng.dev"))
	require.Equal(t, 146, c.Hue("root.eng.test"))
	require.Equal(t, 0, c.Hue("root.nope"), "an unknown queue")
}
