package config

import (
	"fmt"
	"strings"

	"yarnplay/core/resource"
)

// Profile selects which Hadoop's rules apply where Hadoop 2, 3.3 and 3.4
// differ.
type Profile string

const (
	// Hadoop3 is Hadoop 3.3 (the default). It is written "hadoop-3", the
	// spelling scenario files and share links have always used;
	// ParseProfile also reads "hadoop-3.3" as Hadoop3.
	Hadoop3 Profile = "hadoop-3"
	// Hadoop34 is Hadoop 3.4: Hadoop 3.3's rules plus weights, mixed
	// capacity modes (legacy-queue-mode.enabled=false), double-precision
	// capacities and flexible auto-queue creation.
	Hadoop34 Profile = "hadoop-3.4"
	// Hadoop2 is the rules the book describes where Hadoop 3 changed them
	// (here: leaf queue names must be unique across the tree).
	Hadoop2 Profile = "hadoop-2"
)

// Hadoop33Alias is the other spelling of Hadoop3 that ParseProfile reads.
const Hadoop33Alias = "hadoop-3.3"

// ProfileNames lists the profiles for messages and usage lines.
const ProfileNames = "hadoop-2, hadoop-3.3 (or hadoop-3) or hadoop-3.4"

// ParseProfile reads a scenario's profile: "" is Hadoop3, and so is
// "hadoop-3.3".
func ParseProfile(s string) (Profile, error) {
	if p, ok := canonical(Profile(strings.ToLower(strings.TrimSpace(s)))); ok {
		return p, nil
	}
	return "", fmt.Errorf("unknown profile %q: use %s", s, ProfileNames)
}

// canonical maps a profile's spellings to the constants: "" and
// "hadoop-3.3" are Hadoop3.
func canonical(p Profile) (Profile, bool) {
	switch p {
	case "", Hadoop3, Hadoop33Alias:
		return Hadoop3, true
	case Hadoop34, Hadoop2:
		return p, true
	}
	return "", false
}

// Canonical is the profile's constant: "" and "hadoop-3.3" are Hadoop3. An
// unknown profile is returned as it is (Parse refuses it).
func (p Profile) Canonical() Profile {
	if q, ok := canonical(p); ok {
		return q
	}
	return p
}

// Hadoop3Rules reports whether Hadoop 3's rules apply (3.3 and 3.4, not
// the hadoop-2 profile).
func (p Profile) Hadoop3Rules() bool {
	q, ok := canonical(p)
	return ok && q != Hadoop2
}

// AtLeast34 reports whether Hadoop 3.4's rules apply: weights, mixed
// capacity modes, double-precision capacities and flexible auto-queue
// creation.
func (p Profile) AtLeast34() bool {
	q, _ := canonical(p)
	return q == Hadoop34
}

// QueueState is a queue's state (org.apache.hadoop.yarn.api.records.QueueState).
type QueueState string

const (
	// Running queues accept applications.
	Running QueueState = "RUNNING"
	// Stopped queues accept no new applications.
	Stopped QueueState = "STOPPED"
	// Draining is a stopped queue that still has applications (internal only:
	// it cannot be configured).
	Draining QueueState = "DRAINING"
)

