package config

import (
	"sort"
	"strings"
)

// Any is the accessible-node-labels value that gives a queue every
// partition (RMNodeLabelsManager.ANY).
const Any = "*"

// SuffixDefaultNodeLabelExpression is a queue's default-node-label-expression.
const SuffixDefaultNodeLabelExpression = "default-node-label-expression"

// QueueLabels are a queue's node-label settings under the hadoop-3
// profile (AbstractCSQueue.setupQueueConfigs and the labelled part of
// CSQueueUtils.loadUpdateAndCheckCapacities).
type QueueLabels struct {
	// Accessible is the queue's accessible-node-labels, sorted, or [Any];
	// a queue that does not set it has its parent's (root always Any).
	Accessible []string
	// DefaultExpression is default-node-label-expression (trimmed); a
	// queue that does not set it has its parent's when it can access
	// every label its parent can. "" is the default partition.
	DefaultExpression string
	// ByLabel holds the capacities of the labels the queue configures
	// (getConfiguredNodeLabels: a key accessible-node-labels.<label>.*),
	// the default partition excluded. A label not in it has every
	// capacity 0 (QueueCapacities.LABEL_DOESNT_EXIST_CAP).
	ByLabel map[string]LabelCapacity
}

// LabelCapacity is one label's capacities of a queue, as fractions
// (QueueCapacities for that label).
type LabelCapacity struct {
	Capacity, MaxCapacity, AbsCapacity, AbsMaxCapacity float32
	// MaxAMPercent is accessible-node-labels.<label>.maximum-am-resource-percent,
	// else the queue's maximum-am-resource-percent
	// (getMaximumAMResourcePercentPerPartition).
	MaxAMPercent float32
}

// Label is the queue's capacities for a label, zero when the queue does
// not configure it ("" is not a label: use the queue's own fields).
func (q *QueueConf) Label(label string) LabelCapacity {
	return q.Labels.ByLabel[label]
}

// CanAccess is AbstractCSQueue.accessibleToPartition: every queue can
// access the default partition, an Any queue every partition, others the
// labels they list.
func (q *QueueConf) CanAccess(partition string) bool {
	if partition == "" {
		return true
	}
	for _, l := range q.Labels.Accessible {
		if l == Any || l == partition {
			return true
		}
	}
	return false
}

// AccessibleString is the accessible labels joined with commas, as
// Hadoop's messages print them.
func (q *QueueConf) AccessibleString() string { return strings.Join(q.Labels.Accessible, ",") }

