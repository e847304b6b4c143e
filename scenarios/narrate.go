package scenarios

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"yarnplay/core"
	"yarnplay/core/resource"
)

// Narrate turns the scheduler's decision record into sentences, one per
// event (but for nodeRun or more nodes joining alike, told in one), in
// order: "n3 heartbeats with 6144 MB of 8192 MB free",
// "root orders its children by used capacity: a (0.0%), b (12.5%)",
// "leaf root.a: app_1 of alice skipped: user at its user limit (used 4096 MB > limit 3072 MB)",
// "allocated a 2048 MB container to app_1 on n3 (OFF_SWITCH, request priority 1)".
// The same events always give the same sentences. The playground shows
// them in its narration panel; yarnplay-check -narrate prints them.
//
// Narrate gives memory only, as the DefaultResourceCalculator sees
// resources; NarrateWith can add vcores.
func Narrate(events []core.Event) []string {
	return NarrateWith(events, NarrateOptions{})
}

// NarrateOptions tune NarrateWith.
type NarrateOptions struct {
	// VCores adds vcores to every resource, as the DominantResourceCalculator
	// needs ("2048 MB and 2 vcores").
	VCores bool
}

// NarrateWith is Narrate with options.
func NarrateWith(events []core.Event, opts NarrateOptions) []string {
	lines, _ := narrate(events, opts, false)
	return lines
}

// NarrationLines says, for each of events, the index of the sentence of
// Narrate's that tells it, or -1 when none does (a run of nodes joining
// alike shares one).
func NarrationLines(events []core.Event) []int {
	_, at := narrate(events, NarrateOptions{}, true)
	return at
}

// narrate is NarrateWith, and with index each event's sentence
// (NarrationLines).
func narrate(events []core.Event, opts NarrateOptions, index bool) (out []string, at []int) {
	n := narrator{vcores: opts.VCores}
	out = make([]string, 0, len(events))
	if index {
		at = make([]int, 0, len(events))
	}
	for i := 0; i < len(events); i++ {
		if k := nodesAlike(events[i:]); k >= nodeRun {
			out = append(out, joinRun(events[i:i+k]))
			for range k {
				at = append(at, len(out)-1)
			}
			i += k - 1
			continue
		}
		if s := n.one(events[i]); s != "" {
			out = append(out, s)
			at = append(at, len(out)-1)
		} else {
			at = append(at, -1)
		}
	}
	if !index {
		at = nil
	}
	return out, at
}

// nodeRun is the fewest nodes joining alike, one after another, that the
// narration tells in one sentence (joinRun) instead of one each: a
// cluster of ten thousand nodes starts with ten thousand events.
const nodeRun = 10

// nodesAlike counts the events at the start of events that are nodes
// joining with the same resources, on the same rack and in the same
// partition.
func nodesAlike(events []core.Event) int {
	if len(events) == 0 || events[0].Kind != core.EvNodeAdded {
		return 0
	}
	e0 := &events[0]
	k := 1
	for k < len(events) {
		e := &events[k]
		if e.Kind != core.EvNodeAdded || e.Resource != e0.Resource || e.Detail != e0.Detail || e.Partition != e0.Partition {
			break
		}
		k++
	}
	return k
}

// joinRun tells a run of nodes joining alike (nodesAlike) in one sentence:
// "10000 nodes join the cluster, n0 to n9999, each with 131072 MB and 64
// vcores on rack /default-rack".
func joinRun(run []core.Event) string {
	e := &run[0]
	s := fmt.Sprintf("%d nodes join the cluster, %s to %s, each with %s", len(run), e.Node, run[len(run)-1].Node, full(e.Resource))
	if e.Detail != "" {
		s += " on rack " + e.Detail
	}
	if e.Partition != "" {
		s += ", in partition " + e.Partition
	}
	return s
}

type narrator struct{ vcores bool }

// mb renders a resource: "2048 MB", or "2048 MB and 2 vcores" with vcores.
func (n narrator) mb(r resource.Resource) string {
	if !n.vcores {
		return fmt.Sprintf("%d MB", r.MemoryMB)
	}
	return fmt.Sprintf("%d MB and %d vcore%s", r.MemoryMB, r.VCores, plural(r.VCores))
}

// full renders memory and vcores always.
func full(r resource.Resource) string {
	return fmt.Sprintf("%d MB and %d vcore%s", r.MemoryMB, r.VCores, plural(r.VCores))
}

func plural(n int64) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// percent renders a fraction as a percentage with one decimal, halves
// rounded up (0.3125 is 31.3%).
func percent(f float64) string {
	return strconv.FormatFloat(math.Round(f*1000)/10, 'f', 1, 64) + "%"
}

// who names an app with its user: "app_1 of alice".
func who(e core.Event) string {
	if e.User == "" {
		return e.App
	}
	return e.App + " of " + e.User
}

