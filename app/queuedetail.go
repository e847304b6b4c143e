package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/core/resource"
	"yarnplay/internal/noeq"
)

// QueueDetail shows the selected queue as the ResourceManager's scheduler
// page does (CapacitySchedulerPage's queue block and its Active Users
// Info table), under the same labels, so a trainee recognises them on a
// real cluster. A number that a reader of the book's chapter would not
// expect carries its reason in a line beside it: the memory-only
// calculator, the AM limit's usable-resource rule, a leaf without active
// users, preemption off by default.
type QueueDetail struct {
	app.Compo

	// Frame is the step to show; its Selected queue is described.
	Frame store.Frame
}

// detailRow is one labelled number; Why, when set, says why it is what it
// is, in view.
type detailRow struct {
	_                        noeq.T
	Label, Value, Field, Why string
}

// userRow is one user of the Active Users Info table.
type userRow struct {
	_                                           noeq.T
	Name, Weight, MaxResource, UsedResource, AM string
	Schedulable, NonSchedulable                 int
	Active                                      bool
}

// queueDetailModel is everything the panel shows, as plain values.
type queueDetailModel struct {
	Path  string
	Leaf  bool
	Rows  []detailRow
	Users []userRow
	// NoUsers says why the users table is empty, when it is.
	NoUsers string
	// Calculator is the line on the resource calculator.
	Calculator string
}

// selectedQueue is the frame's selected queue, nil when none.
func selectedQueue(f *store.Frame) *core.QueueView {
	if f.Selected == "" {
		return nil
	}
	for i := range f.Queues {
		if f.Queues[i].Path == f.Selected {
			return &f.Queues[i]
		}
	}
	return nil
}

// preemptionOn reports whether the preemption monitor runs
// (yarn.resourcemanager.scheduler.monitor.enable, false by default).
func preemptionOn(f *store.Frame) bool {
	return f.Conf[config.KeyMonitorEnable] == "true"
}

// calculatorLine says which resource calculator compares resources.
func calculatorLine(f *store.Frame) string {
	if f.Dominant {
		return "DominantResourceCalculator: memory and vcores both count; a limit is reached by whichever share is larger."
	}
	return "DefaultResourceCalculator (Hadoop's default): only memory is compared. Vcores are counted and shown, but never limit a queue, a user or an AM, so a user may hold more vcores than its limit says."
}

// queueDetailOf builds the panel's model for the selected queue.
func queueDetailOf(f *store.Frame, q *core.QueueView) queueDetailModel {
	m := queueDetailModel{Path: q.Path, Leaf: q.Leaf, Calculator: calculatorLine(f)}
	add := func(label, value, field, why string) {
		m.Rows = append(m.Rows, detailRow{Label: label, Value: value, Field: field, Why: why})
	}
	add("Queue State", string(q.State), "state", stateWhy(q))
	usedWhy := "used ÷ its guarantee (Effective Capacity " + memText(q.EffectiveMin.MemoryMB) + "): past 100% the queue borrows idle capacity."
	if q.EffectiveMin.MemoryMB == 0 {
		usedWhy = "no guarantee: Hadoop shows used capacity over the cluster instead."
	}
	add("Used Capacity", pctText(float64(q.UsedCapacity)), "used-capacity", usedWhy)
	add("Absolute Used Capacity", pctText(float64(q.AbsUsedCapacity)), "abs-used-capacity", "")
	add("Absolute Capacity", pctText(float64(q.AbsCapacity)), "abs-capacity", "")
	add("Absolute Max Capacity", pctText(float64(q.AbsMaxCapacity)), "abs-max-capacity", "")
	add("Used Resources", rmText(q.Used), "used-resources", reservedWhy(q))
	if q.Absolute {
		maxText := "unlimited"
		if !q.ConfiguredMax.IsZero() {
			maxText = rmText(q.ConfiguredMax)
		}
		add("Configured Capacity", rmText(q.ConfiguredMin), "configured-capacity",
			"an absolute resource: the guarantee while the cluster has it; Hadoop derives the capacities from it.")
		add("Configured Max Capacity", maxText, "configured-max-capacity",
			"unlimited: the parent's maximum.")
	}
	if q.Weighted {
		add("Configured Weight", cfgFloat(q.Weight)+"w", "configured-weight",
			"a weight (Hadoop 3.4): the queue's share of its parent is its weight over the sum of its siblings' weights.")
		add("Normalized Weight", cfgFloat(q.NormalizedWeight), "normalized-weight",
			"weight ÷ the siblings' weights: the Absolute Capacity is this times the parent's.")
	}
	add("Effective Capacity", rmText(q.EffectiveMin), "effective-capacity", "")
	add("Effective Max Capacity", rmText(q.EffectiveMax), "effective-max-capacity", "")
	add("Num Schedulable Applications", itoa(q.NumActiveApps), "schedulable-apps", "")
	add("Num Non-Schedulable Applications", itoa(q.NumPendingApps), "non-schedulable-apps", pendingWhy(q))
	add("Num Containers", itoa(f.QueueContainers(q.Path)), "num-containers", "")
	if q.Leaf {
		add("Max Applications", itoa(q.MaxApps), "max-apps", "")
		add("Max Applications Per User", itoa(q.MaxAppsPerUser), "max-apps-per-user",
			"Max Applications × Configured Minimum User Limit Percent ÷ 100 × Configured User Limit Factor, rounded down, at most Max Applications.")
		add("Max Application Master Resources", rmText(q.AMLimit), "max-am", amLimitWhy(f, q))
		add("Used Application Master Resources", rmText(q.AMUsed), "used-am", "")
		add("Max Application Master Resources Per User", rmText(q.UserAMLimit), "max-am-per-user",
			"from the guarantee, not the current limit: Effective Capacity × AM percent × user share × user-limit-factor (for a user of weight 1).")
		add("Configured Minimum User Limit Percent", cfgFloat(q.MinUserLimitPercent)+"%", "min-user-limit", "")
		add("Configured User Limit Factor", cfgFloat(q.UserLimitFactor), "user-limit-factor", "")
		add("Ordering Policy", orderingPolicy(f, q), "ordering-policy", "applications in submission order (earlier first), after application priority.")
		add("Default Application Priority", itoa(q.DefaultAppPriority), "default-app-priority", "")
	} else {
		add("Ordering Policy", orderingPolicy(f, q), "ordering-policy",
			"children by used capacity, lowest first; ties go to the larger absolute capacity, then the configured order.")
	}
	add("Preemption", preemptionText(f, q), "preemption", preemptionWhy(f, q))
	if q.Leaf {
		m.Users, m.NoUsers = userRows(q)
	}
	return m
}

