package core

import (
	"yarnplay/core/config"
	"yarnplay/core/resource"
)

// NodeSpec describes a NodeManager that registers with the scheduler.
type NodeSpec struct {
	Name     string
	Rack     string // "/default-rack" when empty
	Capacity resource.Resource
	// Label is the node's partition: one of the cluster's node labels
	// (AddNodeLabels), "" for the default partition.
	Label string
}

// DefaultRack is the rack of a node registered without one.
const DefaultRack = "/default-rack"

// Submission is an application submission and its first attempt.
type Submission struct {
	App   string
	User  string
	Queue string // full path or an unambiguous short name
	// AM is the ApplicationMaster's resource; nil for an application without
	// an AM (as Hadoop's unit tests build them).
	AM *resource.Resource
	// AMContainerRequest makes the RM ask for the AM container (request
	// priority 0, locality "*") when AM is set. When false, AM only counts
	// toward the AM limits.
	AMContainerRequest bool
	// Priority is the application priority; nil takes the queue's
	// default-application-priority. Capped at yarn.cluster.max-application-priority.
	Priority *int
	// Label is the application's node label expression (its asks'
	// partition when they name none); AMLabel the AM container's, else
	// Label. Empty: the queue's default-node-label-expression.
	Label, AMLabel string
}

// AnyLocation is the resource name of an off-switch ("any node") request.
const AnyLocation = "*"

// Ask is one ResourceRequest of an AM's allocate call: how many containers of
// a size the application wants at a request priority and location. YARN's
// replace semantics apply: Count replaces the previous count for (app,
// priority, location), and 0 withdraws it.
type Ask struct {
	App      string
	Priority int
	Resource resource.Resource
	Count    int
	// Locality is a node name, a rack name, or AnyLocation.
	Locality string
	// RelaxLocality false forbids falling back from this location (YARN's
	// relaxLocality); nil means true.
	RelaxLocality *bool
	// Duration, in ticks, makes containers allocated for this ask finish by
	// themselves that long after they start; 0 means they run until released.
	Duration int64
	// Label is the ask's node label expression, read on the "*" ask
	// only; nil: the application's, else the queue's default ("" is the
	// default partition).
	Label *string
}

// AppState is the state of an application, as the RM reports it.
type AppState string

// Application states.
const (
	AppAccepted AppState = "ACCEPTED"
	AppRunning  AppState = "RUNNING"
	AppFinished AppState = "FINISHED"
	AppKilled   AppState = "KILLED"
	AppRejected AppState = "REJECTED"
)

// appTransitions is the application state machine: the states each state may
// move to.
var appTransitions = map[AppState][]AppState{
	AppAccepted: {AppRunning, AppFinished, AppKilled},
	AppRunning:  {AppFinished, AppKilled, AppAccepted}, // ACCEPTED: its attempt failed, the next waits for its AM
}

// CanTransition reports whether an application may move from one state to another.
func CanTransition(from, to AppState) bool {
	for _, s := range appTransitions[from] {
		if s == to {
			return true
		}
	}
	return false
}

// Locality is the locality of an allocated container (NodeType in Hadoop).
type Locality string

// Localities.
const (
	NodeLocal Locality = "NODE_LOCAL"
	RackLocal Locality = "RACK_LOCAL"
	OffSwitch Locality = "OFF_SWITCH"
)

// nodeType is a locality as the core carries it (Hadoop's NodeType): an
// index in localities, one byte where a Locality is a string of two words.
// It keeps the walk's results (allocResult, assignment) small enough for
// the compiler to hold in registers: in WebAssembly, copying a larger
// struct is a call out of the module (memory.copy).
type nodeType uint8

// The node types, by their index in localities.
const (
	ntNone nodeType = iota
	ntNodeLocal
	ntRackLocal
	ntOffSwitch
)

// localities are the names of the node types, by index.
var localities = [...]Locality{"", NodeLocal, RackLocal, OffSwitch}

// Locality is the node type's name.
func (t nodeType) Locality() Locality { return localities[t] }

// QueueACL names a queue access control list.
type QueueACL string

// Queue ACLs.
const (
	SubmitApplications QueueACL = "SUBMIT_APPLICATIONS"
	AdministerQueue    QueueACL = "ADMINISTER_QUEUE"
)

