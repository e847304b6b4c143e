package scenarios

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// corpus returns the scenario files the round-trip tests use: testdata, the
// feature scenarios and the conformance cases (when present).
func corpus(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, pattern := range []string{"testdata/*.yaml", "testdata/*.json", featureDir + "/*.yaml", conformanceDir + "/*.json"} {
		files, err := filepath.Glob(pattern)
		require.NoError(t, err)
		for _, f := range files {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			out[f] = data
		}
	}
	require.NotEmpty(t, out)
	return out
}

// comparable clears what is not part of a scenario (file, lines).
func comparable(sc *Scenario) *Scenario {
	c := *sc
	c.File = ""
	c.Nodes = append([]NodeSpec(nil), sc.Nodes...)
	for i := range c.Nodes {
		c.Nodes[i].Line = 0
	}
	c.Steps = append([]Step(nil), sc.Steps...)
	for i := range c.Steps {
		c.Steps[i].Line = 0
		if n := c.Steps[i].AddNode; n != nil {
			cp := *n
			cp.Line = 0
			c.Steps[i].AddNode = &cp
		}
	}
	return &c
}

func requireSame(t *testing.T, want, got *Scenario) {
	t.Helper()
	wj, err := want.CanonicalJSON()
	require.NoError(t, err)
	gj, err := got.CanonicalJSON()
	require.NoError(t, err)
	require.Equal(t, string(wj), string(gj))
	require.Equal(t, comparable(want), comparable(got))
}

func TestYAMLExportRoundTrip(t *testing.T) {
	for name, data := range corpus(t) {
		t.Run(filepath.Base(name), func(t *testing.T) {
			sc, err := Parse(name, data)
			require.NoError(t, err)
			y, err := sc.YAML()
			require.NoError(t, err)
			back, err := Parse("export.yaml", y)
			require.NoError(t, err, string(y))
			requireSame(t, sc, back)
			// Exporting the re-loaded scenario gives the same text.
			y2, err := back.YAML()
			require.NoError(t, err)
			require.Equal(t, string(y), string(y2))
		})
	}
}

func TestCanonicalJSONRoundTrip(t *testing.T) {
	for name, data := range corpus(t) {
		sc, err := Parse(name, data)
		require.NoError(t, err)
		cj, err := sc.CanonicalJSON()
		require.NoError(t, err)
		back, err := Parse("canonical.json", cj)
		require.NoError(t, err)
		requireSame(t, sc, back)
	}
}

func TestCanonicalJSONIsStable(t *testing.T) {
	sc, err := Parse("a.yaml", withSteps(
		"  - submit: {queue: a, user: u, app: a1, am: null}",
		"  - heartbeat: {times: 1, node: h1}",
		"  - expect: {queue_used: {root.a: {memory_mb: 0}, a: {vcores: 1, memory_mb: 0}}}"))
	require.NoError(t, err)
	cj, err := sc.CanonicalJSON()
	require.NoError(t, err)
	require.Equal(t, `{"version":1,"name":"t","config":{"yarn.scheduler.capacity.root.a.capacity":"100","yarn.scheduler.capacity.root.queues":"a"},`+
		`"nodes":[{"name":"h1","memory_mb":8192,"vcores":8}],"steps":[{"submit":{"app":"a1","user":"u","queue":"a"}},{"heartbeat":"h1"},`+
		`{"expect":{"queue_used":{"a":{"memory_mb":0,"vcores":1},"root.a":{"memory_mb":0}}}}]}`, string(cj))
}

func TestLinkRoundTrip(t *testing.T) {
	for name, data := range corpus(t) {
		sc, err := Parse(name, data)
		require.NoError(t, err)
		step := len(sc.Steps) / 2
		for _, sel := range []string{"", "root.a", "root.a b&c=d#é"} {
			link, err := EncodeLink(sc, step, sel)
			require.NoError(t, err)
			require.True(t, strings.HasPrefix(link, "s=1."))
			require.NotContains(t, link, "#")
			for _, frag := range []string{link, "#" + link} {
				back, gotStep, gotSel, err := DecodeLink(frag)
				require.NoError(t, err)
				require.Equal(t, step, gotStep)
				require.Equal(t, sel, gotSel)
				requireSame(t, sc, back)
			}
		}
	}
}

// deflate compresses for hand-made links.
func deflate(t testing.TB, data []byte) string { return deflateAt(t, data, flate.BestCompression) }

// deflateAt deflates data at a level and encodes it as links do.
func deflateAt(t testing.TB, data []byte, level int) string {
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, level)
	require.NoError(t, err)
	_, err = w.Write(data)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return base64.RawURLEncoding.EncodeToString(b.Bytes())
}

