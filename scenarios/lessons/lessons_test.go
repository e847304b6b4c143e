package lessons

import (
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/scenarios"
)

var update = flag.Bool("update", false, "rewrite testdata/*.narration.golden from the lessons' narration")

// goldenLessons are the lessons whose full narration is pinned.
var goldenLessons = []string{"elastic-borrowing", "user-limits"}

// maxHeartbeats keeps every lesson quick to replay in the browser.
const maxHeartbeats = 2000

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

func TestEveryLessonPasses(t *testing.T) {
	for _, l := range All() {
		t.Run(l.Slug, func(t *testing.T) {
			sc, err := Load(l.Slug)
			require.NoError(t, err)
			require.NoError(t, sc.Validate())
			require.Equal(t, l.Title, sc.Name, "the catalog's title is the scenario's name")
			require.NotEmpty(t, sc.Description, "a lesson has a description for the side panel")
			require.NotEmpty(t, sc.Source, "a lesson cites where its story comes from")

			res := scenarios.Run(sc, scenarios.RunOptions{})
			var why []string
			for _, m := range res.Mismatches {
				why = append(why, m.String())
			}
			require.True(t, res.Passed, "%s fails:\n%s", l.File, strings.Join(why, "\n"))
			require.Equal(t, len(sc.Steps), res.StepsRun)

			expects, notes := 0, 0
			for _, st := range sc.Steps {
				if st.Expect != nil {
					expects++
				}
				if st.Note != "" {
					notes++
				}
			}
			require.Positive(t, expects, "a lesson proves its story with expectations")
			require.Positive(t, notes, "a lesson narrates the steps that matter")
			require.LessOrEqual(t, heartbeats(sc), maxHeartbeats, "a lesson replays quickly")
		})
	}
}

// heartbeats counts the node heartbeats a scenario plays: each tick is one
// per node present, each heartbeat step its own.
func heartbeats(sc *scenarios.Scenario) int {
	nodes := 0
	for _, n := range sc.Nodes {
		nodes += max(n.Count, 1)
	}
	total := 0
	for _, st := range sc.Steps {
		switch {
		case st.Tick != nil:
			total += max(*st.Tick, 1) * nodes
		case st.Heartbeat != nil:
			for _, h := range st.Heartbeat {
				total += max(h.Times, 1)
			}
		case st.AddNode != nil:
			nodes += max(st.AddNode.Count, 1)
		case st.RemoveNode != nil:
			nodes -= max(st.RemoveNode.Count, 1)
		}
	}
	return total
}

func TestCatalog(t *testing.T) {
	all := All()
	require.NotEmpty(t, all)
	seen := map[string]bool{}
	for i, l := range all {
		require.Regexp(t, slugPattern, l.Slug, "slugs are URL-safe: lower-case words joined by hyphens")
		require.False(t, seen[l.Slug], "slug %q is used twice", l.Slug)
		seen[l.Slug] = true
		require.Equal(t, i+1, l.Order, "%s: Order follows teaching order from 1", l.Slug)
		require.Equal(t, l.Slug+".yaml", l.File)
		require.NotEmpty(t, l.Title)
		require.NotEmpty(t, l.Summary)
		got, ok := Get(l.Slug)
		require.True(t, ok)
		require.Equal(t, l, got)
	}

	// Every embedded file is a lesson of the catalog.
	names, err := fs.Glob(Files(), "*")
	require.NoError(t, err)
	for _, name := range names {
		require.True(t, seen[strings.TrimSuffix(name, ".yaml")], "%s is embedded but not in the catalog", name)
	}
	require.Len(t, names, len(all))

	// All returns a copy.
	all[0].Slug = "changed"
	require.NotEqual(t, "changed", All()[0].Slug)
}

func TestDefault(t *testing.T) {
	require.Equal(t, "yarnrollers", Default())
	l, ok := Get(Default())
	require.True(t, ok, "the default scenario is a lesson")
	require.Equal(t, 1, l.Order, "the default scenario comes first")
	sc, err := Load(Default())
	require.NoError(t, err)
	require.NotEmpty(t, sc.Nodes)
}

func TestLoadUnknown(t *testing.T) {
	_, err := Load("no-such-lesson")
	require.ErrorIs(t, err, ErrUnknownLesson)
	require.ErrorContains(t, err, "yarnrollers")
	_, ok := Get("no-such-lesson")
	require.False(t, ok)
}

// TestNarrationGolden pins the full narration of some lessons: a change in
// the scheduler's decisions or in their wording shows up here.
func TestNarrationGolden(t *testing.T) {
	for _, slug := range goldenLessons {
		t.Run(slug, func(t *testing.T) {
			sc, err := Load(slug)
			require.NoError(t, err)
			res := scenarios.Run(sc, scenarios.RunOptions{Narrate: true})
			require.True(t, res.Passed, "%s fails its own expectations", slug)
			got := res.NarrationText("")
			path := filepath.Join("testdata", slug+".narration.golden")
			if *update {
				require.NoError(t, os.MkdirAll("testdata", 0o755))
				require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
				return
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "missing golden file; run: go test ./scenarios/lessons -update")
			if diff := firstDifference(string(want), got); diff != "" {
				t.Fatalf("the narration of %s differs from %s:\n%s\nIf the change is intended, rewrite the golden files with:\n  go test ./scenarios/lessons -update\nand review the diff.", slug, path, diff)
			}
		})
	}
}

