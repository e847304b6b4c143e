package config

import (
	"errors"
	"math"
	"strings"

	"yarnplay/core/resource"
)

// Parse reads a Capacity Scheduler configuration as Hadoop does at start-up
// (CapacityScheduler.initScheduler: validateConf, then
// CapacitySchedulerQueueManager.parseQueue from root) and refuses it with
// Hadoop's message where Hadoop would (docs/semantics.md, sections 4.1 and
// 4.2; the refresh checks of 4.3 compare with live state and belong to the
// scheduler).
//
// Queues are constructed in pre-order, each checking, in its constructor and
// in Hadoop's order, its capacity range, capacity sanity (abs-capacity <=
// abs-maximum-capacity), maximum allocation, state, user weights and
// lifetimes; a parent's children's capacity sum is checked once all of them
// are constructed (post-order), as ParentQueue.setChildQueues does. The
// first failure is returned as an *Error.
//
// Beyond Hadoop, Parse refuses what the playground cannot simulate
// (negative absolute resources, the reservation system, auto-created
// queues, ordering policies other than fifo and utilization), queue names
// that are empty or contain ".", a name listed twice under one parent,
// numbers that are NaN or infinite, and a tree of more than MaxQueues
// queues or deeper than MaxQueueDepth levels; each error names the property
// and queue.
func Parse(c *Conf, profile Profile) (*Parsed, error) {
	ps, err := parse(c, profile, resource.None)
	if err != nil {
		return nil, err
	}
	return ps, nil
}

// ParseOnCluster is Parse as a refresh runs it (CapacityScheduler.
// reinitialize): the absolute-resource checks compare with the live
// cluster resource, where at start-up it is none (docs/semantics.md,
// section 4.2).
func ParseOnCluster(c *Conf, profile Profile, cluster resource.Resource) (*Parsed, error) {
	ps, err := parse(c, profile, cluster)
	if err != nil {
		return nil, err
	}
	return ps, nil
}

// parse is Parse, keeping the warnings found before a failure on the
// error.
func parse(c *Conf, profile Profile, cluster resource.Resource) (ps *Parsed, err error) {
	var r *reader
	defer func() {
		var e *Error
		if err != nil && r != nil && errors.As(err, &e) {
			e.warnings = r.warnings
		}
	}()
	if c == nil {
		c = New()
	}
	q, ok := canonical(profile)
	if !ok {
		return nil, errorf("", "", "unknown profile %q: use %s", profile, ProfileNames)
	}
	profile = q
	r = &reader{c: c}
	s, err := parseSettings(r)
	if err != nil {
		return nil, err
	}
	p := &parser{r: r, s: &s, profile: profile, leafNames: map[string]bool{}, queues: 1, cluster: cluster}
	p.scanKeys()
	p.queueMode()
	root, err := p.parseQueue(nil, RootQueue)
	if err != nil {
		return nil, err
	}
	p.normalizeWeights(root)
	mappings, err := p.checkQueueMappings(root)
	if err != nil {
		return nil, err
	}
	p.checkKeys(root)
	if r.notSim != nil {
		// Hadoop starts with it; nothing Hadoop refuses came after.
		return nil, r.notSim
	}
	s.Warnings = r.warnings
	return &Parsed{Settings: s, Root: root, Mappings: mappings}, nil
}

// Limits of the queue tree Parse accepts (Hadoop has none; they keep a
// simulation, its views and its pages bounded).
const (
	// MaxQueues is the largest number of queues, root included.
	MaxQueues = 20000
	// MaxQueueDepth is the deepest a queue may be below root: root is at
	// depth 0, root.a at 1, and root.a.b at 2.
	MaxQueueDepth = 16
)

type parser struct {
	// queues counts the queues the tree declares so far, root included.
	queues int
	// cluster is the cluster resource the absolute-resource checks compare
	// with: none at start-up, the live one on a refresh.
	cluster   resource.Resource
	r         *reader
	s         *Settings
	profile   Profile
	leafNames map[string]bool              // hadoop-2: leaf short names seen
	weights   map[string]map[string]string // queue path -> user -> raw weight
	// lifetimeSpecified records, per queue path, whether a default
	// application lifetime was configured on the queue or an ancestor.
	lifetimeSpecified map[string]bool
	// labels are, per queue path, the node labels its
	// accessible-node-labels.<label>.* properties name (scanKeys).
	labels map[string]map[string]bool
}

