package app

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
)

func TestQueueDetailShowsTheRMUINumbers(t *testing.T) {
	f := fixtureFrame(t, 10, "root.eng.dev", "")
	q := queueOf(t, &f, "root.eng.dev")
	html := renderHTML(t, &QueueDetail{Frame: f})
	has(t, html, `data-queue="root.eng.dev"`)
	for _, label := range []string{"Queue State:", "Used Capacity:", "Absolute Used Capacity:", "Absolute Capacity:",
		"Absolute Max Capacity:", "Num Containers:", "Max Applications:", "Max Applications Per User:",
		"Ordering Policy:", "Preemption:", "Max Application Master Resources:", "Used Application Master Resources:",
		"Active Users Info", "Max Resource", "Schedulable Apps", "Non-Schedulable Apps"} {
		has(t, html, label)
	}
	m := queueDetailOf(&f, q)
	value := func(field string) detailRow {
		for _, r := range m.Rows {
			if r.Field == field {
				return r
			}
		}
		t.Fatalf("no row %s", field)
		return detailRow{}
	}
	require.Equal(t, pctText(float64(q.UsedCapacity)), value("used-capacity").Value)
	require.Contains(t, value("used-capacity").Why, "guarantee")
	require.Equal(t, "RUNNING", value("state").Value)
	require.Equal(t, strconv.Itoa(q.MaxApps), value("max-apps").Value)
	require.Equal(t, "fifo", value("ordering-policy").Value)
	require.Equal(t, "disabled", value("preemption").Value)
	require.Contains(t, value("preemption").Why, "monitor.enable is false", "why preemption is off, in view")
	require.Contains(t, value("max-am").Why, "Hadoop takes the larger", "the AM limit's rule, in view")
	require.Contains(t, m.Calculator, "only memory is compared")
	live := 0
	for _, a := range f.Apps {
		if a.Queue == q.Path {
			live += a.LiveContainers
		}
	}
	require.Positive(t, live)
	require.Equal(t, strconv.Itoa(live), value("num-containers").Value)
	var names []string
	for _, u := range m.Users {
		names = append(names, u.Name)
	}
	require.Equal(t, []string{"alice", "bob"}, names)
	require.Equal(t, resText(q.Users[0].AMUsed)+" / "+resText(q.Users[0].AMLimit), m.Users[0].AM)

	// A parent's ordering policy says the tie-break.
	p := queueDetailOf(&f, queueOf(t, &f, "root.eng"))
	for _, r := range p.Rows {
		if r.Field == "ordering-policy" {
			require.Equal(t, "utilization", r.Value)
			require.Contains(t, r.Why, "ties go to the larger absolute capacity")
		}
	}
}

func TestQueueDetailSaysWhenNoUserIsActive(t *testing.T) {
	f := fixtureFrame(t, 14, "root.eng.dev", "")
	q := *queueOf(t, &f, "root.eng.dev")
	require.NotEmpty(t, q.Users)
	q.ActiveUsers = 0 // as when no user of the leaf has pending requests
	_, why := userRows(&q)
	require.Contains(t, why, "No active users")
	terms := *f.UserLimit
	terms.ActiveWeights = 0
	lines := userLimitLines(&terms, q.EffectiveMin, frameCalc(&f))
	require.Contains(t, lines[3].Why, "no active users", "the division by zero users is explained, not shown as a bare 0")
}

func TestQueueDetailAsksForASelection(t *testing.T) {
	f := fixtureFrame(t, 10, "", "")
	has(t, renderHTML(t, &QueueDetail{Frame: f}), "Select a queue")
}

func TestClusterMetricsCountAsTheRMDoes(t *testing.T) {
	f := fixtureFrame(t, 14, "", "")
	m := clusterMetricsOf(&f)
	require.Equal(t, 4, m.Submitted)
	require.Equal(t, len(f.Containers), m.Containers, "Containers Running is the containers drawn")
	require.Equal(t, m.Submitted, m.Pending+m.Running+m.Completed)
	require.Equal(t, 4, m.Nodes)
	var used, reserved int64
	for i := range f.Nodes {
		n := f.NodeBrief(i)
		used += n.Allocated.MemoryMB
		if n.Reservation != nil {
			reserved += n.Reservation.Size.MemoryMB
		}
	}
	require.Equal(t, used, m.MemUsed)
	require.Positive(t, reserved, "the fixture reserves a node")
	require.Equal(t, reserved, m.MemReserved)
	html := renderHTML(t, &ClusterMetrics{M: m})
	has(t, html, "Apps Submitted", "Containers Running", "Memory Reserved", "VCores Total", "Active Nodes",
		`data-field="containers-running"`, "not compared")
}

func TestAppTableHasTheRMUIColumns(t *testing.T) {
	f := fixtureFrame(t, 14, "", "")
	rows, _ := appRows(&f)
	require.Len(t, rows, 4)
	a := f.Apps[0]
	r := rows[0]
	require.Equal(t, a.Priority, r.Priority)
	require.Equal(t, "0", r.Start)
	require.Empty(t, r.Finish, "a live app has no finish tick")
	require.Equal(t, a.Consumption.MemoryMB, r.AllocMB)
	require.Equal(t, a.Consumption.VCores, r.AllocVCores)
	dev := queueOf(t, &f, "root.eng.dev")
	want := float64(a.Consumption.MemoryMB) / float64(dev.EffectiveMin.MemoryMB) * 100
	require.Equal(t, strconv.FormatFloat(want, 'f', 1, 64)+"%", r.PctQueue, "% of Queue is over the queue's guarantee")
	html := renderHTML(t, &aeTable{Ed: &AppEditor{}, Rows: rows})
	has(t, html, "Application Priority", "StartTime (tick)", "FinishTime (tick)", "Allocated Memory MB",
		"Allocated CPU VCores", "% of Queue", "% of Cluster", "request priority")
}

func TestChildRanksReadTheStepsOrder(t *testing.T) {
	f := fixtureFrame(t, 10, "", "")
	ranks := childRanks(&f)
	require.NotEmpty(t, ranks, "a heartbeat walks root")
	var order []core.Event
	for _, e := range f.Events {
		if e.Kind == core.EvChildOrder && e.Queue == "root" {
			order = append(order, e)
		}
	}
	last := order[len(order)-1]
	first, _, _ := strings.Cut(last.Detail, "=")
	require.Equal(t, 1, ranks[first].Rank)
	require.Equal(t, "1st of 2 in root's order", rankText(ranks[first]))
	require.Equal(t, "2nd of 3 in a's order (tie: larger capacity first)", rankText(childRank{Rank: 2, Of: 3, Tie: true, Parent: "root.a"}))
	html := renderHTML(t, &QueueBars{Frame: f})
	has(t, html, `data-field="rank"`, "in root&#39;s order")
}

func TestNodesFadeTheContainersCompletedInTheStep(t *testing.T) {
	f := fixtureFrame(t, 14, "", "")
	node := f.NodeBrief(0)
	for i := range f.Nodes {
		if n := f.NodeBrief(i); n.Allocated.MemoryMB < node.Allocated.MemoryMB && n.Reservation == nil {
			node = n
		}
	}
	f.Events = append(append([]core.Event(nil), f.Events...), core.Event{
		Kind: core.EvContainerFinished, Node: node.Name, Queue: "root.eng.dev", App: "app_1", Resource: f.MinAlloc})
	html := renderHTML(t, &NodeGrid{Frame: f})
	require.Equal(t, 1, strings.Count(html, `class="cell done"`), "one cell of the completed container fades on its node")
}