// ConfiguredLabels are the labels (other than the default partition) that
// any queue of the tree configures capacities for, sorted.
func ConfiguredLabels(root *QueueConf) []string {
	seen := map[string]bool{}
	var walk func(q *QueueConf)
	walk = func(q *QueueConf) {
		for l := range q.Labels.ByLabel {
			seen[l] = true
		}
		for _, c := range q.Children {
			walk(c)
		}
	}
	walk(root)
	out := make([]string, 0, len(seen))
	for l := range seen {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// queueLabels reads a queue's accessible labels and default label
// expression (CapacitySchedulerConfiguration.getAccessibleNodeLabels and
// getDefaultNodeLabelExpression, with AbstractCSQueue.setupQueueConfigs's
// inheritance), then checks that a child's labels are a subset of its
// parent's (below root's children), and a leaf's default expression
// (LeafQueue.setupQueueConfigs: checkQueueLabelExpression).
func (p *parser) queueLabels(q *QueueConf) error {
	key := QueueKey(q.Path, SuffixAccessibleNodeLabels)
	raw, set := p.r.c.Get(key)
	switch {
	case q.Parent == nil:
		if set {
			p.r.warnf("%s: Accessible node labels for root queue will be ignored, it will be automatically set to \"*\".", key)
		}
		q.Labels.Accessible = []string{Any}
	case set:
		seen := map[string]bool{}
		acc := []string{}
		for _, s := range strings.Split(raw, ",") {
			if s = strings.TrimSpace(s); s != "" && !seen[s] {
				seen[s] = true
				acc = append(acc, s)
			}
		}
		sort.Strings(acc)
		q.Labels.Accessible = acc
	default:
		q.Labels.Accessible = q.Parent.Labels.Accessible
	}
	dkey := QueueKey(q.Path, SuffixDefaultNodeLabelExpression)
	if v, ok := p.r.c.Get(dkey); ok {
		q.Labels.DefaultExpression = strings.TrimSpace(v)
	} else if q.Parent != nil && containsAll(q.Labels.Accessible, q.Parent.Labels.Accessible) {
		q.Labels.DefaultExpression = q.Parent.Labels.DefaultExpression
	}
	if q.Parent != nil && q.Parent.Parent != nil && !contains(q.Parent.Labels.Accessible, Any) {
		if contains(q.Labels.Accessible, Any) {
			return errorf(key, q.Path, "Parent's accessible queue is not ANY(*), but child's accessible queue is *")
		}
		var diff []string
		for _, l := range q.Labels.Accessible {
			if !contains(q.Parent.Labels.Accessible, l) {
				diff = append(diff, l)
			}
		}
		if len(diff) > 0 {
			return errorf(key, q.Path, "Some labels of child queue is not a subset of parent queue, these labels=[%s]", strings.Join(diff, ","))
		}
	}
	return nil
}

// checkDefaultLabel is LeafQueue.setupQueueConfigs's check that a leaf can
// access the labels of its default label expression.
func (p *parser) checkDefaultLabel(q *QueueConf) error {
	exp := q.Labels.DefaultExpression
	if labelExpressionAllowed(q, exp) {
		return nil
	}
	return errorf(QueueKey(q.Path, SuffixDefaultNodeLabelExpression), q.Path,
		"Invalid default label expression of  queue=%s doesn't have permission to access all labels in default label expression. "+
			"labelExpression of resource request=%s. Queue labels=%s", q.Path, exp, q.AccessibleString())
}

// labelExpressionAllowed is SchedulerUtils.checkQueueLabelExpression: every
// label of the expression (split at "&&") is one the queue can access.
func labelExpressionAllowed(q *QueueConf, exp string) bool {
	for _, s := range strings.Split(exp, "&&") {
		if s = strings.TrimSpace(s); s != "" && !contains(q.Labels.Accessible, s) && !contains(q.Labels.Accessible, Any) {
			return false
		}
	}
	return true
}

// LabelExpressionAllowed reports whether the queue may ask for the label
// expression (SchedulerUtils.checkQueueLabelExpression).
func (q *QueueConf) LabelExpressionAllowed(exp string) bool { return labelExpressionAllowed(q, exp) }

// checkChildLabels is the label loop of ParentQueue.setChildQueues for
// percentages: for each label the parent configures, the children's
// capacities for it sum to 100% when the parent's is above 0, and to 0
// when it is 0. Labels are checked in sorted order (Hadoop: HashSet order).
func (p *parser) checkChildLabels(q *QueueConf) error {
	labels := make([]string, 0, len(q.Labels.ByLabel))
	for l := range q.Labels.ByLabel {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	for _, l := range labels {
		var sum float32
		for _, c := range q.Children {
			sum = float32(sum + c.Label(l).Capacity)
		}
		capacity := q.Label(l).Capacity
		if (q.MinResource.IsZero() && capacity > 0 && absf(float32(1-sum)) > float32(0.0005)) || (capacity == 0 && sum > 0) {
			return errorf(QueueKey(q.Path, SuffixQueues), q.Path, "Illegal capacity of %s for children of queue %s for label=%s",
				JavaFloatString(sum), q.Name, l)
		}
	}
	return nil
}

func absf(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}

func containsAll(list, of []string) bool {
	for _, s := range of {
		if !contains(list, s) {
			return false
		}
	}
	return true
}