// firstDifference describes the first line where want and got differ, or
// returns "" when they are equal.
func firstDifference(want, got string) string {
	if want == got {
		return ""
	}
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\n  golden: %q\n  now:    %q\n(golden %d lines, now %d)", i+1, wl, gl, len(w), len(g))
		}
	}
	return "the files differ"
}

// TestQueueRemovalUnderHadoop2 backs the claim of the queue-states lesson:
// with the hadoop-2 profile (the book's rule), the removal of a stopped
// queue that Hadoop 3 accepts is refused.
func TestQueueRemovalUnderHadoop2(t *testing.T) {
	sc, err := Load("queue-states")
	require.NoError(t, err)
	removal := -1
	for i, st := range sc.Steps {
		if st.Refresh != nil && len(st.Error) == 0 && len(st.Refresh.Unset) > 0 {
			removal = i
		}
	}
	require.GreaterOrEqual(t, removal, 0, "the lesson removes a queue")
	require.Contains(t, sc.Steps[removal].Note, "cannot be found during refresh!")

	// Hadoop 2 refuses every removal, of a running queue as of a stopped one.
	const refused = "Failed to re-init queues : thrifty-treasurers cannot be found during refresh!"
	sc.Profile = scenarios.ProfileHadoop2
	sc.Steps = sc.Steps[:removal+1]
	sc.Steps[removal].Error = scenarios.Texts{refused}
	for i := range sc.Steps {
		if strings.Contains(strings.Join(sc.Steps[i].Error, " "), "cannot be deleted") {
			sc.Steps[i].Error = scenarios.Texts{refused}
		}
	}
	res := scenarios.Run(sc, scenarios.RunOptions{})
	require.True(t, res.Passed, "%v", res.Mismatches)
}

// TestLessonsTravel checks that a lesson survives what the playground does
// with it: a share link (canonical JSON) and an exported YAML file.
func TestLessonsTravel(t *testing.T) {
	for _, l := range All() {
		t.Run(l.Slug, func(t *testing.T) {
			sc, err := Load(l.Slug)
			require.NoError(t, err)
			want, err := sc.CanonicalJSON()
			require.NoError(t, err)

			link, err := scenarios.EncodeLink(sc, len(sc.Steps), "root")
			require.NoError(t, err)
			back, step, sel, err := scenarios.DecodeLink(link)
			require.NoError(t, err)
			require.Equal(t, len(sc.Steps), step)
			require.Equal(t, "root", sel)
			got, err := back.CanonicalJSON()
			require.NoError(t, err)
			require.JSONEq(t, string(want), string(got))

			y, err := sc.YAML()
			require.NoError(t, err)
			again, err := scenarios.Parse(l.File, y)
			require.NoError(t, err)
			got, err = again.CanonicalJSON()
			require.NoError(t, err)
			require.JSONEq(t, string(want), string(got))
		})
	}
}

// TestPreemptionLessonsCompareAtTheSameTick checks what the two preemption
// lessons promise: at tick 28 both state gupta's consumption, and the
// numbers differ (2 GB with Hadoop's defaults, 48 GB undamped).
func TestPreemptionLessonsCompareAtTheSameTick(t *testing.T) {
	const tick = 28
	gupta := map[string]int64{}
	for _, slug := range []string{"preemption", "preemption-undamped"} {
		sc, err := Load(slug)
		require.NoError(t, err)
		now := 0
		for _, st := range sc.Steps {
			if st.Tick != nil {
				now += max(*st.Tick, 1)
			}
			if now == tick && st.Expect != nil {
				if r, ok := st.Expect.AppConsumption["gupta-app"]; ok {
					gupta[slug] = r.MemoryMB
				}
			}
		}
		require.Contains(t, gupta, slug, "%s expects gupta's consumption at tick %d", slug, tick)
	}
	require.Equal(t, int64(2048), gupta["preemption"])
	require.Equal(t, int64(49152), gupta["preemption-undamped"])

	// Up to gupta's request the two lessons are the same, and their
	// configurations differ only in preemption keys.
	gradual, err := Load("preemption")
	require.NoError(t, err)
	undamped, err := Load("preemption-undamped")
	require.NoError(t, err)
	require.Equal(t, jsonOf(t, gradual.Nodes), jsonOf(t, undamped.Nodes))
	for k, v := range undamped.Config {
		if !strings.HasPrefix(k, "yarn.resourcemanager.monitor.capacity.preemption.") {
			require.Equal(t, gradual.Config[k], v, k)
		}
	}
	common := 0
	for i, st := range gradual.Steps {
		if len(st.Request) > 0 && st.Request[0].App == "gupta-app" {
			common = i + 1
			break
		}
	}
	require.Positive(t, common)
	require.Equal(t, jsonOf(t, gradual.Steps[:common]), jsonOf(t, undamped.Steps[:common]))
}

// jsonOf renders v as JSON, which leaves out where things were read.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
