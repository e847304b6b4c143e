package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	bad := filepath.Join(dir, "bad.yaml")
	broken := filepath.Join(dir, "broken.yaml")
	head := "name: %s\nconfig: {yarn.scheduler.capacity.root.queues: a, yarn.scheduler.capacity.root.a.capacity: 100}\nnodes: [{name: h1}]\nsteps:\n"
	require.NoError(t, os.WriteFile(good, []byte(strings.Replace(head, "%s", "good", 1)+"  - expect: {queue_used: {a: {memory_mb: 0}}}\n"), 0o644))
	require.NoError(t, os.WriteFile(bad, []byte(strings.Replace(head, "%s", "bad", 1)+"  - expect: {queue_used: {a: {memory_mb: 2048}}}\n"), 0o644))
	require.NoError(t, os.WriteFile(broken, []byte("name: broken\nsteps:\n  - hearbeat: h1\n"), 0o644))

	var out, errOut bytes.Buffer
	require.Equal(t, 0, run([]string{good}, &out, &errOut))
	require.Equal(t, "PASS good\n1 passed, 0 failed\n", out.String())

	out.Reset()
	require.Equal(t, 1, run([]string{dir}, &out, &errOut))
	require.Equal(t, "FAIL bad\n"+
		"  step 1 expect.queue_used.a: expected <memory:2048>, found <memory:0>\n"+
		"FAIL "+broken+"\n"+
		"  "+broken+`: steps[0]: unknown step kind or key "hearbeat"; did you mean "heartbeat"? (line 3)`+"\n"+
		"PASS good\n"+
		"1 passed, 2 failed\n", out.String())

	out.Reset()
	require.Equal(t, 0, run([]string{"-narrate", good}, &out, &errOut))
	require.Contains(t, out.String(), "    step 1 (expect)\n      - every expectation holds\n")

	require.Equal(t, 2, run(nil, &out, &errOut))
	require.Equal(t, 2, run([]string{"-bogus", good}, &out, &errOut))
	require.Equal(t, 2, run([]string{filepath.Join(dir, "missing.yaml")}, &out, &errOut))
}

func TestCheckConformance(t *testing.T) {
	dir := "../../../../shared/conformance"
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	var out, errOut bytes.Buffer
	code := run([]string{dir}, &out, &errOut)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Regexp(t, `^\d+ passed, \d+ failed$`, lines[len(lines)-1])
	require.Equal(t, 0, code, out.String())
}
