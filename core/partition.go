package core

import (
	"fmt"
	"maps"
	"sort"
	"strings"

	"yarnplay/core/config"
	"yarnplay/core/resource"
)

// NodeLabel is a cluster node label (yarn rmadmin -addToClusterNodeLabels):
// a partition of the cluster. An exclusive partition's idle resources go
// to its own asks only; a non-exclusive one shares them with asks for the
// default partition (docs/semantics.md, section 15).
type NodeLabel struct {
	Name      string
	Exclusive bool
}

// labelState is the scheduler's node-label state: the cluster's labels,
// each partition's resources, and the usage and pending resources per
// partition of queues, users and applications. The default partition's
// live in the queues and users themselves; only labelled partitions are
// kept here, keyed by queue path (stable across refreshes) and names, so
// that a clone copies them with maps.Clone.
type labelState struct {
	exclusive map[string]bool
	res       map[string]resource.Resource
	nodes     map[string]int
	q         map[partKey]partUse
	u         map[userKey]partUse
	// am is an application's AM partition (getAppAMNodePartitionName),
	// for those that are not the default partition.
	am map[string]string
	// app is an application's node label expression, where it has one.
	app map[string]string
}

type partKey struct{ path, label string }

type userKey struct{ path, user, label string }

// partUse is a queue's or a user's usage in one labelled partition
// (ResourceUsage for that label): used (reservations included), pending
// asks, and AM resources of activated applications.
type partUse struct {
	used, pending, amUsed resource.Resource
}

func (l *labelState) clone() *labelState {
	if l == nil {
		return nil
	}
	return &labelState{exclusive: maps.Clone(l.exclusive), res: maps.Clone(l.res), nodes: maps.Clone(l.nodes),
		q: maps.Clone(l.q), u: maps.Clone(l.u), am: maps.Clone(l.am), app: maps.Clone(l.app)}
}

// validLabelName is NodeLabelUtil.LABEL_OR_VALUE_PATTERN,
// ^[0-9a-zA-Z][0-9a-zA-Z-_]* matched whole.
func validLabelName(name string) bool {
	for i, c := range name {
		alnum := c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !alnum && (i == 0 || c != '-' && c != '_') {
			return false
		}
	}
	return name != ""
}

// AddNodeLabels adds cluster node labels
// (CommonNodeLabelsManager.addToCluserNodeLabels, with
// NodeLabelUtil.checkAndThrowLabelName's messages). A label already
// added again keeps its exclusivity. Node labels are simulated under the hadoop-3 profile.
func (s *Scheduler) AddNodeLabels(labels []NodeLabel) error {
	s.invalidate(changeState, nil)
	if s.profile == config.Hadoop2 {
		return fmt.Errorf("node labels: yarnplay simulates node labels under the hadoop-3 profile only")
	}
	seen := map[string]bool{}
	for _, l := range labels {
		name := strings.TrimSpace(l.Name)
		if name == "" || len(l.Name) > 255 {
			return fmt.Errorf("node labels: label added is empty or exceeds 255 character(s)")
		}
		if !validLabelName(name) {
			return fmt.Errorf("node labels: label name should only contains {0-9, a-z, A-Z, -, _} and should not started with {-,_}, now it is= %s", name)
		}
		if seen[name] {
			return fmt.Errorf("node labels: label %s is listed twice", name)
		}
		seen[name] = true
	}
	if s.lbl == nil {
		s.lbl = &labelState{exclusive: map[string]bool{}, res: map[string]resource.Resource{}, nodes: map[string]int{},
			q: map[partKey]partUse{}, u: map[userKey]partUse{}, am: map[string]string{}, app: map[string]string{}}
	}
	for _, l := range labels {
		name := strings.TrimSpace(l.Name)
		if hasLabel(s.lbl, name) {
			continue
		}
		s.lbl.exclusive[name] = l.Exclusive
		s.lbl.res[name] = resource.None
	}
	return nil
}

