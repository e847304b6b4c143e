package preemption

import (
	"fmt"
	"strconv"
	"strings"

	"yarnplay/core/resource"
)

// This file mirrors the int-matrix mock of Hadoop's
// TestProportionalCapacityPreemptionPolicy (buildPolicy, mockNested,
// mockLeafQueue, mockApp, mockContainer, mockPreemptionStatus) so the tests'
// matrices can be pasted as they are.

// matrix is one test's qData: one column per queue in pre-order, root first.
type matrix struct {
	abs, used, pending, reserved, gran []resource.Resource
	maxCap, apps, subqueues            []int
}

// intMatrix is buildPolicy(int[][] qData): rows abs, maxCap, used, pending,
// reserved, apps, req granularity, subqueues; every number n is <n, n>.
func intMatrix(q [8][]int) matrix {
	res := func(row []int) []resource.Resource {
		out := make([]resource.Resource, len(row))
		for i, v := range row {
			out[i] = resource.New(int64(v), int64(v))
		}
		return out
	}
	return matrix{abs: res(q[0]), maxCap: q[1], used: res(q[2]), pending: res(q[3]), reserved: res(q[4]),
		apps: q[5], gran: res(q[6]), subqueues: q[7]}
}

// resMatrix is buildPolicy(qData, resData, ..): qData rows maxCap, apps,
// subqueues; resData rows abs, used, pending, reserved, granularity as
// "mem:vcores" (or "mem", vcores 0: parseResourceDetails).
func resMatrix(q [3][]int, r [5][]string) matrix {
	res := func(row []string) []resource.Resource {
		out := make([]resource.Resource, len(row))
		for i, s := range row {
			parts := strings.Split(s, ":")
			m, _ := strconv.ParseInt(parts[0], 10, 64)
			var v int64
			if len(parts) > 1 {
				v, _ = strconv.ParseInt(parts[1], 10, 64)
			}
			out[i] = resource.New(m, v)
		}
		return out
	}
	return matrix{abs: res(r[0]), used: res(r[1]), pending: res(r[2]), reserved: res(r[3]), gran: res(r[4]),
		maxCap: q[0], apps: q[1], subqueues: q[2]}
}

// mockOpts are the test fields that change the mock: setAMContainer,
// setAMResourcePercent, conf.setPreemptionDisabled and the calculator.
type mockOpts struct {
	amContainer bool
	amPercent   float32
	disabled    map[string]bool // explicit disable_preemption by path
	dominant    bool
}

// appName is the mock's appA, appB, ...: ApplicationId(TS, n) in global
// left-to-right order.
func appName(n int) string { return fmt.Sprintf("app%d", n) }

// divideAndCeil is ResourceCalculator.divideAndCeil(Resource, int).
func divideAndCeil(rc resource.Calculator, r resource.Resource, d int64) resource.Resource {
	dc := func(a int64) int64 {
		if d == 0 {
			return 0
		}
		return (a + d - 1) / d
	}
	if rc.Kind == resource.DefaultKind {
		return memOnly(dc(r.MemoryMB))
	}
	return resource.New(dc(r.MemoryMB), dc(r.VCores))
}