// where renders a request's location: "anywhere" for "*".
func where(loc string) string {
	if loc == "" || loc == core.AnyLocation {
		return "anywhere"
	}
	return "on " + loc
}

func containers(n int) string {
	if n == 1 {
		return "1 container"
	}
	return fmt.Sprintf("%d containers", n)
}

// lowerFirst makes a reason fit after a colon.
func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func (n narrator) one(e core.Event) string {
	switch e.Kind {
	case core.EvNodeAdded:
		s := fmt.Sprintf("node %s joins the cluster with %s", e.Node, full(e.Resource))
		if e.Detail != "" {
			s += " on rack " + e.Detail
		}
		if e.Partition != "" {
			s += ", in partition " + e.Partition
		}
		return s
	case core.EvNodeRemoved:
		return fmt.Sprintf("node %s leaves the cluster, taking %s with it", e.Node, full(e.Resource))
	case core.EvHeartbeat:
		if e.Limit.IsZero() {
			return e.Node + " heartbeats"
		}
		return fmt.Sprintf("%s heartbeats with %s of %s free", e.Node, n.mb(e.Resource), n.mb(e.Limit))
	case core.EvContainerFinished:
		s := fmt.Sprintf("container %d of %s (%s) on %s completes", e.Container, e.App, n.mb(e.Resource), e.Node)
		if e.Reason != "" && e.Reason != core.ReasonCompleted {
			s += ": " + string(e.Reason)
		}
		return s
	case core.EvAssignPass:
		if e.Seq <= 1 {
			return ""
		}
		return fmt.Sprintf("%s looks for another assignment (pass %d) from root", e.Node, e.Seq)
	case core.EvHeartbeatDone:
		if e.Reason == core.ReasonServedReservation {
			// The node's heartbeat went to its reservation (fulfilled
			// or kept): nothing else is scheduled on it, and Seq counts
			// only the containers of the walk from root, none.
			return fmt.Sprintf("%s is done: it served its reservation, so nothing else is scheduled on it in this heartbeat", e.Node)
		}
		s := fmt.Sprintf("%s is done after %s", e.Node, containers(e.Seq))
		if e.Reason != "" {
			s += ": " + string(e.Reason)
		}
		return s
	case core.EvQueueVisit:
		if e.Reason == core.ReasonNodeReserved {
			return fmt.Sprintf("%s is reserved for %s: only that reservation of %s in %s is tried, nothing else is scheduled on the node", e.Node, e.App, n.mb(e.Resource), e.Queue)
		}
		if e.Partition != "" {
			return fmt.Sprintf("%s is tried in partition %s: %s used there (%s of its capacity there), limit %s", e.Queue, e.Partition, n.mb(e.Used), percent(float64(e.Value)), n.mb(e.Limit))
		}
		return fmt.Sprintf("%s is tried: %s used (%s of its capacity), limit %s", e.Queue, n.mb(e.Used), percent(float64(e.Value)), n.mb(e.Limit))
	case core.EvQueueSkipped:
		return n.queueSkipped(e)
	case core.EvChildOrder:
		return childOrder(e)
	case core.EvAppConsidered:
		return fmt.Sprintf("leaf %s considers %s: the user has %s of a %s user limit; queue headroom %s",
			e.Queue, who(e), n.mb(e.Used), n.mb(e.Limit), n.mb(e.Resource))
	case core.EvAppSkipped:
		return n.appSkipped(e)
	case core.EvAllocated:
		s := fmt.Sprintf("allocated a %s container to %s on %s (%s, request priority %d)", n.mb(e.Resource), e.App, e.Node, e.Locality, e.Priority)
		if e.Partition != "" {
			s += " in partition " + e.Partition
			if e.Detail == core.DetailShared {
				s += ", lent to an ask for the default partition (the partition is not exclusive)"
			}
		}
		return s
	case core.EvPartitionShared:
		return fmt.Sprintf("%s found nothing for partition %s's own asks; %s is not exclusive, so its %s free are offered to asks for the default partition (which take them only after missing as many chances as the cluster has nodes)",
			e.Node, e.Partition, e.Partition, n.mb(e.Resource))
	case core.EvReserved:
		s := fmt.Sprintf("reserved %s on %s for %s (request priority %d)", n.mb(e.Resource), e.Node, e.App, e.Priority)
		if !e.Limit.IsZero() || !e.Used.IsZero() {
			s += fmt.Sprintf(": the node has only %s free", n.mb(e.Used))
		}
		return s
	case core.EvReReserved:
		return fmt.Sprintf("%s keeps its %s reservation on %s (request priority %d): still only %s free", e.App, n.mb(e.Resource), e.Node, e.Priority, n.mb(e.Used))
	case core.EvReservationFulfil:
		return fmt.Sprintf("the reservation on %s is fulfilled: allocated a %s container to %s (%s, request priority %d)", e.Node, n.mb(e.Resource), e.App, e.Locality, e.Priority)
	case core.EvUnreserved:
		s := fmt.Sprintf("the %s reservation of %s on %s is released", n.mb(e.Resource), e.App, e.Node)
		if e.Reason != "" {
			s += ": " + string(e.Reason)
		}
		return s
	case core.EvAppSubmitted:
		s := fmt.Sprintf("%s is submitted to %s", who(e), e.Queue)
		if !e.Resource.IsZero() {
			s += fmt.Sprintf(" with a %s AM", n.mb(e.Resource))
		}
		if e.Priority != 0 {
			s += fmt.Sprintf(" at application priority %d", e.Priority)
		}
		return s
	case core.EvAppRejected:
		return fmt.Sprintf("%s is rejected: %s", who(e), e.Detail)
	case core.EvAppActivated:
		s := fmt.Sprintf("%s is activated in %s", who(e), e.Queue)
		if !e.Limit.IsZero() {
			s += fmt.Sprintf(": AM usage now %s of the %s AM limit", n.mb(e.Used), n.mb(e.Limit))
		}
		if e.Partition != "" {
			s += " of partition " + e.Partition
		}
		return s
	case core.EvAppPending:
		switch e.Reason {
		case core.ReasonQueueMaxParallelApps:
			return fmt.Sprintf("%s is accepted but not runnable: queue %s already runs %d applications, its max-parallel-apps; it waits, asking for nothing, until one finishes", who(e), e.Detail, e.Seq)
		case core.ReasonUserMaxParallelApps:
			return fmt.Sprintf("%s is accepted but not runnable: user %s already runs %d applications, the user's max-parallel-apps; it waits, asking for nothing, until one finishes", who(e), e.Detail, e.Seq)
		}
		return fmt.Sprintf("%s stays pending in %s: %s (AM usage would be %s, limit %s)", who(e), e.Queue, e.Reason, n.mb(e.Used), n.mb(e.Limit))
	case core.EvFairOrder:
		return fmt.Sprintf("fair leaf %s tries its applications least used first, by the memory cached at their last reordering (FairOrderingPolicy): %s", e.Queue, fairOrder(e.Detail))
	case core.EvChildList:
		return fmt.Sprintf("after the refresh %s keeps its children in a Java HashMap's order, by the hash of their paths (ParentQueue.reinitialize): %s; children tied on used capacity and capacity are now tried in this order, not the configured one", e.Queue, e.Detail)
	case core.EvAppRunnable:
		return fmt.Sprintf("%s is now runnable (an application under the same max-parallel-apps limit finished) and joins %s's pending applications", e.App, e.Queue)
	case core.EvAppRunning:
		return fmt.Sprintf("%s is RUNNING", e.App)
	case core.EvAppFinished:
		return fmt.Sprintf("%s finishes", e.App)
	case core.EvAppKilled:
		return fmt.Sprintf("%s is killed", e.App)
	case core.EvAttemptFailed:
		return fmt.Sprintf("%s lost its AM container (%s): attempt %d fails, its other containers are killed and its asks dropped; attempt %d is ACCEPTED and asks for a new AM",
			e.App, e.Reason, e.Seq-1, e.Seq)
	case core.EvRequest:
		if e.Seq == 0 {
			return fmt.Sprintf("%s withdraws its ask at request priority %d %s", e.App, e.Priority, where(e.Detail))
		}
		return fmt.Sprintf("%s asks for %s of %s at request priority %d %s", e.App, containers(e.Seq), n.mb(e.Resource), e.Priority, where(e.Detail))
	case core.EvQueueState:
		s := fmt.Sprintf("%s is now %s", e.Queue, e.Detail)
		if e.Reason != "" {
			s += " (" + string(e.Reason) + ")"
		}
		return s
	case core.EvQueueCreated:
		if strings.Contains(e.Detail, "flexible auto-queue creation") {
			return fmt.Sprintf("%s does not exist yet and the application is placed in it: Hadoop 3.4 creates it as a dynamic leaf %s", e.Queue, e.Detail)
		}
		return fmt.Sprintf("the queue mappings place the application in %s, a new leaf: it is auto-created (AutoCreatedLeafQueue) %s", e.Queue, e.Detail)
	case core.EvQueueActivated:
		return fmt.Sprintf("auto-created %s is activated: %s (GuaranteedOrZeroCapacityOverTimePolicy, while its parent has room)", e.Queue, e.Detail)
	case core.EvQueueDeleted:
		return fmt.Sprintf("dynamic queue %s is deleted (AutoCreatedQueueDeletionPolicy): %s", e.Queue, e.Detail)
	case core.EvQueueDeactivated:
		return fmt.Sprintf("auto-created %s has no applications and is deactivated: %s (GuaranteedOrZeroCapacityOverTimePolicy)", e.Queue, e.Detail)
	case core.EvRefreshed:
		return "the queues are refreshed with the new configuration" + detail(e)
	case core.EvRefreshRefused:
		return "the refresh is refused; the old configuration stays in force" + detail(e)
	case core.EvConfigWarning:
		return "configuration warning: " + e.Detail
	case core.EvPreemptionMarked:
		return fmt.Sprintf("preemption marks container %d of %s in %s (%s)", e.Container, e.App, e.Queue, n.mb(e.Resource))
	case core.EvPreemptionKilled:
		return fmt.Sprintf("preemption kills container %d of %s in %s (%s)", e.Container, e.App, e.Queue, n.mb(e.Resource))
	case core.EvPreemptionRound:
		return "a preemption round runs" + detail(e)
	case core.EvTick:
		return fmt.Sprintf("time is now tick %d", e.Seq)
	}
	return fmt.Sprintf("%s%s", e.Kind, detail(e))
}