// QueueView is a read-only copy of a queue's state.
type QueueView struct {
	Path, Name, Parent string
	Leaf               bool
	Children           []string // full paths, in configuration order
	// ChildList is Children in the order of the parent's child list
	// (ParentQueue.childQueues, which ties of the child order follow and
	// Hadoop's REST lists): the configured order, or after a refresh under
	// hadoop-3 the HashMap order of ParentQueue.reinitialize.
	ChildList []string
	State     config.QueueState
	Depth     int

	Capacity, MaxCapacity, AbsCapacity, AbsMaxCapacity float32
	UsedCapacity, AbsUsedCapacity                      float32

	// EffectiveMin is the guaranteed resource (cluster x absolute capacity);
	// EffectiveMax the maximum (cluster x absolute maximum capacity). For
	// an absolute queue they come from its configured resources, and the
	// capacities above are derived from them (docs/semantics.md, 3.3).
	EffectiveMin, EffectiveMax resource.Resource
	// Absolute marks a queue whose capacity is a resource (Hadoop 3.3's
	// CapacityConfigType.ABSOLUTE_RESOURCE); ConfiguredMin and
	// ConfiguredMax are its configured resources (QueueResourceQuotas'
	// configured min and max; zero when none). Left out of JSON when zero,
	// so that the states of percentage queues read as before.
	Absolute      bool              `json:",omitzero"`
	ConfiguredMin resource.Resource `json:",omitzero"`
	ConfiguredMax resource.Resource `json:",omitzero"`
	// Weighted marks a queue whose capacity is a weight (hadoop-3.4
	// profile, "2w"); Weight is the weight and NormalizedWeight its share
	// among the siblings' weights, which its absolute capacity follows
	// (Capacity stays 0, as Hadoop's). Left out of JSON when zero.
	Weighted         bool    `json:",omitzero"`
	Weight           float32 `json:",omitzero"`
	NormalizedWeight float32 `json:",omitzero"`
	// ManagedParent marks an auto-create enabled parent (Hadoop 3.3's
	// ManagedParentQueue); AutoCreated a leaf created under one when an
	// application was placed in it, and AutoActive whether its parent's
	// queue-management policy gives it the template's capacity (else 0).
	// AutoCreated also marks a dynamic queue of Hadoop 3.4's flexible
	// auto-queue creation. Left out of JSON when false.
	ManagedParent bool `json:",omitzero"`
	AutoCreated   bool `json:",omitzero"`
	AutoActive    bool `json:",omitzero"`
	// FlexibleParent marks a parent with Hadoop 3.4's flexible auto-queue
	// creation (auto-queue-creation-v2.enabled), MaxChildQueues its
	// max-queues; Dynamic a leaf created under one (isDynamicQueue).
	// Left out of JSON when zero.
	FlexibleParent bool `json:",omitzero"`
	Dynamic        bool `json:",omitzero"`
	MaxChildQueues int  `json:",omitzero"`
	// Used includes reserved resources, as CSQueue.getUsedResources does.
	Used, Reserved, Pending resource.Resource

	NumApps, NumActiveApps, NumPendingApps int
	// NumNonRunnableApps counts the applications over a max-parallel-apps
	// limit (accepted, neither pending nor active); NumRunnableApps the
	// others (getNumRunnableApps); MaxParallelApps is the queue's limit
	// (Integer.MAX_VALUE when none is set).
	NumNonRunnableApps, NumRunnableApps, MaxParallelApps int
	// Priority is the queue's priority, which a parent with the
	// priority-utilization ordering policy weighs; OrderingPolicy is the
	// queue's: fifo or fair for a leaf, utilization or
	// priority-utilization for a parent.
	Priority       int
	OrderingPolicy string

	// Leaf queues only.
	AMUsed, AMLimit, UserAMLimit resource.Resource
	MaxApps, MaxAppsPerUser      int
	ActiveUsers                  int
	UserLimitFactor              float32
	MinUserLimitPercent          float32
	MaxAMPercent                 float32
	UserLimit                    resource.Resource // for an active user with weight 1, now
	CurrentLimit                 resource.Resource // the limit handed down by the parent at the last visit
	ActiveApps, PendingApps      []string          // in the order the scheduler walks them
	NonRunnableApps              []string          // over max-parallel-apps, in the order they were added
	Users                        []UserView        // by name
	MaxAllocation                resource.Resource
	NodeLocalityDelay            int
	DisablePreemption            bool
	SubmitACL, AdminACL          string
	DefaultAppPriority           int
	ConfiguredState              config.QueueState

	// AccessibleLabels and DefaultLabelExpression are the queue's
	// accessible-node-labels and default-node-label-expression, and
	// Partitions its capacities and usage in each labelled partition of
	// the cluster: set only when the cluster has node labels.
	AccessibleLabels       []string        `json:",omitempty"`
	DefaultLabelExpression string          `json:",omitempty"`
	Partitions             []PartitionView `json:",omitempty"`
}