func stateWhy(q *core.QueueView) string {
	switch q.State {
	case config.Stopped:
		return "a STOPPED queue accepts no new applications."
	case config.Draining:
		return "stopped with applications left: it runs them, accepts no new ones, and is STOPPED once they end."
	}
	return ""
}

func reservedWhy(q *core.QueueView) string {
	if q.Reserved.AnyPositive() {
		return "includes " + memText(q.Reserved.MemoryMB) + " reserved: Hadoop counts reservations as used."
	}
	return ""
}

func pendingWhy(q *core.QueueView) string {
	if q.NumPendingApps > 0 {
		return "waiting to be activated: the AM resource limits or max applications hold them back."
	}
	return ""
}

// amLimitWhy says how Hadoop computes the AM limit
// (LeafQueue.calculateAndGetAMResourceLimitPerPartition): from the larger
// of the queue's current limit and its guarantee, so an idle cluster
// lets it grow towards the queue's maximum.
func amLimitWhy(f *store.Frame, q *core.QueueView) string {
	pct := cfgFloat(q.MaxAMPercent * 100)
	if f.AMLimit != nil && f.Selected == q.Path {
		t := f.AMLimit
		from := "its guarantee (" + memText(t.Guaranteed.MemoryMB) + ")"
		if frameCalc(f).GreaterThan(f.Cluster, t.CurrentLimit, t.Guaranteed) {
			from = "its current limit (" + memText(t.CurrentLimit.MemoryMB) + ", what it may grow to now, up to its max capacity), larger than its guarantee (" + memText(t.Guaranteed.MemoryMB) + ")"
		}
		return pct + "% of " + from + ": Hadoop takes the larger of the two, so an AM limit can exceed " + pct + "% of the guarantee while others are idle."
	}
	return pct + "% of the larger of the queue's current limit (up to its max capacity) and its guarantee."
}

// orderingPolicy is the queue's configured ordering policy, or Hadoop's
// default: fifo for a leaf, utilization for a parent.
func orderingPolicy(f *store.Frame, q *core.QueueView) string {
	if v := f.Conf[config.Prefix+q.Path+"."+config.SuffixOrderingPolicy]; v != "" {
		return v
	}
	if q.Leaf {
		return "fifo"
	}
	return "utilization"
}

func preemptionText(f *store.Frame, q *core.QueueView) string {
	if !preemptionOn(f) || q.DisablePreemption {
		return "disabled"
	}
	return "enabled"
}