func TestDecodeLinkRefusesHostileLinks(t *testing.T) {
	sc, err := Parse("a.yaml", withSteps("  - heartbeat: h1"))
	require.NoError(t, err)
	good, err := EncodeLink(sc, 1, "a")
	require.NoError(t, err)
	payload := strings.TrimPrefix(strings.Split(good, "&")[0], "s=1.")

	tests := []struct {
		name, frag, want string
	}{
		{"empty", "", "no scenario in the link"},
		{"no version", "s=" + payload, "no version prefix"},
		{"unknown version", "s=2." + payload, `version "2" is not known to this yarnplay (it reads version 1)`},
		{"not base64", "s=1.!!not*base64!!", "not base64url text"},
		{"truncated", "s=1." + payload[:len(payload)/2], "damaged"},
		{"not deflate", "s=1." + base64.RawURLEncoding.EncodeToString([]byte("plain text, not deflate")), "damaged"},
		{"bomb", "s=1." + deflate(t, bytes.Repeat([]byte(" "), 10<<20)), "link expands past 4 MiB"},
		{"huge", "s=1." + strings.Repeat("A", MaxLinkBytes), "the limit is 1048576"},
		{"not a scenario", "s=1." + deflate(t, []byte(`{"nmae": 1}`)), `link: the scenario is not valid: unknown key "nmae"; did you mean "name"? (line 1)`},
		{"binary", "s=1." + deflate(t, []byte{0xff, 0xfe, 0, 1, 2}), "the scenario is not valid"},
		{"step too far", "s=1." + payload + "&t=2", `step "2" is not a step of this scenario (0..1)`},
		{"negative step", "s=1." + payload + "&t=-1", "is not a step of this scenario"},
		{"step not a number", "s=1." + payload + "&t=x", "is not a step of this scenario"},
		{"twice", "s=1." + payload + "&s=1." + payload, `parameter "s" appears twice`},
		{"bad selection", "s=1." + payload + "&sel=%zz", "not URL-encoded"},
		{"control selection", "s=1." + payload + "&sel=a%0Ab", "not a queue name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			_, _, _, err := DecodeLink(tc.frag)
			require.ErrorContains(t, err, tc.want)
			require.Less(t, time.Since(start), 5*time.Second)
		})
	}
	// Unknown parameters are ignored, so newer links still open.
	_, step, sel, err := DecodeLink("#s=1." + payload + "&t=1&sel=a&future=1")
	require.NoError(t, err)
	require.Equal(t, 1, step)
	require.Equal(t, "a", sel)
}

// TestLinkVersion1KeepsDecoding pins a version 1 link: it must decode the
// same scenario in every later release.
func TestLinkVersion1KeepsDecoding(t *testing.T) {
	data, err := os.ReadFile("testdata/link-v1.txt")
	require.NoError(t, err)
	sc, step, sel, err := DecodeLink(strings.TrimSpace(string(data)))
	require.NoError(t, err)
	require.Equal(t, "elastic-borrowing", sc.Name)
	require.Equal(t, 7, step)
	require.Equal(t, "root.b", sel)
	want, err := Load(os.DirFS("testdata"), "elastic.yaml")
	require.NoError(t, err)
	requireSame(t, want, sc)
}

func TestEncodeLinkRefusesBadStep(t *testing.T) {
	sc := &Scenario{Name: "x"}
	_, err := EncodeLink(sc, 1, "")
	require.ErrorContains(t, err, "step 1 is outside 0..0")
}

// Work past bestLinkBytes of canonical JSON is deflated at the default
// level (saving it after every change must stay quick) and still round
// trips; smaller work at the best.
func TestEncodeLinkLevelBySize(t *testing.T) {
	sc, err := Parse("a.yaml", withSteps("  - heartbeat: h1"))
	require.NoError(t, err)
	sc.Steps[0].Note = strings.Repeat("n", 100) // past bestLinkBytes within MaxSteps
	small, err := sc.CanonicalJSON()
	require.NoError(t, err)
	link, err := EncodeLink(sc, 0, "")
	require.NoError(t, err)
	require.Equal(t, "s=1."+deflateAt(t, small, flate.BestCompression)+"&t=0", link)

	for len(small) <= bestLinkBytes {
		sc.Steps = append(sc.Steps, sc.Steps...)
		small, err = sc.CanonicalJSON()
		require.NoError(t, err)
	}
	link, err = EncodeLink(sc, 3, "root.a")
	require.NoError(t, err)
	require.Equal(t, "s=1."+deflateAt(t, small, flate.DefaultCompression)+"&t=3&sel=root.a", link)
	back, step, sel, err := DecodeLink(link)
	require.NoError(t, err)
	require.Equal(t, 3, step)
	require.Equal(t, "root.a", sel)
	requireSame(t, sc, back)
}

// withNotes returns sc with n more heartbeat steps, each with a note of
// noteBytes bytes.
func withNotes(sc *Scenario, n, noteBytes int) *Scenario {
	out := *sc
	out.Steps = slices.Clone(sc.Steps)
	note := strings.Repeat("n", noteBytes)
	for range n {
		out.Steps = append(out.Steps, Step{Heartbeat: sc.Steps[0].Heartbeat, Note: note})
	}
	return &out
}

// Work the playground saved opens again past MaxFileBytes, the bound of
// the links and files others hand in; past MaxSavedBytes it is refused
// when encoded, not when it no longer opens.
func TestSavedLinksCarryWorkPastTheFileLimit(t *testing.T) {
	sc, err := Parse("a.yaml", withSteps("  - heartbeat: h1"))
	require.NoError(t, err)
	big := withNotes(sc, 20_000, 240)
	data, err := big.CanonicalJSON()
	require.NoError(t, err)
	require.Greater(t, len(data), MaxFileBytes)

	link, err := EncodeLink(big, 7, "root.a")
	require.NoError(t, err)
	_, _, _, err = DecodeLink(link)
	require.ErrorContains(t, err, "link expands past 4 MiB")
	back, step, sel, err := DecodeSavedLink(link)
	require.NoError(t, err)
	require.Equal(t, 7, step)
	require.Equal(t, "root.a", sel)
	requireSame(t, big, back)

	_, err = EncodeLink(withNotes(sc, MaxSteps-1, MaxSavedBytes/MaxSteps), 0, "")
	require.ErrorContains(t, err, "a link carries at most 32 MiB")
}
