package snapshot

import (
	"testing"

	"yarnplay/scenarios"
)

// fuzzLimit keeps fuzz inputs small, so that every run is quick.
const fuzzLimit = 64 << 10

// FuzzImport: whatever three files hold, Import never panics; a snapshot
// it accepts is a valid scenario whose YAML export loads back, and whose
// restore plays (Import played it) keeping the scheduler's invariants.
func FuzzImport(f *testing.F) {
	// The fixtures of testdata/rules are imported by the other tests; as
	// fuzzing seeds their size slows the engine to a crawl, so the seeds
	// are small (here and in testdata/fuzz/FuzzImport).
	f.Add([]byte(oneQueue), []byte(oneNode), []byte(app(`"allocatedMB": 1024, "allocatedVCores": 1, "runningContainers": 1`)))
	f.Add([]byte(oneQueue), []byte(oneNode), []byte(app(`"resourceRequests": {"capability": {"memory": 2048, "vCores": 1}, "numContainers": 3, "priority": {"priority": 2}, "resourceName": "*"}`)))
	f.Fuzz(func(t *testing.T, sched, nodes, apps []byte) {
		if len(sched)+len(nodes)+len(apps) > fuzzLimit {
			return
		}
		sc, err := Import(Files{Scheduler: File{"s", sched}, Nodes: File{"n", nodes}, Apps: File{"a", apps}})
		if err != nil {
			if _, ok := err.(Problems); !ok {
				t.Fatalf("an import error that is not Problems: %T %v", err, err)
			}
			return
		}
		y, err := sc.YAML()
		if err != nil {
			t.Fatalf("YAML export: %v", err)
		}
		back, err := scenarios.Parse("export", y)
		if err != nil {
			t.Fatalf("the export does not load back: %v\n%s", err, y)
		}
		p, err := scenarios.NewPlayer(back)
		if err != nil {
			t.Fatalf("the exported scenario does not start: %v", err)
		}
		p.SetNarrate(false)
		if r := p.Next(); r.Err != nil {
			t.Fatalf("the restore fails after export: %v", r.Err)
		}
		if err := p.Scheduler().CheckInvariants(); err != nil {
			t.Fatalf("invariants after the restore: %v", err)
		}
	})
}
