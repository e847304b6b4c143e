package config

import (
	"strings"

	"yarnplay/core/resource"
)

// Properties of Hadoop 3.3's legacy auto-created leaf queues
// (CapacitySchedulerConfiguration).
const (
	// SuffixLeafQueueTemplate is AUTO_CREATED_LEAF_QUEUE_TEMPLATE_PREFIX:
	// a managed parent's <path>.leaf-queue-template.<property> are the
	// properties of every leaf created under it.
	SuffixLeafQueueTemplate = "leaf-queue-template"
	// SuffixAutoCreateMaxQueues is AUTO_CREATE_QUEUE_MAX_QUEUES (1000).
	SuffixAutoCreateMaxQueues = "auto-create-child-queue.max-queues"
	// SuffixAutoCreateFailOnExceeding is
	// FAIL_AUTO_CREATION_ON_EXCEEDING_CAPACITY (false).
	SuffixAutoCreateFailOnExceeding = "auto-create-child-queue.fail-on-exceeding-parent-capacity"
	// SuffixAutoCreateManagementPolicy is AUTO_CREATED_QUEUE_MANAGEMENT_POLICY.
	SuffixAutoCreateManagementPolicy = "auto-create-child-queue.management-policy"
	// GuaranteedOrZeroPolicyClass is its default and the only policy
	// Hadoop 3.3 ships.
	GuaranteedOrZeroPolicyClass = "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity." +
		"queuemanagement.GuaranteedOrZeroCapacityOverTimePolicy"
	// KeyQueueManagementInterval is QUEUE_MANAGEMENT_MONITORING_INTERVAL
	// (1500 ms): how often QueueManagementDynamicEditPolicy runs.
	KeyQueueManagementInterval = "yarn.resourcemanager.monitor.capacity.queue-management.monitoring-interval"
	// KeyMonitorPolicies is yarn.resourcemanager.scheduler.monitor.policies
	// (the scheduling edit policies the monitor runs).
	KeyMonitorPolicies = "yarn.resourcemanager.scheduler.monitor.policies"
	// PreemptionPolicyClass is the monitor's default policy.
	PreemptionPolicyClass = "org.apache.hadoop.yarn.server.resourcemanager.monitor.capacity.ProportionalCapacityPreemptionPolicy"
	// QueueManagementPolicyClass is the edit policy that activates and
	// deactivates auto-created leaf queues.
	QueueManagementPolicyClass = "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.QueueManagementDynamicEditPolicy"
)

// SuffixAutoQueueCreationV2 is Hadoop 3.4's flexible auto-queue creation
// (auto-queue-creation-v2.enabled).
const SuffixAutoQueueCreationV2 = "auto-queue-creation-v2.enabled"

// LeafTemplate is a managed parent's leaf queue template
// (AutoCreatedLeafQueueConfig, ManagedParentQueue.initializeLeafQueueConfigs):
// the template's capacities, checked as a queue named
// <parent>.leaf-queue-template (CSQueueUtils.loadUpdateAndCheckCapacities),
// and its properties, from which each leaf is constructed.
type LeafTemplate struct {
	// Capacity and MaxCapacity are fractions of the parent; AbsCapacity
	// and AbsMaxCapacity the products with the parent's absolute ones.
	Capacity, MaxCapacity, AbsCapacity, AbsMaxCapacity float32
	// MaxQueues is auto-create-child-queue.max-queues (1000).
	MaxQueues int
	// FailOnExceeding is
	// auto-create-child-queue.fail-on-exceeding-parent-capacity (false):
	// a leaf is then refused when the template capacities of the leaves
	// would exceed the parent's, and the queue-management policy skips
	// the parent.
	FailOnExceeding bool
	// props are the template's properties (key, value), in the
	// case-insensitive key order Hadoop collects them in.
	props [][2]string
	// lifetimeSpecified is whether a default application lifetime is
	// configured on the parent or above it.
	lifetimeSpecified bool
}

