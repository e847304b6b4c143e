package config

import (
	"testing"
)

// FuzzParse feeds arbitrary values to the properties Parse reads: it must
// never panic, and an accepted configuration must hold Hadoop's invariants.
func FuzzParse(f *testing.F) {
	f.Add("a,b", "50", "50", "100", "", "memory-mb=1024,vcores=1", "1", "100", "1", "*")
	f.Add("a, b ,", "49.96f", "50", "-1", "running", "", "2.5", "25", "0x10", " ")
	f.Add("a,a", "1e2", "0", "0", "STOPPED", "vcores=9", "NaN", "0", "-1", "u g")
	f.Fuzz(func(t *testing.T, queues, capA, capB, maxA, stateB, maxAlloc, ulf, ul, maxApps, acl string) {
		c := kv(p+"queues", queues, p+"a.capacity", capA, p+"b.capacity", capB, p+"a.maximum-capacity", maxA,
			p+"b.state", stateB, p+"a.maximum-allocation", maxAlloc, p+"b.user-limit-factor", ulf,
			p+"b.minimum-user-limit-percent", ul, p+"b.maximum-applications", maxApps, p+"a.acl_submit_applications", acl,
			p+"b.user-settings.u.weight", ulf)
		parsed, err := Parse(c, Hadoop2)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error is not *Error: %T %v", err, err)
			}
			return
		}
		parsed.Root.Walk(func(q *QueueConf) {
			if q.AbsCapacity > q.AbsMaxCapacity {
				t.Fatalf("%s: abs capacity %v > abs max %v", q.Path, q.AbsCapacity, q.AbsMaxCapacity)
			}
			if q.Capacity < 0 || q.Capacity > 1 {
				t.Fatalf("%s: capacity %v", q.Path, q.Capacity)
			}
			if q.IsLeaf() && q.MaxApplicationsPerUser > q.MaxApplications {
				t.Fatalf("%s: per user %d > %d", q.Path, q.MaxApplicationsPerUser, q.MaxApplications)
			}
			if q.MaxAlloc.MemoryMB > parsed.Settings.MaxAlloc.MemoryMB || q.MaxAlloc.VCores > parsed.Settings.MaxAlloc.VCores {
				t.Fatalf("%s: max allocation %v", q.Path, q.MaxAlloc)
			}
		})
	})
}