// PartitionView is a queue's state in one labelled partition
// (QueueCapacities and ResourceUsage for the label).
type PartitionView struct {
	Label      string
	Accessible bool // the queue can access the partition (accessibleToPartition)
	// Capacity, MaxCapacity and their absolute values are the label's
	// (accessible-node-labels.<label>.capacity and .maximum-capacity, as
	// fractions).
	Capacity, MaxCapacity, AbsCapacity, AbsMaxCapacity float32
	UsedCapacity, AbsUsedCapacity                      float32
	// EffectiveMin and EffectiveMax are the partition's resources times
	// the absolute capacities.
	EffectiveMin, EffectiveMax resource.Resource
	Used, Pending              resource.Resource
	// Leaf queues only: the AM usage and limit in the partition (with
	// the label's maximum-am-resource-percent) and the user limit there.
	AMUsed, AMLimit, UserLimit resource.Resource
}

// UserView is a read-only copy of one user's state in a leaf queue.
type UserView struct {
	Name                    string
	Used, Reserved, AMUsed  resource.Resource
	ActiveApps, PendingApps int
	Active                  bool // has outstanding requests
	UserLimit               resource.Resource
	// AMLimit is the user's Max Application Master Resources
	// (getUserAMResourceLimitPerPartition, scaled by the user's weight).
	AMLimit resource.Resource
	Weight  float32
}

// RequestView is one request priority of an application.
type RequestView struct {
	Priority    int
	Resource    resource.Resource
	Outstanding int // containers still wanted at "*"
	Locations   []LocationAsk
	// MissedOpportunities is the scheduling-opportunity counter of delay scheduling.
	MissedOpportunities int
	Reserved            int // reservations held for this priority
	Duration            int64
}

// LocationAsk is the count asked at one resource name.
type LocationAsk struct {
	Name          string
	Count         int
	RelaxLocality bool
}

// ContainerView is a read-only copy of a container or reservation.
type ContainerView struct {
	ID        int64
	App       string
	Queue     string
	User      string
	Node      string
	Size      resource.Resource
	Priority  int
	IsAM      bool
	Locality  Locality
	StartTick int64
	EndTick   int64 // 0: runs until released
	Reserved  bool
}

// AppView is a read-only copy of an application's state.
type AppView struct {
	ID, User, Queue string
	State           AppState
	Priority        int
	Seq             int64 // submission order
	Attempt         int   // the current attempt's number, from 1
	Activated       bool  // in the leaf's active list (false: pending AM limits)
	// NotRunnable is an accepted application over a max-parallel-apps
	// limit (CSMaxRunningAppsEnforcer): it waits, asking for nothing,
	// until another finishes; Diagnostics says which limit.
	NotRunnable        bool
	AMResource         resource.Resource
	Consumption        resource.Resource // live containers, AM included
	Reserved           resource.Resource
	LiveContainers     int
	ReservedContainers int
	Headroom           resource.Resource
	// StartTick is the tick it was submitted at (the RM UI's StartTime);
	// FinishTick the tick it finished or was killed at (FinishTime), 0
	// while it is live.
	StartTick, FinishTick int64
	Requests              []RequestView // by request priority
	Containers            []ContainerView
	Diagnostics           string
}

// NodeView is a read-only copy of a node's state.
type NodeView struct {
	Name, Rack  string
	Capacity    resource.Resource
	Allocated   resource.Resource // containers only
	Reservation *ContainerView
	Containers  []ContainerView
	// Label is the node's partition, "" the default.
	Label string `json:",omitempty"`
}