// buildMock is buildPolicy + mockNested.
func buildMock(m matrix, o mockOpts) *Snapshot {
	rc := resource.Default
	if o.dominant {
		rc = resource.Dominant
	}
	// clusterResources = leafAbsCapacities(abs, subqueues).
	var tot resource.Resource
	for i := range m.abs {
		if m.subqueues[i] == 0 {
			tot = tot.Add(m.abs[i])
		}
	}
	appAlloc := 0
	mkQueue := func(i int, path string) *Queue {
		mx := resource.New(int64(m.maxCap[i]), int64(m.maxCap[i]))
		return &Queue{
			Path:           path,
			AbsCapacity:    rc.Divide(tot, m.abs[i], tot),
			AbsMaxCapacity: float32(m.maxCap[i]) / float32(tot.MemoryMB),
			Guaranteed:     m.abs[i], Max: mx,
			Used: m.used[i], Reserved: m.reserved[i],
			MaxAMPercent: o.amPercent,
		}
	}
	// mockPreemptionStatus: explicit value of each path prefix, else inherited.
	disabled := func(path string) bool {
		d := false
		segs := strings.Split(path, ".")
		for i := range segs {
			if v, ok := o.disabled[strings.Join(segs[:i+1], ".")]; ok {
				d = v
			}
		}
		return d
	}
	root := mkQueue(0, "root")
	root.DisablePreemption = disabled("root")
	pqs := []*Queue{}
	for k := 0; k < m.subqueues[0]; k++ {
		pqs = append(pqs, root)
	}
	for i := 1; i < len(m.subqueues); i++ {
		p := pqs[len(pqs)-1] // pqs.removeLast()
		pqs = pqs[:len(pqs)-1]
		path := p.Path + ".queue" + string(rune('A'+i-1))
		q := mkQueue(i, path)
		q.DisablePreemption = disabled(path)
		if m.subqueues[i] > 0 {
			for k := 0; k < m.subqueues[i]; k++ {
				pqs = append(pqs, q)
			}
		} else {
			q.Pending = m.pending[i]
			if m.apps[i] != 0 {
				n := int64(m.apps[i])
				aUsed := divideAndCeil(rc, m.used[i], n)
				aReserve := divideAndCeil(rc, m.reserved[i], n)
				for a := 0; a < m.apps[i]; a++ {
					q.Apps = append(q.Apps, mockApp(rc, tot, appAlloc, aUsed, aReserve, m.gran[i], o.amContainer))
					appAlloc++
				}
			}
		}
		p.Children = append(p.Children, q)
	}
	return &Snapshot{Cluster: tot, Calculator: rc, Root: root}
}

// mockApp is mockApp/mockContainer: reservations then live containers of
// granularity size; with setAMContainer the first live one is the AM
// (priority 0), the others priority 1.
func mockApp(rc resource.Calculator, cluster resource.Resource, id int, used, reserved, gran resource.Resource, am bool) App {
	app := App{ID: appName(id), Seq: int64(id)}
	cAlloc := 0
	cid := func() ContainerID { return ContainerID(id*100000 + cAlloc) }
	for it := resource.None; rc.LessThan(cluster, it, reserved); it = it.Add(gran) {
		app.Containers = append(app.Containers, Container{ID: cid(), Size: gran, RequestPriority: 1, Reserved: true})
		cAlloc++
	}
	i := 0
	for it := resource.None; rc.LessThan(cluster, it, used); it = it.Add(gran) {
		c := Container{ID: cid(), Size: gran, RequestPriority: 1}
		if am && i == 0 {
			c.RequestPriority, c.IsAM = 0, true
		}
		app.Containers = append(app.Containers, c)
		cAlloc++
		i++
	}
	return app
}

// testSettings is the test's setup(): wait before kill 10000, interval
// 3000, total per round 1.0, natural termination 1.0, monitors enabled;
// max_ignored_over_capacity keeps its default 0.1.
func testSettings() Settings {
	s := DefaultSettings()
	s.Enabled = true
	s.MaxWaitBeforeKillMS = 10000
	s.MonitoringIntervalMS = 3000
	s.TotalPreemptionPerRound = 1.0
	s.NaturalTerminationFactor = 1.0
	return s
}

// markedPerApp counts MARK_CONTAINER_FOR_PREEMPTION events per application
// (the tests' verify(mDisp, times(n)).handle(IsPreemptionRequestFor(app))).
func markedPerApp(d Decision) map[string]int {
	out := map[string]int{}
	for _, s := range d.Marked {
		out[s.App]++
	}
	return out
}

// markedPerQueue counts marked containers per leaf queue path.
func markedPerQueue(d Decision) map[string]int {
	out := map[string]int{}
	for _, s := range d.Marked {
		out[s.Queue]++
	}
	return out
}
