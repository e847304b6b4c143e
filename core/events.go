package core

import "yarnplay/core/resource"

// EventKind names what an Event records.
type EventKind string

// Event kinds. Together they are the scheduler's decision record.
const (
	EvNodeAdded         EventKind = "node_added"
	EvNodeRemoved       EventKind = "node_removed"
	EvHeartbeat         EventKind = "heartbeat"          // a node heartbeat starts
	EvContainerFinished EventKind = "container_finished" // a container completed (finished, released or lost)
	EvAssignPass        EventKind = "assign_pass"        // one scheduling pass of a heartbeat starts (Seq = pass number)
	EvHeartbeatDone     EventKind = "heartbeat_done"     // why the heartbeat stopped assigning (Reason)
	EvQueueVisit        EventKind = "queue_visit"        // a queue is tried: its used capacity and limit
	EvQueueSkipped      EventKind = "queue_skipped"      // a queue was not tried or gave nothing (Reason)
	EvChildOrder        EventKind = "child_order"        // a parent's children in the order it tries them (Detail)
	EvChildList         EventKind = "child_list"         // after a refresh, a parent's child list in HashMap order, not the configured one (Detail)
	EvAppConsidered     EventKind = "app_considered"     // a leaf considers an app (its user limit and headroom)
	EvFairOrder         EventKind = "fair_order"         // a fair leaf's apps in the order it tries them, with their cached usage (Detail)
	EvAppSkipped        EventKind = "app_skipped"        // an app got nothing on this node (Reason)
	EvAllocated         EventKind = "allocated"          // a new container
	EvReserved          EventKind = "reserved"           // a new reservation
	EvReReserved        EventKind = "re_reserved"        // an existing reservation still does not fit
	EvReservationFulfil EventKind = "reservation_fulfilled"
	EvUnreserved        EventKind = "unreserved" // a reservation released (Reason)
	EvAppSubmitted      EventKind = "app_submitted"
	EvAppRejected       EventKind = "app_rejected"
	EvAppActivated      EventKind = "app_activated"
	EvAppPending        EventKind = "app_pending"  // left pending by an AM limit (Reason)
	EvAppRunnable       EventKind = "app_runnable" // an attempt over max-parallel-apps may now run; it joins its leaf's pending applications
	EvAppRunning        EventKind = "app_running"
	EvAppFinished       EventKind = "app_finished"
	EvAppKilled         EventKind = "app_killed"
	EvAttemptFailed     EventKind = "attempt_failed" // the AM container was lost (Reason); the next attempt (Seq) waits for its AM (Detail: the diagnostics)
	EvRequest           EventKind = "request"
	EvQueueState        EventKind = "queue_state"
	EvQueueCreated      EventKind = "queue_created"     // a leaf auto-created under a managed parent, for an application placed in it (Detail)
	EvQueueActivated    EventKind = "queue_activated"   // an auto-created leaf given its template's capacity (Detail: its capacities)
	EvQueueDeactivated  EventKind = "queue_deactivated" // an auto-created leaf without applications set back to capacity 0 (Detail)
	EvQueueDeleted      EventKind = "queue_deleted"     // an idle dynamic queue deleted by AutoCreatedQueueDeletionPolicy (Detail)
	EvRefreshed         EventKind = "refreshed"
	EvRefreshRefused    EventKind = "refresh_refused"
	EvConfigWarning     EventKind = "config_warning"
	EvPreemptionMarked  EventKind = "preemption_marked"
	EvPreemptionKilled  EventKind = "preemption_killed"
	EvPreemptionRound   EventKind = "preemption_round"
	EvTick              EventKind = "tick"
	// EvPartitionShared: a node of a non-exclusive partition gave nothing
	// to its partition's asks, and is offered to the default partition's
	// (IGNORE_PARTITION_EXCLUSIVITY; Partition names it).
	EvPartitionShared EventKind = "partition_shared"
)

// DetailShared is the Detail of an EvAllocated made on a non-exclusive
// partition's node for an ask of the default partition.
const DetailShared = "shared"

// Reason says why something was skipped, refused or released. Reasons are
// constants so that "why" is data the UI and tests can match.
type Reason string