func detail(e core.Event) string {
	if e.Detail == "" {
		return ""
	}
	return ": " + e.Detail
}

func (n narrator) queueSkipped(e core.Event) string {
	subject := e.Queue
	if e.App != "" {
		subject = fmt.Sprintf("%s (at %s)", e.Queue, e.App)
	}
	if e.Partition != "" {
		subject += " in partition " + e.Partition
	}
	s := fmt.Sprintf("%s is skipped: %s", subject, e.Reason)
	switch e.Reason {
	case core.ReasonQueueAtMax:
		s += fmt.Sprintf(" (used %s, limit %s)", n.mb(e.Used), n.mb(e.Limit))
	case core.ReasonNodeFull:
		if !e.Resource.IsZero() {
			s += fmt.Sprintf(" (%s free)", n.mb(e.Resource))
		}
	case core.ReasonBlockedHeadroom:
		if !e.Resource.IsZero() {
			s += fmt.Sprintf(" (%s held back)", n.mb(e.Resource))
		}
	}
	return s
}

func (n narrator) appSkipped(e core.Event) string {
	s := fmt.Sprintf("leaf %s: %s skipped", e.Queue, who(e))
	if e.Priority > 0 || !e.Resource.IsZero() {
		s += fmt.Sprintf(" at request priority %d", e.Priority)
	}
	s += ": " + orDefault(string(e.Reason), "nothing to assign")
	switch e.Reason {
	case core.ReasonUserLimit:
		rel := ","
		if e.Used.MemoryMB > e.Limit.MemoryMB {
			rel = " >"
		}
		s += fmt.Sprintf(" (used %s%s limit %s)", n.mb(e.Used), rel, n.mb(e.Limit))
	case core.ReasonLocalityDelay:
		s += fmt.Sprintf(" (%d missed scheduling opportunities)", e.Seq)
	case core.ReasonHeadroom, core.ReasonNoFit, core.ReasonNeverFits:
		if !e.Resource.IsZero() {
			s += fmt.Sprintf(" (asks %s)", n.mb(e.Resource))
		}
	}
	if e.Detail != "" {
		s += ": " + lowerFirst(e.Detail)
	}
	return s
}