// QueueConf is one queue as configured, with the static values Hadoop
// derives from the configuration when it constructs the queue.
type QueueConf struct {
	// Name is the short name ("a1"), Path the full path ("root.a.a1").
	Name, Path string
	// Parent is nil for root.
	Parent *QueueConf
	// Children keep the order of the `queues` list; empty for a leaf.
	Children []*QueueConf

	// Capacity and MaxCapacity are the configured percentages as fractions
	// (value/100 in float arithmetic; root's capacity is always 1,
	// maximum-capacity -1 or absent is 1). AbsCapacity and AbsMaxCapacity
	// are the products down the path, each assigned only if the queue's own
	// value is > 0 (else 0), as CSQueueUtils.updateAbsoluteCapacitiesByNodeLabels.
	Capacity, MaxCapacity, AbsCapacity, AbsMaxCapacity float32

	// Absolute is Hadoop 3.3's CapacityConfigType.ABSOLUTE_RESOURCE: the
	// capacity is a resource ("[memory=10240,vcores=10]"), so Capacity
	// and AbsCapacity are 0 and MaxCapacity 1 here, and the scheduler
	// derives them from the cluster (ParentQueue.
	// deriveCapacityFromAbsoluteConfigurations). MinResource and
	// MaxResource are the configured resources (QueueResourceQuotas'
	// configured min and max; zero when none): MaxResource is the
	// parent's when only the minimum is configured and the parent has a
	// maximum (AbstractCSQueue.updateConfigurableResourceRequirement).
	Absolute                 bool
	MinResource, MaxResource resource.Resource

	// Labels are the queue's node-label settings (hadoop-3 profile;
	// labels.go).
	Labels QueueLabels

	// Weighted is Hadoop 3.4's weight mode (hadoop-3.4 profile): the
	// capacity is a weight ("2w"), Weight its value (a weight of -1 is
	// "not set", and leaves Weighted false). Capacity is then 0, and
	// NormalizedWeight, the weight over the sum of the siblings' weights,
	// gives the absolute capacities (max(Capacity, NormalizedWeight)
	// times the parent's).
	Weighted                 bool
	Weight, NormalizedWeight float32
	// CapacityPercent and MaxCapacityPercent are the configured
	// percentages as read (Float.parseFloat, before the division by 100),
	// the values of Hadoop 3.4's capacity vectors; MaxCapacityPercent is 0
	// when maximum-capacity is not set (or -1), which Hadoop 3.4's
	// calculation reads as the parent's maximum.
	CapacityPercent, MaxCapacityPercent float32
	// MaxVector is a bracketed maximum-capacity as written (hadoop-3.4
	// profile; none otherwise): Hadoop 3.4's calculation caps the queue by
	// it, not by the maximum inherited into MaxResource.
	MaxVector resource.Resource

	// ConfiguredState is the state property, "" when not configured.
	ConfiguredState QueueState
	// State is the state of a freshly constructed queue
	// (AbstractCSQueue.initializeQueueState with no previous state): the
	// configured state, else the parent's (DRAINING read as STOPPED), root
	// RUNNING.
	State QueueState

	// SubmitACL and AdminACL are this queue's own ACLs (root default "*",
	// others " "). Inheritance up the tree is applied by the scheduler.
	SubmitACL, AdminACL ACL

	// UserLimitFactor (default 1) and MinUserLimitPercent (default 100,
	// read as an int as Hadoop 3.3 does) are read for leaves only; zero on
	// parents.
	UserLimitFactor     float32
	MinUserLimitPercent float32
	// MaxApplications and MaxApplicationsPerUser are derived for leaves as
	// LeafQueue.setupQueueConfigs does (docs/semantics.md, section 6.6);
	// zero on parents.
	MaxApplications        int
	MaxApplicationsPerUser int
	// QueueMaxApplications is the leaf's own maximum-applications, -1
	// when not configured: an absolute leaf's limits are derived again
	// from it when the cluster changes.
	QueueMaxApplications int
	// MaxAMPercent is the queue's maximum-am-resource-percent, else the global one.
	MaxAMPercent float32
	// MaxAlloc is the queue's maximum allocation (docs/semantics.md, section 3.4).
	MaxAlloc resource.Resource
	// DisablePreemption is disable_preemption, inherited from the parent,
	// root false: the value Hadoop computes when the preemption monitor is
	// enabled (with the monitor off Hadoop reports true for every queue).
	DisablePreemption bool
	// DefaultAppPriority is default-application-priority (0); leaves only.
	DefaultAppPriority int
	// OrderingPolicy is a leaf's application ordering policy (PolicyFIFO or
	// PolicyFair) or a parent's queue ordering policy (PolicyUtilization
	// or PolicyPriorityUtilization, by default the parent's).
	OrderingPolicy string
	// FairSizeBasedWeight is ordering-policy.fair.enable-size-based-weight
	// (FairOrderingPolicy.configure: Boolean.parseBoolean), for fair leaves.
	FairSizeBasedWeight bool
	// UserWeights are the user weights in effect: the parent's, overridden
	// by this queue's user-settings.<user>.weight (AbstractCSQueue.
	// getUserWeightsFromHierarchy); validated on leaves (docs/semantics.md,
	// section 2.2).
	UserWeights map[string]float32

	// Priority is the queue priority (getQueuePriority), which a parent
	// with the priority-utilization policy weighs when it orders its
	// children.
	Priority int
	// MaxParallelApps is max-parallel-apps (default the global
	// max-parallel-apps, else Integer.MAX_VALUE).
	MaxParallelApps int
	// MaxAppLifetime and DefaultAppLifetime are the inherited application
	// lifetimes in seconds (-1 / 0: none), as AbstractCSQueue computes them.
	MaxAppLifetime, DefaultAppLifetime int64

	// ManagedParent is Hadoop 3.3's ManagedParentQueue
	// (auto-create-child-queue.enabled): a parent with no configured
	// children whose leaves are created when applications are placed in
	// them, from Template.
	ManagedParent bool
	Template      *LeafTemplate
	// AutoCreated marks a leaf created under a managed parent
	// (AutoCreatedLeafQueue); it is never part of a parsed tree.
	AutoCreated bool
	// AutoQueueCreationV2 marks a queue under which Hadoop 3.4 creates
	// queues (auto-queue-creation-v2.enabled, a parent even without
	// children), with AutoQueueMaxQueues its max-queues (1000).
	AutoQueueCreationV2 bool
	AutoQueueMaxQueues  int
	// Dynamic marks a leaf Hadoop 3.4 created under such a parent
	// (isDynamicQueue); config.ParseWithDynamicQueues sets it.
	Dynamic bool
	// NoAutoRemoval marks a dynamic queue that
	// AutoCreatedQueueDeletionPolicy never deletes
	// (auto-queue-creation-v2.queue-auto-removal.enable=false).
	NoAutoRemoval bool
}