// scanKeys indexes the user-settings.<user>.weight properties by queue and
// warns about properties the playground ignores.
func (p *parser) scanKeys() {
	p.weights = map[string]map[string]string{}
	p.lifetimeSpecified = map[string]bool{}
	p.labels = map[string]map[string]bool{}
	const us = "." + SuffixUserSettings + "."
	for _, k := range p.r.c.Keys() {
		v, _ := p.r.c.Get(k)
		if strings.Contains(v, "${") {
			p.r.warnf("%s: Hadoop expands ${...} variables in values; yarnplay uses %q literally", k, v)
		}
		if !strings.HasPrefix(k, Prefix) {
			continue
		}
		if strings.Contains(k, "."+SuffixAccessibleNodeLabels) {
			p.indexLabel(k[len(Prefix):])
			if p.profile == Hadoop2 {
				p.r.warnf("%s: node labels are simulated under the hadoop-3 profile; under hadoop-2 the property is ignored", k)
			}
			continue
		}
		body, ok := strings.CutSuffix(k[len(Prefix):], "."+SuffixWeight)
		if !ok {
			continue
		}
		if i := strings.LastIndex(body, us); i >= 0 {
			path, user := body[:i], body[i+len(us):]
			if p.weights[path] == nil {
				p.weights[path] = map[string]string{}
			}
			p.weights[path][user] = v
		}
	}
}

// indexLabel records in p.labels the queue and the label of a property
// named Prefix + body, for every way body reads as
// <path>.accessible-node-labels.<label>.<rest> (a queue may be named
// accessible-node-labels too): what labelCapacities looks up by the
// queue's path, instead of going through every property for every queue
// (which took seconds at a thousand queues).
func (p *parser) indexLabel(body string) {
	const marker = "." + SuffixAccessibleNodeLabels + "."
	for at := 0; ; {
		i := strings.Index(body[at:], marker)
		if i < 0 {
			return
		}
		i += at
		rest := body[i+len(marker):]
		if j := strings.IndexByte(rest, '.'); j >= 0 {
			path := body[:i]
			if p.labels[path] == nil {
				p.labels[path] = map[string]bool{}
			}
			p.labels[path][rest[:j]] = true
		}
		at = i + 1
	}
}

// splitQueueNames is CapacitySchedulerConfiguration.getQueues: the value
// split at commas (empty pieces dropped, as StringTokenizer does), each
// piece trimmed.
func splitQueueNames(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s != "" {
			out = append(out, javaTrim(s))
		}
	}
	return out
}