// Reasons.
const (
	ReasonNone              Reason = ""
	ReasonNoPending         Reason = "no pending requests"
	ReasonNodeFull          Reason = "node has less free than the minimum allocation"
	ReasonNodeReserved      Reason = "node is reserved"
	ReasonQueueAtMax        Reason = "queue at its maximum capacity"
	ReasonHeadroom          Reason = "queue headroom too small for the request"
	ReasonUserLimit         Reason = "user at its user limit"
	ReasonLocalityDelay     Reason = "waiting for locality"
	ReasonRelaxLocality     Reason = "locality not relaxed for this node"
	ReasonNoFit             Reason = "request does not fit the node and no reservation is made"
	ReasonNeverFits         Reason = "request is larger than the node"
	ReasonNeedUnreserve     Reason = "would need to release a reservation first"
	ReasonFIFO              Reason = "later apps wait to respect FIFO"
	ReasonFairOrder         Reason = "later apps wait: the fair ordering policy puts this app first"
	ReasonNoChildAssigned   Reason = "no child queue assigned anything"
	ReasonOffSwitchLimit    Reason = "off-switch assignments per heartbeat reached"
	ReasonReservationMade   Reason = "a reservation ends the heartbeat"
	ReasonMaxAssignments    Reason = "container assignments per heartbeat reached"
	ReasonAssignMultipleOff Reason = "multiple assignments per heartbeat disabled"
	ReasonNothingAssigned   Reason = "nothing assigned"
	ReasonServedReservation Reason = "the node served its reservation"
	ReasonQueueAMLimit      Reason = "queue AM resource limit"
	ReasonUserAMLimit       Reason = "user AM resource limit"
	// max-parallel-apps (CSMaxRunningAppsEnforcer): the event's Detail
	// names the queue path or the user, Seq the limit.
	ReasonQueueMaxParallelApps Reason = "queue max-parallel-apps"
	ReasonUserMaxParallelApps  Reason = "user max-parallel-apps"
	ReasonNoLongerNeeded       Reason = "the app no longer needs it"
	ReasonContinueLooking      Reason = "allocated elsewhere (reservations-continue-look-all-nodes)"
	ReasonAppFinished          Reason = "the app finished"
	ReasonNodeRemoved          Reason = "the node left the cluster"
	ReasonCompleted            Reason = "completed"
	ReasonReleased             Reason = "released by the application"
	ReasonPreempted            Reason = "preempted"
	ReasonAttemptFailed        Reason = "its application attempt failed"
	ReasonBlockedHeadroom      Reason = "a sibling is blocked by its headroom"
	ReasonCommitRejected       Reason = "proposal rejected at commit"
	// Node labels (partitions).
	ReasonNoPartitionAccess  Reason = "queue cannot access the node's partition"
	ReasonOtherPartition     Reason = "request is for another partition than the node's"
	ReasonAMNotShared        Reason = "AM containers are not placed on a shared partition"
	ReasonDefaultFirst       Reason = "default-partition request tries the default partition's nodes first"
	ReasonPartitionExclusive Reason = "the node's partition is exclusive: its idle resources are not shared"
)

// Event is one recorded decision or state change. Fields that do not apply
// to a kind are left zero.
type Event struct {
	Tick     int64
	Kind     EventKind
	Node     string `json:",omitempty"`
	Queue    string `json:",omitempty"`
	App      string `json:",omitempty"`
	User     string `json:",omitempty"`
	Priority int    `json:",omitempty"` // request priority
	// Container is the container or reservation id.
	Container int64             `json:",omitempty"`
	Resource  resource.Resource `json:",omitempty"`
	Locality  Locality          `json:",omitempty"`
	Reason    Reason            `json:",omitempty"`
	// Used, Limit and Value carry the numbers of a check: e.g. a user's used
	// resources and user limit, or a queue's used capacity.
	Used   resource.Resource `json:",omitempty"`
	Limit  resource.Resource `json:",omitempty"`
	Value  float32           `json:",omitempty"`
	Seq    int               `json:",omitempty"` // assignment pass of the heartbeat, or a count
	Depth  int               `json:",omitempty"` // queue depth for tree visits
	Detail string            `json:",omitempty"` // a message (errors, child order)
	// Partition is the node label of the partition a decision is made in
	// (the node's), "" for the default partition.
	Partition string `json:",omitempty"`
}