// The ordering policies yarnplay simulates
// (CapacitySchedulerConfiguration's names for them).
const (
	PolicyFIFO                = "fifo"                 // FifoOrderingPolicy
	PolicyFair                = "fair"                 // FairOrderingPolicy
	PolicyUtilization         = "utilization"          // PriorityUtilizationQueueOrderingPolicy(false)
	PolicyPriorityUtilization = "priority-utilization" // PriorityUtilizationQueueOrderingPolicy(true)
)

// IsLeaf reports whether q has no children and is not a managed parent
// or a flexible auto-creation parent (whose children are created as
// applications arrive).
func (q *QueueConf) IsLeaf() bool {
	return len(q.Children) == 0 && !q.ManagedParent && !q.AutoQueueCreationV2
}

// Walk calls fn on q and its descendants in pre-order, children in list order.
func (q *QueueConf) Walk(fn func(*QueueConf)) {
	fn(q)
	for _, c := range q.Children {
		c.Walk(fn)
	}
}

// Parsed is a configuration Hadoop accepts: the global settings and the
// queue tree.
type Parsed struct {
	Settings Settings
	Root     *QueueConf
	// Mappings are the queue mappings the scheduler places applications by.
	Mappings Mappings

	byPath map[string]*QueueConf
	byName map[string][]*QueueConf
}

func (p *Parsed) index() {
	if p.byPath != nil || p.Root == nil {
		return
	}
	p.byPath = map[string]*QueueConf{}
	p.byName = map[string][]*QueueConf{}
	p.Root.Walk(func(q *QueueConf) {
		p.byPath[q.Path] = q
		if q.Parent != nil { // root's short name is its path
			p.byName[q.Name] = append(p.byName[q.Name], q)
		}
	})
}

// Queue returns the queue with this full path, or nil.
func (p *Parsed) Queue(path string) *QueueConf {
	p.index()
	return p.byPath[path]
}

// Queues returns every queue in pre-order.
func (p *Parsed) Queues() []*QueueConf {
	var out []*QueueConf
	if p.Root != nil {
		p.Root.Walk(func(q *QueueConf) { out = append(out, q) })
	}
	return out
}

// Leaves returns the leaf queues in pre-order.
func (p *Parsed) Leaves() []*QueueConf {
	var out []*QueueConf
	if p.Root != nil {
		p.Root.Walk(func(q *QueueConf) {
			if q.IsLeaf() {
				out = append(out, q)
			}
		})
	}
	return out
}

// Lookup finds a queue by full path or, as Hadoop 3.3's CSQueueStore does,
// by short name when exactly one queue has it. The error wraps
// ErrUnknownQueue or ErrAmbiguousQueue.
func (p *Parsed) Lookup(name string) (*QueueConf, error) {
	p.index()
	if q := p.byPath[name]; q != nil {
		return q, nil
	}
	switch qs := p.byName[name]; len(qs) {
	case 0:
		return nil, fmt.Errorf("%w: %s", ErrUnknownQueue, name)
	case 1:
		return qs[0], nil
	}
	return nil, fmt.Errorf("%w: %s please use full queue path instead", ErrAmbiguousQueue, name)
}