func (p *parser) parseQueue(parent *QueueConf, name string) (*QueueConf, error) {
	path := name
	if parent != nil {
		path = parent.Path + "." + name
	}
	key := func(suffix string) string { return QueueKey(path, suffix) }
	rawChildren, _ := p.r.c.Get(key(SuffixQueues))
	children := splitQueueNames(rawChildren)
	reservable := p.r.getBool(key(SuffixReservable), false)
	autoCreate := p.r.getBool(key(SuffixAutoCreateChildQueue), false)
	// Hadoop 3.4: a queue without children that enables flexible
	// auto-queue creation is a parent (of the queues to be created).
	v2Parent := p.profile.AtLeast34() && !autoCreate && !reservable && p.r.getBool(key(SuffixAutoQueueCreationV2), false)

	if len(children) == 0 && !v2Parent {
		if parent == nil {
			return nil, errorf(key(SuffixQueues), path, "Queue configuration missing child queue names for %s", name)
		}
		if reservable {
			p.r.notSimulated(unsupported(key(SuffixReservable), path, "the reservation system (PlanQueue)", notLoaded,
				"Queue %s is reservable (%s=true): the reservation system (PlanQueue) is not simulated by yarnplay",
				path, key(SuffixReservable)))
		} else if autoCreate && p.profile == Hadoop2 {
			p.r.notSimulated(unsupported(key(SuffixAutoCreateChildQueue), path, "auto-created queues", notLoaded,
				"Queue %s enables auto-created child queues (%s=true): auto-created leaf queues came with Hadoop 3.1; "+
					"use the hadoop-3 profile", path, key(SuffixAutoCreateChildQueue)))
		} else if autoCreate {
			// CapacitySchedulerQueueManager.parseQueue: a ManagedParentQueue.
			q, err := p.newQueue(parent, name, path, false)
			if err != nil {
				return nil, err
			}
			return q, p.managedParent(q)
		}
		q, err := p.newQueue(parent, name, path, true)
		if err != nil {
			return nil, err
		}
		if err := p.flexibleAutoCreation(q); err != nil {
			return nil, err
		}
		if p.profile == Hadoop2 {
			// release-3.2.1 CapacitySchedulerQueueManager.parseQueue
			if p.leafNames[name] {
				return nil, errorf(QueueKey(parent.Path, SuffixQueues), path,
					"Two leaf queues were named %s. Leaf queue names must be distinct", name)
			}
			p.leafNames[name] = true
		}
		return q, nil
	}

	if reservable {
		return nil, errorf(key(SuffixReservable), path, "Only Leaf Queues can be reservable for %s", path)
	}
	if autoCreate {
		// Hadoop 3.3 makes it a ManagedParentQueue with static children,
		// which its queue-management policy then casts to
		// AutoCreatedLeafQueue (a ClassCastException at its first run).
		p.r.notSimulated(unsupported(key(SuffixAutoCreateChildQueue), path, "an auto-create enabled parent with configured children", notLoaded,
			"Queue %s enables auto-created child queues (%s=true) and lists child queues (%s=%q): Hadoop 3.3's "+
				"ManagedParentQueue does not allow pre-configured queues next to auto-created ones (its queue-management "+
				"policy fails on them); remove %s or the child queues",
			path, key(SuffixAutoCreateChildQueue), key(SuffixQueues), rawChildren, key(SuffixQueues)))
	}
	q, err := p.newQueue(parent, name, path, false)
	if err != nil {
		return nil, err
	}
	if err := p.flexibleAutoCreation(q); err != nil {
		return nil, err
	}
	if len(children) == 0 {
		return q, nil
	}
	if err := p.checkLimits(path, rawChildren, len(children)); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, cn := range children {
		switch {
		case cn == "":
			return nil, errorf(key(SuffixQueues), path,
				"Queue %s lists an empty child queue name in %s=%q", path, key(SuffixQueues), rawChildren)
		case strings.Contains(cn, "."):
			return nil, errorf(key(SuffixQueues), path,
				"Queue name %q (child of %s) must not contain \".\": dots separate the levels of a queue path", cn, path)
		case seen[cn]:
			return nil, errorf(key(SuffixQueues), path,
				"Queue %s lists child queue %s twice in %s=%q", path, cn, key(SuffixQueues), rawChildren)
		}
		seen[cn] = true
		c, err := p.parseQueue(q, cn)
		if err != nil {
			return nil, err
		}
		q.Children = append(q.Children, c)
	}
	if p.profile.AtLeast34() {
		if p.s.MixedQueueMode {
			// setChildQueues checks nothing outside legacy queue mode.
			return q, nil
		}
		if err := p.checkChildModes34(q); err != nil {
			return nil, err
		}
		return q, nil
	}
	if p.profile != Hadoop2 {
		if err := p.checkChildModes(q); err != nil {
			return nil, err
		}
		if err := p.checkChildLabels(q); err != nil {
			return nil, err
		}
		return q, nil
	}
	// ParentQueue.setChildQueues: the float sum of the children's capacity
	// fractions, accumulated in list order.
	var sum float32
	for _, c := range q.Children {
		sum = float32(sum + c.Capacity)
	}
	delta := float32(math.Abs(float64(float32(1 - sum))))
	if (q.Capacity > 0 && delta > float32(0.0005)) || (q.Capacity == 0 && sum > 0) {
		return nil, errorf(key(SuffixQueues), path, "Illegal capacity of %s for children of queue %s",
			JavaFloatString(sum), name)
	}
	return q, nil
}