func preemptionWhy(f *store.Frame, q *core.QueueView) string {
	switch {
	case !preemptionOn(f):
		return config.KeyMonitorEnable + " is false (Hadoop's default): no queue preempts, so borrowed capacity comes back only as containers finish."
	case q.DisablePreemption:
		return "disable_preemption is set on this queue or a parent."
	}
	return ""
}

// userRows are the leaf's users as the Active Users Info table lists them,
// and why there are none when the table is empty.
func userRows(q *core.QueueView) ([]userRow, string) {
	var rows []userRow
	for _, u := range q.Users {
		rows = append(rows, userRow{
			Name: u.Name, Weight: cfgFloat(u.Weight), Active: u.Active,
			MaxResource: resText(u.UserLimit), UsedResource: resText(u.Used),
			AM:          resText(u.AMUsed) + " / " + resText(u.AMLimit),
			Schedulable: u.ActiveApps, NonSchedulable: u.PendingApps,
		})
	}
	if len(rows) == 0 {
		return nil, "No users: no application of this queue is running or waiting."
	}
	if q.ActiveUsers == 0 {
		return rows, "No active users: none has pending requests, so the user limit divides among nobody (Hadoop's divideAndCeil by 0 gives 0) and the minimum user limit percent sets it."
	}
	return rows, ""
}

// Render draws the panel.
func (c *QueueDetail) Render() app.UI {
	f := &c.Frame
	q := selectedQueue(f)
	if q == nil {
		return app.Section().ID("queue-detail").Class("panel queue-detail").Aria("label", "Selected queue").Body(
			app.P().Class("muted").Text("Select a queue to see its numbers as the ResourceManager's scheduler page shows them."),
		)
	}
	m := queueDetailOf(f, q)
	return app.Section().ID("queue-detail").Class("panel queue-detail").DataSet("queue", m.Path).Aria("labelledby", "qd-title").Body(
		app.H2().ID("qd-title").Body(app.Text("Queue "), app.Code().Text(m.Path)),
		app.P().Class("why calc-why").DataSet("field", "calculator").Text(m.Calculator),
		app.Dl().Class("qd-rows").Body(
			app.Range(m.Rows).Slice(func(i int) app.UI {
				r := m.Rows[i]
				return app.Div().Class("qd-row").DataSet("field", r.Field).Body(
					app.Dt().Text(r.Label+":"),
					app.Dd().Body(
						app.Span().Class("qd-value").Text(r.Value),
						app.If(r.Why != "", func() app.UI { return app.Span().Class("why").Text(r.Why) }),
					),
				)
			}),
		),
		app.If(m.Leaf, func() app.UI { return activeUsersTable(&m) }),
	)
}

// activeUsersTable is the RM UI's Active Users Info table.
func activeUsersTable(m *queueDetailModel) app.UI {
	return app.Div().Class("qd-users").Body(
		app.H3().Text("Active Users Info"),
		app.If(m.NoUsers != "", func() app.UI { return app.P().Class("why").DataSet("field", "no-users").Text(m.NoUsers) }),
		app.If(len(m.Users) > 0, func() app.UI {
			return app.Div().Class("table-scroll").Body(app.Table().ID("active-users").Class("active-users").Body(
				app.THead().Body(app.Tr().Body(
					app.Th().Text("User Name"), app.Th().Text("Weight"), app.Th().Text("Max Resource"),
					app.Th().Text("Used Resource"), app.Th().Text("Used AM Resource / Max AM Resource"),
					app.Th().Text("Schedulable Apps"), app.Th().Text("Non-Schedulable Apps"),
				)),
				app.TBody().Body(app.Range(m.Users).Slice(func(i int) app.UI {
					u := m.Users[i]
					name := u.Name
					if !u.Active {
						name += " (no pending requests)"
					}
					return app.Tr().DataSet("user", u.Name).Body(
						app.Td().Text(name), app.Td().Text(u.Weight), app.Td().Text(u.MaxResource),
						app.Td().Text(u.UsedResource), app.Td().Text(u.AM),
						app.Td().Text(strconv.Itoa(u.Schedulable)), app.Td().Text(strconv.Itoa(u.NonSchedulable)),
					)
				})),
			))
		}),
	)
}

// usedPct is used over of as the calculator divides, in percent; 0 when
// of is empty (Hadoop's NaN and infinity become 0).
func usedPct(rc resource.Calculator, cluster, used, of resource.Resource) float64 {
	if of.MemoryMB <= 0 && of.VCores <= 0 {
		return 0
	}
	v := float64(rc.Divide(cluster, used, of)) * 100
	if v != v || v > 1e12 {
		return 0
	}
	return v
}

// pct1 formats a percentage with one decimal, as the RM UI's tables do.
func pct1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) + "%" }
