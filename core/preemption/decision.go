package preemption

import "yarnplay/core/resource"

// Event names the ContainerPreemptEvent type (SchedulerEventType) a
// Selection stands for.
type Event string

const (
	// MarkForPreemption is MARK_CONTAINER_FOR_PREEMPTION: the application is
	// asked to give the container back (a newly selected candidate).
	MarkForPreemption Event = "MARK_CONTAINER_FOR_PREEMPTION"
	// MarkKillable is MARK_CONTAINER_FOR_KILLABLE: the candidate was selected
	// again at least max_wait_before_kill after its first selection; the
	// scheduler kills it.
	MarkKillable Event = "MARK_CONTAINER_FOR_KILLABLE"
	// KillReserved is KILL_RESERVED_CONTAINER: a reservation visited by the
	// FIFO selector is dropped at once.
	KillReserved Event = "KILL_RESERVED_CONTAINER"
	// NoEvent is no event: the container was selected in this round
	// (Decision.Selected), or selected again while its kill wait is still
	// running (Decision.Waiting).
	NoEvent Event = ""
)

// Selection is one container the round selected or acted on.
type Selection struct {
	// ContainerID is the container.
	ContainerID ContainerID
	// App and Queue are the container's application id and leaf queue path.
	App, Queue string
	// Size is the container's resource.
	Size resource.Resource
	// IsAM and Reserved copy the container's flags.
	IsAM, Reserved bool
	// Event is the event the scheduler receives (NoEvent for none).
	Event Event
	// FirstSelectedMS is when the container was first selected (this round's
	// time for a new candidate; unset for a reservation kill).
	FirstSelectedMS int64
	// Reason says in words why the container was chosen or acted on.
	Reason string
}

// QueueDecision is the policy's computation for one queue
// (TempQueuePerPartition after the ideal assignment). The computed resources
// are Hadoop's values as they are: with the default calculator only their
// memory is meaningful (Hadoop's arithmetic gives vcores no sense there), and
// with either calculator a component may be negative where Hadoop does not
// clamp it.
type QueueDecision struct {
	// Path is the queue's full path.
	Path string
	// Depth is the queue's depth (root = 0).
	Depth int
	// Leaf tells leaves apart.
	Leaf bool
	// Guaranteed, Max, Used, Reserved and Killable are the snapshot values the
	// policy used (getGuaranteed / getMax resolved).
	Guaranteed, Max, Used, Reserved, Killable resource.Resource
	// Pending is the leaf's pending demand, or the sum of its children's for
	// a parent; PendingDeductReserved is the same with reservations deducted
	// (the amount the ideal assignment offers against).
	Pending, PendingDeductReserved resource.Resource
	// PreemptableExtra and UntouchableExtra split used above guaranteed into
	// what may and may not be preempted (updatePreemptableExtras).
	PreemptableExtra, UntouchableExtra resource.Resource
	// Ideal is the ideal assignment (idealAssigned).
	Ideal resource.Resource
	// ToBePreempted is used - killable above max(ideal, min(used+pending,
	// guaranteed)), times this level's scaling factor (assignPreemption).
	ToBePreempted resource.Resource
	// ResToObtain is what the FIFO selector tries to take from a leaf: zero
	// within the dead zone, else ToBePreempted x natural_termination_factor
	// rounded up (calculateResToObtainByPartitionForLeafQueues).
	ResToObtain resource.Resource
	// ScalingFactor is the factor applied to ToBePreempted at the level of
	// this queue (1 when preemption needed there fits in the round's limit).
	ScalingFactor float32
	// PreemptionDisabled copies the queue's flag.
	PreemptionDisabled bool
	// Selected sums what the FIFO selector took from a leaf.
	Selected resource.Resource
	// SelectedCount counts the containers the FIFO selector took from a leaf.
	SelectedCount int
	// Reason says why a queue yields nothing ("" when it yields).
	Reason string
}

// Decision is everything one Round decided, as data.
type Decision struct {
	// NowMS is the round's time.
	NowMS int64
	// Error is set when the snapshot could not be evaluated (see Validate);
	// nothing else is then filled and the state is untouched.
	Error string
	// Disabled is set when Settings.Enabled is false: the monitor did not run.
	Disabled bool
	// ObserveOnly is set when candidates were computed but no event was sent
	// and the state was not changed.
	ObserveOnly bool
	// Cluster is the cluster resource; TotalPreemptionAllowed is cluster x
	// total_preemption_per_round, and AllowedLeft what remained of it after
	// selection.
	Cluster, TotalPreemptionAllowed, AllowedLeft resource.Resource
	// Queues is every queue in pre-order (root first, children in order).
	Queues []QueueDecision
	// Selected is every container the FIFO selector chose this round, in
	// selection order (Hadoop's candidate set for the round).
	Selected []Selection
	// Marked are the selected containers not remembered before: each is sent
	// MARK_CONTAINER_FOR_PREEMPTION and remembered with NowMS.
	Marked []Selection
	// Waiting are the selected containers already marked in an earlier round
	// whose kill wait has not elapsed (no event is sent).
	Waiting []Selection
	// Killed are the reservations dropped at once (KILL_RESERVED_CONTAINER,
	// in selection order) followed by the candidates selected again with
	// firstSelected + max_wait_before_kill <= now (MARK_CONTAINER_FOR_KILLABLE).
	Killed []Selection
	// Forgotten are the remembered candidates dropped this round because they
	// were first selected more than 2 x max_wait_before_kill ago.
	Forgotten []ContainerID
	// SelectedTotal, MarkedTotal and KilledTotal sum the sizes of the lists.
	SelectedTotal, MarkedTotal, KilledTotal resource.Resource
}

// Queue returns the decision for path, or nil.
func (d *Decision) Queue(path string) *QueueDecision {
	for i := range d.Queues {
		if d.Queues[i].Path == path {
			return &d.Queues[i]
		}
	}
	return nil
}