// checkLimits refuses the children of queue path when they would take the
// tree past MaxQueues queues or MaxQueueDepth levels.
func (p *parser) checkLimits(path, rawChildren string, n int) error {
	key := QueueKey(path, SuffixQueues)
	if depth := strings.Count(path, ".") + 1; depth > MaxQueueDepth {
		return unsupported(key, path, "a queue tree deeper than 16 levels", notLoaded,
			"Queue %s has child queues (%s=%q) %d levels below root: the queue tree is deeper "+
				"than yarnplay's limit of %d levels", path, key, truncateValue(rawChildren), depth, MaxQueueDepth)
	}
	if p.queues += n; p.queues > MaxQueues {
		return unsupported(key, path, "a queue tree of more than 20000 queues", notLoaded,
			"The queue tree has more than %d queues (reached at %s=%q): yarnplay's limit is %d queues, root included",
			MaxQueues, key, truncateValue(rawChildren), MaxQueues)
	}
	return nil
}

// truncateValue shortens a long value for a message.
func truncateValue(v string) string {
	const n = 80
	if len(v) <= n {
		return v
	}
	return v[:n] + "..."
}

// newQueue is the constructor of a LeafQueue or ParentQueue: the checks of
// AbstractCSQueue.setupQueueConfigs, then the leaf's or the parent's own.
func (p *parser) newQueue(parent *QueueConf, name, path string, leaf bool) (*QueueConf, error) {
	r := p.r
	key := func(suffix string) string { return QueueKey(path, suffix) }
	q := &QueueConf{Name: name, Path: path, Parent: parent}
	if p.profile != Hadoop2 {
		if err := p.queueLabels(q); err != nil {
			return nil, err
		}
	}
	if err := p.capacityVectors(q); err != nil {
		return nil, err
	}
	if err := p.capacities(q); err != nil {
		return nil, err
	}
	if p.profile != Hadoop2 {
		if err := p.labelCapacities(q); err != nil {
			return nil, err
		}
		if err := p.resourceRequirement(q); err != nil {
			return nil, err
		}
	}
	if err := p.maximumAllocation(q); err != nil {
		return nil, err
	}

	var err error
	if q.MaxParallelApps, err = r.getInt(KeyMaxParallelApps, math.MaxInt32, ""); err != nil {
		return nil, err
	}
	if raw, ok := r.c.Get(key(SuffixMaxParallelApps)); ok {
		v, perr := parseJavaInteger(raw, 10, 32) // Integer.parseInt, untrimmed
		if perr != nil {
			return nil, numberError(key(SuffixMaxParallelApps), path, raw, "integer", perr)
		}
		q.MaxParallelApps = int(v)
	}

	if err := p.state(q); err != nil {
		return nil, err
	}

	defACL := " "
	if parent == nil {
		defACL = "*"
	}
	q.SubmitACL, q.AdminACL = ParseACL(defACL), ParseACL(defACL)
	if v, ok := r.c.Get(key(SuffixACLSubmitApplications)); ok {
		q.SubmitACL = ParseACL(v)
	}
	if v, ok := r.c.Get(key(SuffixACLAdministerQueue)); ok {
		q.AdminACL = ParseACL(v)
	}

	parentDisabled := false
	if parent != nil {
		parentDisabled = parent.DisablePreemption
	}
	q.DisablePreemption = r.getBool(key(SuffixDisablePreemption), parentDisabled)
	if q.Priority, err = r.getInt(key(SuffixPriority), 0, path); err != nil {
		return nil, err
	}
	if err := p.userWeights(q); err != nil {
		return nil, err
	}
	if err := p.lifetimes(q); err != nil {
		return nil, err
	}
	if !leaf {
		return q, p.orderingPolicy(q, false)
	}
	if p.profile != Hadoop2 {
		if err := p.checkDefaultLabel(q); err != nil {
			return nil, err
		}
	}
	return q, p.leafConfigs(q)
}

