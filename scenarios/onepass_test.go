package scenarios

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// onePassCases are documents the one-pass reader must read as the tree
// does (read true), or leave to it.
var onePassCases = []struct {
	name, text string
	read       bool
}{
	{"empty map", `{}`, true},
	{"empty lists", `{"nodes": [], "steps": []}`, true},
	{"null lists", `{"nodes": null, "steps": null}`, true},
	{"top level", `{"version": 1, "name": "x", "description": "d", "profile": "hadoop-2", "config": {"a": "1", "b": 2}, "groups": {"u": "g1, g2", "v": ["g"]}, "assumptions": "a", "config_error": ["e"]}`, true},
	{"nodes", `{"nodes": [{"name": "n{i}", "count": 3, "memory_mb": 1024, "vcores": 2, "rack": "/r", "label": "x"}, {"name": "m"}]}`, true},
	{"submits", `{"steps": [{"submit": {"app": "a", "user": 1234, "queue": "root.a", "am": {"memory_mb": 1024, "vcores": 1}, "priority": -2, "am_container_request": false, "label": "x", "am_label": ""}}, {"submit": {"app": "b", "user": "u", "queue": "q", "am": null}}]}`, true},
	{"asks", `{"steps": [{"request": {"app": "a", "priority": 1, "resource": {"memory_mb": 1}, "count": 2.0}}, {"request": [{"app": "a", "priority": 0, "resource": {"memory_mb": 1, "vcores": 1}, "count": 0, "locality": "n1", "relax_locality": true, "duration": 5, "label": null}, {"app": "b", "priority": 2, "resource": {"memory_mb": 2}, "count": 1e1, "label": "x"}]}]}`, true},
	{"other kinds", `{"steps": [{"tick": null}, {"tick": 3, "note": "n"}, {"heartbeat": "n1"}, {"heartbeat": ["a", {"node": "b", "times": 1}]}, {"finish_app": "a", "error": "e", "error_any": ["x", "y"]}, {"expect": {"queue_used": {"root": {"memory_mb": 0}}}}, {"add_node": {"name": "x"}}, {"refresh": null}]}`, true},
	{"lines", "{\n\"nodes\": [\n {\"name\": \"a\"},\n\n {\"name\": \"b\"}],\n \"steps\": [\r\n  {\"tick\": 1},\n  {\"submit\":\n {\"app\": \"a\", \"user\": \"u\", \"queue\": \"q\"}}\n ]\n}\n", true},
	{"escapes in values", `{"name": "a\nb\u00e9", "steps": [{"submit": {"app": "\"a\"", "user": "u", "queue": "q"}}]}`, true},
	{"escape in a key", `{"na\u006de": "x"}`, false},
	{"escape in a step's key", `{"steps": [{"tic\u006b": 1}]}`, false},
	{"unknown top key", `{"nmae": "x"}`, false},
	{"unknown submit key", `{"steps": [{"submit": {"app": "a", "user": "u", "queue": "q", "qeue": "x"}}]}`, false},
	{"repeated key", `{"steps": [{"tick": 1, "tick": 2}]}`, false},
	{"repeated top key", `{"name": "a", "name": "b"}`, false},
	{"missing key", `{"steps": [{"submit": {"app": "a", "user": "u"}}]}`, false},
	{"missing ask key", `{"steps": [{"request": [{"app": "a", "priority": 1, "resource": {"memory_mb": 1}}]}]}`, false},
	{"missing node name", `{"nodes": [{"memory_mb": 1}]}`, false},
	{"empty request", `{"steps": [{"request": []}]}`, false},
	{"commas for asks", `{"steps": [{"request": [,,,]}]}`, false},
	{"a scalar for an ask", `{"steps": [{"request": [{"app": "a", "priority": 1, "resource": {"memory_mb": 1}, "count": 1}, 1]}]}`, false},
	{"a scalar among steps", `{"steps": [{"tick": 1}, 2]}`, false},
	{"two kinds", `{"steps": [{"tick": 1, "heartbeat": "a"}]}`, false},
	{"no kind", `{"steps": [{"note": "x"}]}`, false},
	{"scalar step", `{"steps": ["tick"]}`, false},
	{"wrong type", `{"steps": [{"submit": {"app": "a", "user": "u", "queue": "q", "priority": "high"}}]}`, false},
	{"negative count", `{"nodes": [{"name": "a", "count": 0}]}`, false},
	{"not a map", `[{}]`, false},
	{"trailing comma", `{"steps": [],}`, false},
	{"trailing comma in a list", `{"steps": [{"tick": 1},]}`, false},
	{"two values", `{} {}`, false},
	{"cut short", `{"steps": [{"tick": 1}`, false},
	{"byte order mark", "\ufeff{}", false},
	{"YAML", "name: x\nsteps: []\n", false},
	{"YAML flow", `{name: x}`, false},
}

