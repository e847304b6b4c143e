package scenarios

import (
	"os"
	"path/filepath"
	"testing"
)

// fuzzInputLimit keeps fuzz inputs small, so that every run is quick; the
// limits themselves are tested in TestLimits.
const fuzzInputLimit = 64 << 10

func addSeedFiles(f *testing.F) {
	for _, pattern := range []string{"testdata/*.yaml", conformanceDir + "/0*.json"} {
		files, _ := filepath.Glob(pattern)
		for _, name := range files {
			if data, err := os.ReadFile(name); err == nil {
				f.Add(data)
			}
		}
	}
}

// FuzzParse: the loader never panics, and whatever it accepts survives the
// canonical JSON and YAML round trips unchanged.
func FuzzParse(f *testing.F) {
	f.Add([]byte("name: x\nsteps: [{tick: 1}]\n"))
	f.Add([]byte(`{"steps": [{"heartbeat": ["a", {"node": "b", "times": 2}]}], "nodes": [{"name": "a"}, {"name": "b"}]}`))
	f.Add([]byte("config: &c {k: 1}\nsteps: [{refresh: {replace_config: *c}}]\n"))
	f.Add([]byte("nodes: [{name: 'n{i}', count: 3}]\nsteps:\n  - remove_node: {name: 'n{i}', count: 2}\n"))
	f.Add([]byte("steps: [{preemption_snapshot: {cluster: {memory_mb: 100, vcores: 100}, queues: {root.a: {capacity: 100, used: {memory_mb: 0, vcores: 0}, pending: {memory_mb: 0, vcores: 0}, container_size: {memory_mb: 1, vcores: 1}, apps: 0}}}}, {preemption_round: {now_ms: 0}}]"))
	addSeedFiles(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > fuzzInputLimit {
			return
		}
		sc, err := Parse("fuzz", data)
		if err != nil {
			return
		}
		cj, err := sc.CanonicalJSON()
		if err != nil {
			t.Fatalf("canonical JSON of an accepted scenario: %v", err)
		}
		back, err := Parse("canonical", cj)
		if err != nil {
			t.Fatalf("canonical JSON does not load back: %v\n%s", err, cj)
		}
		if cj2, _ := back.CanonicalJSON(); string(cj2) != string(cj) {
			t.Fatalf("canonical JSON changed on reload:\n%s\n%s", cj, cj2)
		}
		y, err := sc.YAML()
		if err != nil {
			t.Fatalf("YAML export: %v", err)
		}
		fromYAML, err := Parse("export", y)
		if err != nil {
			t.Fatalf("YAML export does not load back: %v\n%s", err, y)
		}
		if cj3, _ := fromYAML.CanonicalJSON(); string(cj3) != string(cj) {
			t.Fatalf("YAML export changed the scenario:\n%s\n%s\n%s", cj, cj3, y)
		}
	})
}

// FuzzDecodeLink: decoding never panics, and a link it accepts encodes
// back to a link that decodes to the same scenario.
func FuzzDecodeLink(f *testing.F) {
	f.Add("")
	f.Add("#s=1.")
	f.Add("s=1.q1YqSy0qzszPU7JSUEpKTFGqBQA&t=0&sel=root.a")
	f.Add("s=2.AAAA&t=1")
	f.Add("s=1.%%%&t=-1&sel=%zz")
	if data, err := os.ReadFile("testdata/link-v1.txt"); err == nil {
		f.Add(string(data))
	}
	f.Fuzz(func(t *testing.T, frag string) {
		if len(frag) > fuzzInputLimit {
			return
		}
		sc, step, sel, err := DecodeLink(frag)
		if err != nil {
			return
		}
		link, err := EncodeLink(sc, step, sel)
		if err != nil {
			t.Fatalf("re-encoding an accepted link: %v", err)
		}
		back, step2, sel2, err := DecodeLink(link)
		if err != nil || step2 != step || sel2 != sel {
			t.Fatalf("re-encoded link does not decode the same: %v", err)
		}
		a, _ := sc.CanonicalJSON()
		b, _ := back.CanonicalJSON()
		if string(a) != string(b) {
			t.Fatalf("link round trip changed the scenario")
		}
	})
}
