package snapshot

import (
	"fmt"
	"strings"
	"testing"
)

// bigSnapshot writes a snapshot of nodes nodes and apps apps in ten
// leaves: four in five apps run four 2048 MB containers (their AM among
// them) and ask for two more; the others wait for their AM.
func bigSnapshot(nodes, apps int) Files {
	var s strings.Builder
	running := apps * 4 / 5
	s.WriteString(`{"scheduler": {"schedulerInfo": {"type": "capacityScheduler", "queueName": "root", "capacity": 100, "queues": {"queue": [`)
	for q := range 10 {
		if q > 0 {
			s.WriteString(",")
		}
		fmt.Fprintf(&s, `{"type": "capacitySchedulerLeafQueueInfo", "queueName": "q%d", "capacity": 10, "maxCapacity": 100, "userLimit": 100, "userLimitFactor": 10, "configuredMaxAMResourceLimit": 0.5, "maxApplications": 100000, "resourcesUsed": {"memory": %d, "vCores": %d}}`, q, running/10*8192, running/10*4)
	}
	s.WriteString(`]}}}}`)
	perNode := int64(running) * 4 * 2048 / int64(nodes)
	var n strings.Builder
	n.WriteString(`{"nodes": {"node": [`)
	for i := range nodes {
		if i > 0 {
			n.WriteString(",")
		}
		fmt.Fprintf(&n, `{"id": "host%05d.example.com:45454", "nodeHostName": "host%05d.example.com", "nodeHTTPAddress": "host%05d.example.com:8042", "rack": "/rack%d", "state": "RUNNING", "usedMemoryMB": %d, "availMemoryMB": %d, "usedVirtualCores": %d, "availableVirtualCores": %d, "numContainers": %d}`,
			i, i, i, i/40, perNode, 65536-perNode, perNode/2048, 32-perNode/2048, perNode/2048)
	}
	n.WriteString(`]}}`)
	var a strings.Builder
	a.WriteString(`{"apps": {"app": [`)
	for i := range apps {
		if i > 0 {
			a.WriteString(",")
		}
		if i < running {
			fmt.Fprintf(&a, `{"id": "application_1700000000000_%06d", "user": "user%d", "queue": "q%d", "state": "RUNNING", "priority": 0, "allocatedMB": 8192, "allocatedVCores": 4, "runningContainers": 4, "amHostHttpAddress": "host%05d.example.com:8042", "resourceRequests": [{"capability": {"memory": 2048, "vCores": 1}, "numContainers": 2, "priority": 1, "relaxLocality": true, "resourceName": "*"}, {"capability": {"memory": 2048, "vCores": 1}, "numContainers": 1, "priority": 1, "relaxLocality": true, "resourceName": "/rack%d"}]}`,
				i+1, i%500, i%10, (i*4)/int(perNode/2048), i%(nodes/40))
		} else {
			fmt.Fprintf(&a, `{"id": "application_1700000000000_%06d", "user": "user%d", "queue": "q%d", "state": "ACCEPTED", "allocatedMB": -1, "allocatedVCores": -1, "runningContainers": -1, "resourceRequests": [{"capability": {"memory": 2048, "vCores": 1}, "numContainers": 1, "priority": 0, "relaxLocality": true, "resourceName": "*"}]}`,
				i+1, i%500, i%10)
		}
	}
	a.WriteString(`]}}`)
	return Files{Scheduler: File{"scheduler.json", []byte(s.String())}, Nodes: File{"nodes.json", []byte(n.String())}, Apps: File{"apps.json", []byte(a.String())}}
}

// BenchmarkImport imports 10,000 nodes and 50,000 applications (200,000
// containers), restore and usage check included:
// go test -run XXX -bench Import -benchtime 3x ./scenarios/snapshot
func BenchmarkImport(b *testing.B) {
	f := bigSnapshot(benchNodes, benchApps)
	b.SetBytes(int64(len(f.Scheduler.Data) + len(f.Nodes.Data) + len(f.Apps.Data)))
	b.ResetTimer()
	for range b.N {
		sc, err := Import(f)
		if err != nil {
			b.Fatal(err)
		}
		if len(sc.Steps[0].Restore.Apps) != benchApps {
			b.Fatalf("%d apps restored", len(sc.Steps[0].Restore.Apps))
		}
	}
}

// TestBigSnapshotImports checks the benchmark's snapshot at a tenth of
// its size: everything placed, nothing left out.
func TestBigSnapshotImports(t *testing.T) {
	sc, err := Import(bigSnapshot(1_000, 5_000))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range sc.Assumptions {
		if strings.Contains(a, "left out") || strings.Contains(a, "the snapshot says") {
			t.Fatalf("unexpected assumption: %s", a)
		}
	}
	if got := len(sc.Steps[0].Restore.Containers); got != 16_000 {
		t.Fatalf("%d containers restored, want 16000", got)
	}
}

// The benchmark's size: the 10,000 nodes and 50,000 apps.
var benchNodes, benchApps = 10_000, 50_000