// childOrder renders "root orders its children by used capacity: a (0.0%),
// b (12.5%)" from the Detail "root.a=0.0000, root.b=0.1250".
func childOrder(e core.Event) string {
	parts := strings.Split(e.Detail, ", ")
	names := make([]string, 0, len(parts))
	how := "by used capacity"
	for _, p := range parts {
		path, val, ok := strings.Cut(p, "=")
		val, prio, hasPrio := strings.Cut(val, "@")
		f, err := strconv.ParseFloat(val, 64)
		if !ok || err != nil {
			return fmt.Sprintf("%s orders its children by used capacity: %s", e.Queue, e.Detail)
		}
		name := strings.TrimPrefix(path, e.Queue+".")
		if hasPrio {
			how = "by priority-utilization (those under their guarantee first, then higher priority, then less used)"
			names = append(names, fmt.Sprintf("%s (%s, priority %s)", name, percent(f), prio))
			continue
		}
		names = append(names, fmt.Sprintf("%s (%s)", name, percent(f)))
	}
	return fmt.Sprintf("%s orders its children %s: %s", e.Queue, how, strings.Join(names, ", "))
}

// fairOrder renders a fair_order event's "app=MB, ..." as "app (MB MB), ...".
func fairOrder(d string) string {
	parts := strings.Split(d, ", ")
	for i, p := range parts {
		if app, mb, ok := strings.Cut(p, "="); ok {
			parts[i] = app + " (" + mb + " MB)"
		}
	}
	return strings.Join(parts, ", ")
}
