package scenarios

import "yarnplay/internal/noeq"

// Expect is an `expect` step: checks of the state now. Only what is written
// is checked. Queues are named by full path or unambiguous short name.
type Expect struct {
	// QueueUsed is allocated plus reserved, AMs included (getUsedResources).
	QueueUsed       map[string]ExpRes            `json:"queue_used,omitempty"`
	QueueReserved   map[string]ExpRes            `json:"queue_reserved,omitempty"`
	QueueCapacities map[string]QueueCapacities   `json:"queue_capacities,omitempty"`
	QueueState      map[string]string            `json:"queue_state,omitempty"`
	QueueExists     map[string]bool              `json:"queue_exists,omitempty"`
	QueueType       map[string]string            `json:"queue_type,omitempty"`
	QueueParent     map[string]string            `json:"queue_parent,omitempty"`
	NumActiveApps   map[string]int               `json:"num_active_apps,omitempty"`
	NumPendingApps  map[string]int               `json:"num_pending_apps,omitempty"`
	UserActiveApps  map[string]map[string]int    `json:"user_active_apps,omitempty"`
	UserPendingApps map[string]map[string]int    `json:"user_pending_apps,omitempty"`
	ActiveUsers     map[string]int               `json:"active_users,omitempty"`
	UserUsed        map[string]map[string]ExpRes `json:"user_used,omitempty"`
	// PartitionUsed maps a queue to a node label to its used resources in
	// that partition (queueUsage.getUsed(label)).
	PartitionUsed map[string]map[string]ExpRes `json:"partition_used,omitempty"`

	AMResourceLimit        map[string]ExpRes `json:"am_resource_limit,omitempty"`
	UserAMResourceLimit    map[string]ExpRes `json:"user_am_resource_limit,omitempty"`
	MaxApplications        map[string]int    `json:"max_applications,omitempty"`
	MaxApplicationsPerUser map[string]int    `json:"max_applications_per_user,omitempty"`

	ACL []ACLCheck `json:"acl,omitempty"`

	AppState              map[string]string `json:"app_state,omitempty"`
	AppConsumption        map[string]ExpRes `json:"app_consumption,omitempty"`
	AppReserved           map[string]ExpRes `json:"app_reserved,omitempty"`
	AppLiveContainers     map[string]int    `json:"app_live_containers,omitempty"`
	AppReservedContainers map[string]int    `json:"app_reserved_containers,omitempty"`
	// AppAttempt is the number of an app's current attempt, from 1: an
	// attempt that loses its AM container fails and the next starts.
	AppAttempt  map[string]int    `json:"app_attempt,omitempty"`
	AppHeadroom map[string]ExpRes `json:"app_headroom,omitempty"`
	// AppOutstanding maps an app to "<request priority>" -> containers still
	// wanted at "*".
	AppOutstanding map[string]map[string]int `json:"app_outstanding,omitempty"`
	// AppSchedulingOpportunities maps an app to "<request priority>" ->
	// missed scheduling opportunities.
	AppSchedulingOpportunities map[string]map[string]int `json:"app_scheduling_opportunities,omitempty"`

	// LastStepAllocations lists the new containers (not reservations) of the
	// step just before, in order; a non-nil empty list means "none".
	LastStepAllocations *[]AllocationCheck `json:"last_step_allocations,omitempty"`

	NodeAllocated map[string]ExpRes `json:"node_allocated,omitempty"`
	// NodeReserved maps a node to its one reservation's size, nil for none.
	NodeReserved map[string]*ExpRes `json:"node_reserved,omitempty"`
	ClusterUsed  *ExpRes            `json:"cluster_used,omitempty"`

	// PreemptionMarked counts the containers the last preemption round
	// selected, per queue.
	PreemptionMarked map[string]int `json:"preemption_marked,omitempty"`
	// PreemptionEventsTotal counts marks and kills since the snapshot.
	PreemptionEventsTotal map[string]PreemptionCounts `json:"preemption_events_total,omitempty"`
}

// ExpRes is a resource in an expectation. Without VCores only memory is
// compared.
type ExpRes struct {
	MemoryMB int64  `json:"memory_mb"`
	VCores   *int64 `json:"vcores,omitempty"`
}

// QueueCapacities are a queue's capacities as fractions (QueueCapacities in
// Hadoop); nil fields are not checked.
type QueueCapacities struct {
	Capacity                *float64 `json:"capacity,omitempty"`
	AbsoluteCapacity        *float64 `json:"absolute_capacity,omitempty"`
	MaximumCapacity         *float64 `json:"maximum_capacity,omitempty"`
	AbsoluteMaximumCapacity *float64 `json:"absolute_maximum_capacity,omitempty"`
}

// ACL names of the `acl` expectation.
const (
	ACLSubmitApplications = "SUBMIT_APPLICATIONS"
	ACLAdministerQueue    = "ADMINISTER_QUEUE"
)

// ACLCheck is one entry of the `acl` expectation: whether user (in groups)
// passes the queue's ACL, checked up the hierarchy. Empty Groups take the
// user's groups from the scenario's `groups`.
type ACLCheck struct {
	Queue   string   `json:"queue"`
	User    string   `json:"user"`
	Groups  []string `json:"groups,omitempty"`
	ACL     string   `json:"acl"`
	Allowed bool     `json:"allowed"`
}

// AllocationCheck is one expected new container of the last step.
type AllocationCheck struct {
	_        noeq.T
	App      string `json:"app"`
	Node     string `json:"node"`
	Locality string `json:"locality"`
	// Priority is the request priority; nil is not checked.
	Priority *int `json:"priority,omitempty"`
}

// PreemptionCounts are containers marked and killed in a queue; nil is not
// checked.
type PreemptionCounts struct {
	Mark *int `json:"mark,omitempty"`
	Kill *int `json:"kill,omitempty"`
}

// Values the string-valued expectations accept.
var (
	queueStates = []string{"RUNNING", "STOPPED", "DRAINING"}
	queueTypes  = []string{"leaf", "parent"}
	appStates   = []string{"ACCEPTED", "RUNNING", "FINISHED", "KILLED", "REJECTED"}
	localities  = []string{"NODE_LOCAL", "RACK_LOCAL", "OFF_SWITCH"}
	aclNames    = []string{ACLSubmitApplications, ACLAdministerQueue}
)