func hasLabel(l *labelState, name string) bool {
	_, ok := l.res[name]
	return ok
}

// NodeLabels are the cluster's node labels, by name.
func (s *Scheduler) NodeLabels() []NodeLabel {
	if s.lbl == nil {
		return nil
	}
	out := make([]NodeLabel, 0, len(s.lbl.res))
	for name := range s.lbl.res {
		out = append(out, NodeLabel{Name: name, Exclusive: s.lbl.exclusive[name]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Partitions are the partitions of the cluster: "" (the default) first,
// then the labels by name.
func (s *Scheduler) Partitions() []string {
	out := []string{""}
	for _, l := range s.NodeLabels() {
		out = append(out, l.Name)
	}
	return out
}

// PartitionResource is a partition's resources: its nodes' total
// (RMNodeLabelsManager.getResourceByLabel).
func (s *Scheduler) PartitionResource(label string) resource.Resource {
	return s.partRes(label)
}

func (s *Scheduler) partRes(label string) resource.Resource {
	if label == "" {
		return s.cluster
	}
	if s.lbl == nil {
		return resource.None
	}
	return s.lbl.res[label]
}

// checkNodeLabel refuses a node label that is not a cluster label
// (CommonNodeLabelsManager.checkReplaceLabelsOnNode).
func (s *Scheduler) checkNodeLabel(spec NodeSpec) error {
	if spec.Label == "" {
		return nil
	}
	if s.lbl == nil || !hasLabel(s.lbl, spec.Label) {
		return fmt.Errorf("add_node: node %s: Not all labels being replaced contained by known label collections, please check, new labels=[%s]", spec.Name, spec.Label)
	}
	return nil
}

// addNodeResource adds a node's resources to its partition (or takes
// them away): the default partition's are the scheduler's cluster.
func (s *Scheduler) addNodeResource(n *node, add bool) {
	if n.part == "" {
		if add {
			s.cluster = s.cluster.Add(n.total)
		} else {
			s.cluster = s.cluster.Sub(n.total)
		}
		return
	}
	if add {
		s.lbl.res[n.part] = s.lbl.res[n.part].Add(n.total)
		s.lbl.nodes[n.part]++
	} else {
		s.lbl.res[n.part] = s.lbl.res[n.part].Sub(n.total)
		s.lbl.nodes[n.part]--
	}
}

// wholeCluster is every partition's resources together (Hadoop's
// clusterResource).
func (s *Scheduler) wholeCluster() resource.Resource {
	r := s.cluster
	if s.lbl != nil {
		for _, x := range s.lbl.res { // a sum: the order does not matter
			r = r.Add(x)
		}
	}
	return r
}

// qUse is a queue's usage in a labelled partition.
func (s *Scheduler) qUse(q *queue, label string) partUse {
	if s.lbl == nil {
		return partUse{}
	}
	return s.lbl.q[partKey{q.path, label}]
}

// qUsed is a queue's used resources in a partition (queueUsage.getUsed).
func (s *Scheduler) qUsed(q *queue, label string) resource.Resource {
	if label == "" {
		return q.used
	}
	return s.qUse(q, label).used
}

// qPending is a queue's pending resources for a partition.
func (s *Scheduler) qPending(q *queue, label string) resource.Resource {
	if label == "" {
		return q.pending
	}
	return s.qUse(q, label).pending
}

// uUse is a user's usage in a labelled partition.
func (s *Scheduler) uUse(q *queue, user, label string) partUse {
	if s.lbl == nil {
		return partUse{}
	}
	return s.lbl.u[userKey{q.path, user, label}]
}

// uUsed is a user's used resources in a partition.
func (s *Scheduler) uUsed(q *queue, u *user, label string) resource.Resource {
	if label == "" {
		return u.used
	}
	return s.uUse(q, u.name, label).used
}

// addPartUsed charges (or returns) a container or reservation in a
// labelled partition to the leaf, its ancestors and the user.
func (s *Scheduler) addPartUsed(q *queue, a *app, label string, r resource.Resource, add bool) {
	s.invalidate(changeLeaf, q)
	sign := func(x resource.Resource) resource.Resource {
		if add {
			return x.Add(r)
		}
		return x.Sub(r)
	}
	for p := q; p != nil; p = p.parent {
		k := partKey{p.path, label}
		u := s.lbl.q[k]
		u.used = sign(u.used)
		s.lbl.q[k] = u
	}
	k := userKey{q.path, a.user, label}
	u := s.lbl.u[k]
	u.used = sign(u.used)
	s.lbl.u[k] = u
}

// addPartPending changes a queue's and its ancestors' pending resources
// for a labelled partition.
func (s *Scheduler) addPartPending(q *queue, label string, r resource.Resource, add bool) {
	s.invalidate(changeLeaf, q)
	for p := q; p != nil; p = p.parent {
		k := partKey{p.path, label}
		u := s.lbl.q[k]
		if add {
			u.pending = u.pending.Add(r)
		} else {
			u.pending = u.pending.Sub(r)
		}
		s.lbl.q[k] = u
	}
}

// effMinP is a queue's guaranteed resource in a partition
// (getEffectiveCapacity: the partition's resources times the absolute
// capacity for the label; root's is the partition).
func (s *Scheduler) effMinP(q *queue, label string) resource.Resource {
	if label == "" {
		return q.effMin
	}
	if q.parent == nil {
		return s.partRes(label)
	}
	return resource.Multiply(s.partRes(label), float64(q.conf.Label(label).AbsCapacity))
}

// effMaxP is a queue's maximum in a partition (getEffectiveMaxCapacity).
func (s *Scheduler) effMaxP(q *queue, label string) resource.Resource {
	if label == "" {
		return q.effMax
	}
	if q.parent == nil {
		return s.partRes(label)
	}
	return resource.Multiply(s.partRes(label), float64(q.conf.Label(label).AbsMaxCapacity))
}

// requestPartition is the partition an ask of the application goes to
// (SchedulerUtils.normalizeNodeLabelExpressionInRequest): the ask's label
// expression, else the application's, else the queue's
// default-node-label-expression.
func requestPartition(ask *string, app string, q *queue) string {
	if ask != nil {
		return strings.TrimSpace(*ask)
	}
	if app != "" {
		return app
	}
	return q.conf.Labels.DefaultExpression
}

// checkLabelExpression is SchedulerUtils.validateResourceRequest's label
// checks for an ask in partition label of a queue.
func (s *Scheduler) checkLabelExpression(q *queue, label string) error {
	if label == "" {
		return nil
	}
	if strings.Contains(label, "&&") {
		return fmt.Errorf("Invalid resource request, queue=%s specified more than one node label in a node label expression, node label expression = %s", q.name, label)
	}
	if !q.conf.LabelExpressionAllowed(label) {
		return fmt.Errorf("Invalid resource request, queue=%s doesn't have permission to access all labels in resource request. labelExpression of resource request=%s. Queue labels=%s",
			q.name, label, q.conf.AccessibleString())
	}
	if s.lbl == nil || !hasLabel(s.lbl, label) {
		return fmt.Errorf("Invalid label resource request, cluster do not contain , label= %s", label)
	}
	return nil
}

// appLabel is an application's node label expression ("" none).
func (s *Scheduler) appLabel(a *app) string {
	if s.lbl == nil {
		return ""
	}
	return s.lbl.app[a.id]
}

// amPartition is an application's AM partition ("" the default).
func (s *Scheduler) amPartition(a *app) string {
	if s.lbl == nil {
		return ""
	}
	return s.lbl.am[a.id]
}

// checkPartitions is CheckInvariants for the labelled partitions: each
// partition's resources are its nodes' total; the usage, pending asks and
// AM resources kept per queue and user are what the containers,
// reservations, asks and activated applications sum to (a queue's over
// its leaves' applications, so a parent's are its children's); and no
// partition's containers take more than its resources.
func (s *Scheduler) checkPartitions() error {
	if s.lbl == nil {
		return nil
	}
	res := map[string]resource.Resource{}
	nodes := map[string]int{}
	for _, n := range s.nodes {
		if n.part != "" {
			if !hasLabel(s.lbl, n.part) {
				return fmt.Errorf("node %s is in partition %s, which is not a cluster label", n.name, n.part)
			}
			res[n.part] = res[n.part].Add(n.total)
			nodes[n.part]++
		}
	}
	for l, r := range s.lbl.res {
		if res[l] != r || nodes[l] != s.lbl.nodes[l] {
			return fmt.Errorf("partition %s: resources %s on %d nodes, but its nodes sum to %s on %d", l, r, s.lbl.nodes[l], res[l], nodes[l])
		}
	}
	q := map[partKey]partUse{}
	u := map[userKey]partUse{}
	for _, a := range s.apps {
		if a.state != AppAccepted && a.state != AppRunning {
			continue
		}
		add := func(label string, r resource.Resource, f func(*partUse, resource.Resource)) {
			for p := a.queue; p != nil; p = p.parent {
				x := q[partKey{p.path, label}]
				f(&x, r)
				q[partKey{p.path, label}] = x
			}
			x := u[userKey{a.queue.path, a.user, label}]
			f(&x, r)
			u[userKey{a.queue.path, a.user, label}] = x
		}
		used := func(x *partUse, r resource.Resource) { x.used = x.used.Add(r) }
		for _, c := range a.live {
			if c != nil && c.node.part != "" {
				add(c.node.part, c.size, used)
			}
		}
		for _, c := range a.reservations {
			if c.node.part != "" {
				add(c.node.part, c.size, used)
			}
		}
		for _, r := range a.requests {
			if r.placed && r.outstanding() > 0 && r.label != "" {
				add(r.label, r.size.Times(int64(r.outstanding())), func(x *partUse, r resource.Resource) { x.pending = x.pending.Add(r) })
			}
		}
		if l := s.amPartition(a); a.activated && l != "" {
			x := q[partKey{a.queue.path, l}]
			x.amUsed = x.amUsed.Add(a.amResource)
			q[partKey{a.queue.path, l}] = x
			y := u[userKey{a.queue.path, a.user, l}]
			y.amUsed = y.amUsed.Add(a.amResource)
			u[userKey{a.queue.path, a.user, l}] = y
		}
	}
	for k, v := range s.lbl.q {
		if _, live := s.byPath[k.path]; live && v != q[k] {
			return fmt.Errorf("queue %s in partition %s: used %s pending %s AM %s, but its applications sum to %s / %s / %s",
				k.path, k.label, v.used, v.pending, v.amUsed, q[k].used, q[k].pending, q[k].amUsed)
		}
	}
	for k, v := range q {
		if s.lbl.q[k] != v {
			return fmt.Errorf("queue %s in partition %s: its applications use %s, but it keeps %s", k.path, k.label, v.used, s.lbl.q[k].used)
		}
	}
	for k, v := range s.lbl.u {
		if _, live := s.byPath[k.path]; live && (v.used != u[k].used || v.amUsed != u[k].amUsed) {
			return fmt.Errorf("queue %s user %s in partition %s: used %s AM %s, but the applications sum to %s / %s",
				k.path, k.user, k.label, v.used, v.amUsed, u[k].used, u[k].amUsed)
		}
	}
	// Containers (reservations left out: a reserved node is full) never
	// take more than the partition has.
	alloc := map[string]resource.Resource{}
	for _, n := range s.nodes {
		alloc[n.part] = alloc[n.part].Add(n.allocated)
	}
	for l, r := range s.lbl.res {
		if !s.rc.FitsIn(alloc[l], r) {
			return fmt.Errorf("partition %s is used beyond its resources: %s of %s", l, alloc[l], r)
		}
	}
	return nil
}