// decodeBoth checks the one-pass reader against the tree on data: when it
// reads data, the tree reads the same scenario; when the tree refuses
// data, the reader does too. It returns whether the reader read it.
func decodeBoth(t *testing.T, data []byte) bool {
	t.Helper()
	fast, ok := decodeOnePass("doc", data)
	tree, err := decodeTree("doc", data)
	if err != nil {
		require.False(t, ok, "the one-pass reader read what the tree refuses (%v)", err)
		return false
	}
	if ok {
		require.Equal(t, tree, fast)
	}
	got, gotErr := decode("doc", data, MaxSavedBytes)
	require.NoError(t, gotErr)
	require.Equal(t, tree, got)
	return ok
}

func TestOnePassCases(t *testing.T) {
	for _, tt := range onePassCases {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.read, decodeBoth(t, []byte(tt.text)))
		})
	}
}

func TestOnePassLeavesTheLimitsToTheTree(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"steps": [`)
	for i := range MaxSteps + 1 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"tick": 1}`)
	}
	b.WriteString("]}")
	text := b.String()
	require.False(t, decodeBoth(t, []byte(text)))
	require.True(t, decodeBoth(t, []byte(strings.Replace(text, `{"tick": 1},`, "", 1))))

	// The reader counts values as fastJSON does: 6 here, the keys included.
	small := []byte(`{"steps": [{"tick": 1}]}`)
	_, ok := readOnePass("doc", small, 6)
	require.True(t, ok)
	_, ok = readOnePass("doc", small, 5)
	require.False(t, ok)

	deep := `{"steps": [{"preemption_snapshot": {"a": ` + strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth) + `}}]}`
	_, ok = decodeOnePass("doc", []byte(deep))
	require.False(t, ok)
	_, err := decodeTree("doc", []byte(deep))
	require.ErrorContains(t, err, "nesting deeper than")
}

// scenarioFiles are the scenario files of the repository and the
// conformance cases.
func scenarioFiles(t *testing.T) []string {
	var files []string
	for _, pattern := range []string{
		"lessons/*.yaml", "testdata/*.yaml", "testdata/*/*.yaml",
		"scengen/testdata/*/*.yaml", conformanceDir + "/*.json",
	} {
		found, err := filepath.Glob(pattern)
		require.NoError(t, err)
		files = append(files, found...)
	}
	require.Greater(t, len(files), 50)
	return files
}

// jsonForms are the scenario as JSON the ways a reader may meet it:
// canonical (compact, one line, as links carry it) and indented.
func jsonForms(t *testing.T, sc *Scenario) [][]byte {
	cj, err := sc.CanonicalJSON()
	require.NoError(t, err)
	var indented bytes.Buffer
	require.NoError(t, json.Indent(&indented, cj, "", "  "))
	return [][]byte{cj, indented.Bytes()}
}