// capacities is CSQueueUtils.loadUpdateAndCheckCapacities for the default
// partition (getNonLabeledQueueCapacity, getNonLabeledQueueMaximumCapacity,
// the max AM percent, the absolute values, capacitiesSanityCheck).
func (p *parser) capacities(q *QueueConf) error {
	r, path := p.r, q.Path
	capKey, maxKey := QueueKey(path, SuffixCapacity), QueueKey(path, SuffixMaximumCapacity)
	var capacity float32
	raw, ok := r.c.Get(capKey)
	switch {
	case q.Parent == nil:
		capacity = 100 // root's configured capacity is ignored
		if ok {
			if v, err := parseJavaFloat(raw, 32); err != nil || v != 100 {
				r.warnf("%s: root's capacity is always 100; %q is ignored", capKey, raw)
			}
		}
	case ok && IsAbsoluteResource(raw) && p.profile != Hadoop2:
		// getNonLabeledQueueCapacity: 0%; the resource is read by
		// resourceRequirement (updateConfigurableResourceRequirement).
	case ok && IsWeight(raw) && p.profile.AtLeast34():
		// getNonLabeledQueueCapacity: 0%; the weight is read below.
	case ok:
		v, err := parseJavaFloat(raw, 32)
		if err != nil {
			return p.capacityNumberError(capKey, path, raw, err)
		}
		capacity = float32(v)
		if capacity < 0 || capacity > 100 {
			return errorf(capKey, path, "Illegal capacity of %s for queue %s", JavaFloatString(capacity), path)
		}
	}
	maxCapacity := float32(100)
	if raw, ok := r.c.Get(maxKey); ok && IsAbsoluteResource(raw) && p.profile != Hadoop2 {
		// getNonLabeledQueueMaximumCapacity: 100%, the resource read by
		// resourceRequirement.
		if q.Parent == nil {
			r.warnf("%s: root's maximum is always the cluster; %q is ignored", maxKey, raw)
		}
	} else if ok {
		v, err := parseJavaFloat(raw, 32)
		if err != nil {
			return p.capacityNumberError(maxKey, path, raw, err)
		}
		maxCapacity = float32(v)
		if maxCapacity != -1 {
			q.MaxCapacityPercent = maxCapacity
		}
		if maxCapacity == -1 {
			maxCapacity = 100
		} else if maxCapacity > 100 || maxCapacity < 0 {
			r.warnf("%s: %s is outside [0, 100]; Hadoop uses it as is", maxKey, JavaFloatString(maxCapacity))
		}
	}
	var err error
	if q.MaxAMPercent, err = r.getFloat(QueueKey(path, SuffixMaximumAMResourcePercent), p.s.MaxAMPercent, path); err != nil {
		return err
	}
	if p.profile.AtLeast34() {
		if err := p.weight(q); err != nil {
			return err
		}
	}
	q.CapacityPercent = capacity
	q.Capacity = float32(capacity / 100)
	q.MaxCapacity = float32(maxCapacity / 100)
	parentAbs, parentAbsMax := float32(1), float32(1)
	if q.Parent != nil {
		parentAbs, parentAbsMax = q.Parent.AbsCapacity, q.Parent.AbsMaxCapacity
	}
	if q.Capacity > 0 {
		q.AbsCapacity = float32(q.Capacity * parentAbs)
	}
	if q.MaxCapacity > 0 {
		q.AbsMaxCapacity = float32(q.MaxCapacity * parentAbsMax)
	}
	if q.AbsCapacity > q.AbsMaxCapacity {
		return errorf(maxKey, path, "Illegal queue capacity setting (abs-capacity=%s) > (abs-maximum-capacity=%s) for queue=[%s],label=[]",
			JavaFloatString(q.AbsCapacity), JavaFloatString(q.AbsMaxCapacity), path)
	}
	return nil
}

// capacityNumberError is Float.parseFloat's refusal of a capacity; under
// the hadoop-2 profile a bracketed value says that Hadoop 2 has no
// absolute resource capacities (they came with Hadoop 3.1).
func (p *parser) capacityNumberError(key, path, raw string, err error) *Error {
	e := numberError(key, path, raw, "float", err)
	if p.profile == Hadoop2 && IsAbsoluteResource(raw) {
		e.Message += " (Hadoop 2 has no absolute resource capacities; they came with Hadoop 3.1: " +
			"use the hadoop-3 profile, or give queue " + path + " a percentage)"
	}
	e.Message += weightNumberNote(p.profile, raw, path)
	return e
}

