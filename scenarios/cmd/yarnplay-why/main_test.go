package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/scenarios"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

const rules = "../../snapshot/testdata/rules/"

func runWhy(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run with -update to create %s", path)
	require.Equal(t, string(want), got)
}

// TestEveryRuleOfTheFixture runs the command on the snapshot written from
// ResourceManagerRest's examples, in JSON and in XML: one app per rule
// the heartbeats produce, the same answer in both formats.
func TestEveryRuleOfTheFixture(t *testing.T) {
	code, out, errs := runWhy(t, "-scheduler", rules+"scheduler.json", "-nodes", rules+"nodes.json", "-apps", rules+"apps.json")
	require.Equal(t, 0, code, errs)
	golden(t, "rules.golden", out)
	for _, rule := range []string{"queue-max-capacity", "user-limit", "parent-max-capacity", "am-limit", "user-am-limit", "no-node-fits", "reserved", "locality-delay"} {
		require.Contains(t, out, " "+rule+" ", "the fixture should show %s", rule)
	}
	require.Contains(t, errs, "assumption: 1 nodes that are not RUNNING")
	code, outXML, errs := runWhy(t, "-scheduler", rules+"scheduler.xml", "-nodes", rules+"nodes.xml", "-apps", rules+"apps.xml")
	require.Equal(t, 0, code, errs)
	require.Equal(t, out, outXML)
}

func TestWritesTheScenarioAndTheExport(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "s.yaml")
	exp := filepath.Join(dir, "rest")
	code, lines, errs := runWhy(t, "-scheduler", rules+"scheduler.json", "-nodes", rules+"nodes.json", "-apps", rules+"apps.json", "-o", out, "-export", exp, "-format", "xml")
	require.Equal(t, 0, code, errs)
	sc, err := scenarios.Load(os.DirFS(dir), "s.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, sc.Assumptions)
	require.Equal(t, scenarios.KindRestore, sc.Steps[0].Kind())
	// The export, imported again (with its configuration and containers),
	// gives the same answers.
	code, again, errs := runWhy(t, "-scheduler", filepath.Join(exp, "scheduler.xml"), "-nodes", filepath.Join(exp, "nodes.xml"),
		"-apps", filepath.Join(exp, "apps.xml"), "-conf", filepath.Join(exp, "capacity-scheduler.xml"), "-containers", filepath.Join(exp, "containers.xml"))
	require.Equal(t, 0, code, errs)
	require.Equal(t, lines, again)
}

func TestUnreadableInputExits2NamingFileAndPath(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	badApps := write("apps.json", `{"apps": {"app": [{"id": "application_1_0001", "user": "u", "queue": "a", "state": "RUNNING", "allocatedMB": "NaN"}]}}`)
	code, out, errs := runWhy(t, "-scheduler", rules+"scheduler.json", "-nodes", rules+"nodes.json", "-apps", badApps)
	require.Equal(t, 2, code)
	require.Empty(t, out)
	require.Contains(t, errs, badApps+": apps.app[0].allocatedMB: must be a finite number, not NaN")

	code, _, errs = runWhy(t, "-scheduler", filepath.Join(dir, "missing.json"), "-nodes", rules+"nodes.json", "-apps", rules+"apps.json")
	require.Equal(t, 2, code)
	require.Contains(t, errs, "missing.json: cannot be read: no such file or directory")

	broken := write("nodes.json", `{"nodes": {"node": [`)
	code, _, errs = runWhy(t, "-scheduler", rules+"scheduler.json", "-nodes", broken, "-apps", rules+"apps.json")
	require.Equal(t, 2, code)
	require.Contains(t, errs, broken+": not valid JSON")

	code, _, errs = runWhy(t, "-scheduler", rules+"nodes.json", "-nodes", rules+"nodes.json", "-apps", rules+"apps.json")
	require.Equal(t, 2, code)
	require.True(t, strings.Contains(errs, `nodes.json: this is not a /ws/v1/cluster/scheduler response: it has no "scheduler" at the top`), errs)

	code, _, _ = runWhy(t, "-nodes", rules+"nodes.json")
	require.Equal(t, 2, code)
}

func TestLessonMode(t *testing.T) {
	code, out, errs := runWhy(t, "-scenario", "../../lessons/reservations.yaml", "-step", "8", "-rounds", "1")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, " reserved ")
}