// TestOnePassIsTheTree: every scenario file, as it is written and as
// canonical and indented JSON, decodes to the same scenario both ways, and
// the one-pass reader reads all of them as JSON.
func TestOnePassIsTheTree(t *testing.T) {
	requireConformanceDir(t)
	for _, name := range scenarioFiles(t) {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(name)
			require.NoError(t, err)
			read := decodeBoth(t, data)
			require.Equal(t, strings.HasSuffix(name, ".json"), read)
			sc, err := decodeTree(name, data)
			require.NoError(t, err)
			for _, form := range jsonForms(t, sc) {
				require.True(t, decodeBoth(t, form), "%s", form)
				// The reader counts values as the tree's reader does.
				v, err := readJSON(form, maxValues)
				require.NoError(t, err)
				_, ok := readOnePass(name, form, v.size)
				require.True(t, ok)
				_, ok = readOnePass(name, form, v.size-1)
				require.False(t, ok)
			}
		})
	}
}

// FuzzOnePassIsTheTree: whatever the one-pass reader reads, the tree reads
// the same; whatever the tree refuses, the reader refuses.
func FuzzOnePassIsTheTree(f *testing.F) {
	for _, tt := range onePassCases {
		f.Add([]byte(tt.text))
	}
	for _, pattern := range []string{"lessons/*.yaml", "testdata/*.yaml", conformanceDir + "/0*.json"} {
		files, _ := filepath.Glob(pattern)
		for _, name := range files {
			data, err := os.ReadFile(name)
			if err != nil {
				continue
			}
			if sc, err := decodeTree(name, data); err == nil {
				if cj, err := sc.CanonicalJSON(); err == nil {
					f.Add(cj)
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > fuzzInputLimit {
			return
		}
		fast, ok := decodeOnePass("fuzz", data)
		tree, err := decodeTree("fuzz", data)
		if err != nil {
			if ok {
				t.Fatalf("the one-pass reader read what the tree refuses (%v):\n%q", err, data)
			}
			return
		}
		if ok {
			require.Equal(t, tree, fast, "%q", data)
		}
	})
}

func TestCountMaps(t *testing.T) {
	for text, want := range map[string]int{
		`[]`: 0, "[ \n]": 0, `[1, 2]`: 0, `[[]]`: 0, `[{}]`: 1, `[{}, [{}]]`: 1, `[{}, 1, {}]`: 2,
		`[{"a": [{}, {}]}, "x,{y", {"b": "}"}]`: 2, `[{"a\"}": 1}, {}]`: 2,
		`[{}, {`: 2, // not closed: the reader refuses the list
	} {
		require.Equal(t, want, countMaps([]byte(text), 0), text)
	}
}

// FuzzOnePassHead: a document's head read in one pass (readOnePassHead)
// is, when the whole document reads in one pass, its start and first
// steps, and counts the steps it passed over.
func FuzzOnePassHead(f *testing.F) {
	for _, tt := range onePassCases {
		f.Add([]byte(tt.text), uint8(1))
	}
	for _, name := range []string{"lessons/user-limits.yaml", "lessons/acls.yaml"} {
		data, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		if sc, err := decodeTree(name, data); err == nil {
			if cj, err := sc.CanonicalJSON(); err == nil {
				f.Add(cj, uint8(0))
				f.Add(cj, uint8(3))
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, head uint8) {
		if len(data) > fuzzInputLimit {
			return
		}
		whole, ok := readOnePass("fuzz", data, maxValues)
		h, rest, hok := readOnePassHead("fuzz", data, maxValues, int(head))
		if !ok {
			return // the head may read where the whole does not
		}
		require.True(t, hok)
		k := min(int(head), len(whole.Steps))
		require.Equal(t, whole.Steps[:k], h.Steps)
		require.Equal(t, len(whole.Steps)-k, rest)
		w, g := *whole, *h
		w.Steps, g.Steps = nil, nil
		require.Equal(t, w, g)
	})
}