// notLoaded is what yarnplay does with a configuration that uses a
// feature it does not simulate.
const notLoaded = "yarnplay does not load the configuration (it would simulate something other than what Hadoop runs)"

// maximumAllocation is AbstractCSQueue.setupMaximumAllocation
// (docs/semantics.md, section 3.4).
func (p *parser) maximumAllocation(q *QueueConf) error {
	r, path := p.r, q.Path
	clusterMax := p.s.MaxAlloc
	q.MaxAlloc = clusterMax
	if q.Parent != nil {
		q.MaxAlloc = q.Parent.MaxAlloc
	}
	tooLarge := func(key string, res string) *Error {
		return errorf(key, path, "Queue maximum allocation cannot be larger than the cluster setting for queue %s "+
			"max allocation per queue: %s cluster setting: %s", path, res, clusterMax)
	}
	maKey := QueueKey(path, SuffixMaximumAllocation)
	if raw, ok := r.c.Get(maKey); ok && raw != "" {
		qm, missing, err := parseResourceString(raw)
		if err != nil {
			return errorf(maKey, path, "Invalid %s = %q for queue %s: %v", maKey, raw, path, err)
		}
		if qm.MemoryMB > clusterMax.MemoryMB || qm.VCores > clusterMax.VCores {
			return tooLarge(maKey, qm.String())
		}
		if len(missing) > 0 {
			r.warnf("%s = %q does not set %s: Hadoop 3.3 sets it to 0 for queue %s",
				maKey, raw, strings.Join(missing, " and "), path)
		}
		q.MaxAlloc = qm
		return nil
	}
	mbKey, vcKey := QueueKey(path, SuffixMaximumAllocationMB), QueueKey(path, SuffixMaximumAllocationVcores)
	mem, err := r.getInt(mbKey, -1, path)
	if err != nil {
		return err
	}
	vc, err := r.getInt(vcKey, -1, path)
	if err != nil {
		return err
	}
	if mem != -1 {
		q.MaxAlloc.MemoryMB = int64(mem)
	}
	if vc != -1 {
		q.MaxAlloc.VCores = int64(vc)
	}
	if mem != -1 && int64(mem) > clusterMax.MemoryMB {
		return tooLarge(mbKey, q.MaxAlloc.String())
	}
	if vc != -1 && int64(vc) > clusterMax.VCores {
		return tooLarge(vcKey, q.MaxAlloc.String())
	}
	if mem != -1 && mem <= 0 || vc != -1 && vc <= 0 {
		r.warnf("queue %s: maximum allocation %s is not positive; Hadoop uses it as is", path, q.MaxAlloc)
	}
	return nil
}

// state is getConfiguredState and AbstractCSQueue.initializeQueueState for
// a queue with no previous state.
func (p *parser) state(q *QueueConf) error {
	key := QueueKey(q.Path, SuffixState)
	if raw, ok := p.r.c.Get(key); ok {
		switch up := QueueState(strings.ToUpper(raw)); up { // QueueState.valueOf: not trimmed
		case Running, Stopped, Draining:
			q.ConfiguredState = up
		default:
			return errorf(key, q.Path, "No enum constant org.apache.hadoop.yarn.api.records.QueueState.%s "+
				"(%s = %q; a queue's state is RUNNING or STOPPED)", up, key, raw)
		}
	}
	if q.ConfiguredState == Draining {
		return errorf(key, q.Path, "Invalid queue state configuration. We can only use RUNNING or STOPPED.")
	}
	switch {
	case q.Parent == nil:
		q.State = q.ConfiguredState
		if q.State == "" {
			q.State = Running
		}
	case q.ConfiguredState == "":
		q.State = q.Parent.State
		if q.State == Draining {
			q.State = Stopped
		}
	case q.ConfiguredState == Running && q.Parent.State != Running:
		return errorf(key, q.Path, "The parent queue:%s cannot be STOPPED as the child queue:%s is in RUNNING state.",
			q.Parent.Path, q.Path)
	default:
		q.State = q.ConfiguredState
	}
	return nil
}