// managedParent reads a managed parent's template
// (ManagedParentQueue's constructor: getShouldFailAutoQueueCreation...,
// initializeLeafQueueConfigs, the queue-management policy class).
func (p *parser) managedParent(q *QueueConf) error {
	r, path := p.r, q.Path
	q.ManagedParent = true
	t := &LeafTemplate{lifetimeSpecified: p.lifetimeSpecified[path]}
	t.FailOnExceeding = r.getBool(QueueKey(path, SuffixAutoCreateFailOnExceeding), false)
	var err error
	if t.MaxQueues, err = r.getInt(QueueKey(path, SuffixAutoCreateMaxQueues), 1000, path); err != nil {
		return err
	}
	policyKey := QueueKey(path, SuffixAutoCreateManagementPolicy)
	if v, ok := r.c.Get(policyKey); ok && javaTrim(v) != GuaranteedOrZeroPolicyClass {
		r.notSimulated(unsupported(policyKey, path, "a queue-management policy other than GuaranteedOrZeroCapacityOverTimePolicy", notLoaded,
			"Queue %s uses the queue-management policy %q (%s): yarnplay simulates GuaranteedOrZeroCapacityOverTimePolicy only",
			path, v, policyKey))
	}
	// AbstractManagedParentQueue.initializeLeafQueueConfigs: the
	// properties under the prefix, compared without case (a TreeMap with
	// String.compareToIgnoreCase, subMap(prefix, prefix + '\uffff')).
	prefix := strings.ToLower(QueueKey(path, SuffixLeafQueueTemplate))
	for _, k := range r.c.Keys() {
		if strings.HasPrefix(strings.ToLower(k), prefix) {
			v, _ := r.c.Get(k)
			t.props = append(t.props, [2]string{k, v})
		}
	}
	// The template's capacities, as a queue <path>.leaf-queue-template.
	tq := &QueueConf{Name: SuffixLeafQueueTemplate, Path: path + "." + SuffixLeafQueueTemplate, Parent: q}
	if raw, ok := r.c.Get(QueueKey(tq.Path, SuffixCapacity)); ok && IsAbsoluteResource(raw) {
		r.notSimulated(unsupported(QueueKey(tq.Path, SuffixCapacity), path, "a leaf queue template with an absolute resource capacity", notLoaded,
			"Queue %s's leaf-queue-template capacity is a resource (%q): yarnplay simulates templates with percentages only", path, raw))
		return nil
	}
	if err := p.capacities(tq); err != nil {
		return err
	}
	t.Capacity, t.MaxCapacity, t.AbsCapacity, t.AbsMaxCapacity = tq.Capacity, tq.MaxCapacity, tq.AbsCapacity, tq.AbsMaxCapacity
	q.Template = t
	return nil
}

// NewAutoCreatedLeaf is the AutoCreatedLeafQueue constructor: a leaf named
// name under the managed parent, constructed as LeafQueue's constructor
// does from the parent's template alone (ManagedParentQueue.
// getLeafQueueConfigs: the template's properties with "leaf-queue-template"
// replaced by the leaf's name, in a configuration of nothing else). So what
// the leaf reads from that configuration falls back to Hadoop's defaults,
// not to the cluster's global settings: maximum-am-resource-percent 0.1,
// max-parallel-apps unlimited, and the cluster's maximum allocation that
// its maximum-allocation is checked against 8192 MB and 4 vcores; what it
// reads from the scheduler's configuration (maximum-applications,
// global-queue-max-application) is the cluster's. Then
// updateCapacitiesToZero: capacity 0, the template's maximum capacity
// (the application limits keep the template's capacity). The error is
// Hadoop's refusal of the leaf's configuration.
func NewAutoCreatedLeaf(parent *QueueConf, name string, global Settings, profile Profile) (*QueueConf, error) {
	t := parent.Template
	if t == nil {
		return nil, errorf("", parent.Path, "Queue %s is not an auto-create enabled parent queue", parent.Path)
	}
	mini := New()
	for _, kv := range t.props {
		mini.Set(strings.Replace(kv[0], SuffixLeafQueueTemplate, name, 1), kv[1])
	}
	s := global
	s.MaxAMPercent = 0.1
	s.MaxAlloc = resource.New(8192, 4)
	p := &parser{r: &reader{c: mini}, s: &s, profile: profile, leafNames: map[string]bool{}, queues: 1, cluster: resource.None}
	p.scanKeys()
	p.lifetimeSpecified[parent.Path] = t.lifetimeSpecified
	q, err := p.newQueue(parent, name, parent.Path+"."+name, true)
	if err != nil {
		return nil, err
	}
	q.AutoCreated = true
	if q.State == "" {
		q.State = Running
	}
	return WithEntitlement(q, 0, t.MaxCapacity), nil
}

// WithEntitlement is AbstractAutoCreatedLeafQueue.setEntitlement for the
// default partition, on a copy (the parsed queues are shared between
// clones): the capacity, the absolute capacity as the parent's absolute
// capacity times it, the maximum capacity and its absolute value
// (CSQueueUtils.computeAbsoluteMaximumCapacity).
func WithEntitlement(q *QueueConf, capacity, maxCapacity float32) *QueueConf {
	c := *q
	c.Capacity = capacity
	c.AbsCapacity = float32(q.Parent.AbsCapacity * capacity)
	c.MaxCapacity = maxCapacity
	c.AbsMaxCapacity = float32(q.Parent.AbsMaxCapacity * maxCapacity)
	// The percentages Hadoop 3.4's calculation reads (the capacity vector).
	c.CapacityPercent = float32(capacity * 100)
	c.MaxCapacityPercent = float32(maxCapacity * 100)
	return &c
}
