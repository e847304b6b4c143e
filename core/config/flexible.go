package config

import (
	"slices"
	"strings"

	"yarnplay/core/resource"
)

// Properties of Hadoop 3.4's flexible auto-queue creation
// (CapacitySchedulerConfiguration, AutoCreatedQueueTemplate).
const (
	// SuffixAutoQueueCreationV2MaxQueues is AUTO_QUEUE_CREATION_V2_MAX_QUEUES:
	// how many children a parent may have before creation is refused
	// (getAutoCreatedQueuesV2MaxChildQueuesLimit, default 1000).
	SuffixAutoQueueCreationV2MaxQueues = "auto-queue-creation-v2.max-queues"
	// SuffixAutoQueueCreationV2MaxDepth is MAXIMUM_QUEUE_DEPTH, per queue or
	// global (getMaximumAutoCreatedQueueDepth, default 2): how far below
	// its first static ancestor a dynamic leaf may be.
	SuffixAutoQueueCreationV2MaxDepth = "auto-queue-creation-v2.maximum-queue-depth"
	// TemplatePrefix, LeafTemplatePrefix and ParentTemplatePrefix are
	// AutoCreatedQueueTemplate's AUTO_QUEUE_TEMPLATE_PREFIX,
	// AUTO_QUEUE_LEAF_TEMPLATE_PREFIX and AUTO_QUEUE_PARENT_TEMPLATE_PREFIX:
	// <parent>.<prefix><property> gives every (leaf, parent) queue created
	// under the parent that property.
	TemplatePrefix       = "auto-queue-creation-v2.template."
	LeafTemplatePrefix   = "auto-queue-creation-v2.leaf-template."
	ParentTemplatePrefix = "auto-queue-creation-v2.parent-template."
)

// Hadoop 3.4's AutoCreatedQueueDeletionPolicy.
const (
	// AutoQueueDeletionPolicyClass is the scheduling edit policy that
	// deletes idle dynamic queues (listed in KeyMonitorPolicies).
	AutoQueueDeletionPolicyClass = "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.AutoCreatedQueueDeletionPolicy"
	// KeyAutoQueueExpirationTime is AUTO_CREATE_CHILD_QUEUE_EXPIRED_TIME
	// (seconds, 300): the policy's interval and the idle time after which
	// a dynamic queue goes.
	KeyAutoQueueExpirationTime = Prefix + "auto-queue-creation-v2.queue-expiration-time"
	// SuffixAutoQueueRemoval is AUTO_CREATE_CHILD_QUEUE_AUTO_REMOVAL_ENABLE
	// (true): whether a dynamic queue may be deleted.
	SuffixAutoQueueRemoval = "auto-queue-creation-v2.queue-auto-removal.enable"
)

// DefaultAutoQueueCreationV2MaxQueues is DEFAULT_AUTO_QUEUE_CREATION_V2_MAX_QUEUES.
const DefaultAutoQueueCreationV2MaxQueues = 1000

// DefaultMaximumQueueDepth is DEFAULT_MAXIMUM_QUEUE_DEPTH.
const DefaultMaximumQueueDepth = 2

// flexibleAutoCreation reads auto-queue-creation-v2.enabled
// (isAutoQueueCreationV2Enabled): under Hadoop 3.4 it makes q eligible for
// auto-queue creation; Hadoop 3.3 and 2 do not know the property.
func (p *parser) flexibleAutoCreation(q *QueueConf) error {
	key := QueueKey(q.Path, SuffixAutoQueueCreationV2)
	if !p.r.getBool(key, false) {
		return nil
	}
	if !p.profile.AtLeast34() {
		p.r.warnf("%s: Hadoop %s has no flexible auto-queue creation (it came with Hadoop 3.4); the property is ignored",
			key, map[bool]string{true: "2", false: "3.3"}[p.profile == Hadoop2])
		return nil
	}
	if q.ManagedParent {
		// CapacitySchedulerQueueManager.createQueue prefers the legacy
		// managed parent; the flag is then unused.
		return nil
	}
	q.AutoQueueCreationV2 = true
	var err error
	q.AutoQueueMaxQueues, err = p.r.getInt(QueueKey(q.Path, SuffixAutoQueueCreationV2MaxQueues), DefaultAutoQueueCreationV2MaxQueues, q.Path)
	return err
}

// MaximumAutoCreatedQueueDepth is CapacitySchedulerConfiguration.
// getMaximumAutoCreatedQueueDepth: the queue's maximum-queue-depth, else
// the global one, else 2.
func MaximumAutoCreatedQueueDepth(c *Conf, path string) (int, error) {
	r := &reader{c: c}
	global, err := r.getInt(Prefix+SuffixAutoQueueCreationV2MaxDepth, DefaultMaximumQueueDepth, "")
	if err != nil {
		return 0, err
	}
	return r.getInt(QueueKey(path, SuffixAutoQueueCreationV2MaxDepth), global, path)
}

// ChildrenUseWeights is the check of ParentQueue.addDynamicChildQueue in
// legacy queue mode: whether getCapacityConfigurationTypeForQueues of the
// parent's children gives weights (it does for no children; mixed modes,
// which it refuses, give false).
func ChildrenUseWeights(children []*QueueConf) bool {
	t, err := capacityTypeOf("", children)
	return err == nil && t == typeWeight
}

// AutoQueueTemplate is Hadoop 3.4's AutoCreatedQueueTemplate of one
// parent: the template, leaf-template and parent-template properties
// (without their prefixes), explicit ones taking precedence over the
// wildcard ones (root.a.b's over root.a.*'s).
type AutoQueueTemplate struct {
	Template, LeafOnly, ParentOnly map[string]string
}

// NewAutoQueueTemplate is AutoCreatedQueueTemplate's constructor
// (setTemplateConfigEntries): for parent path p, the properties under
// yarn.scheduler.capacity.<p>., then, one level of wildcard at most and
// never for root's own part, under the path with its last part replaced by
// "*" (root.a.b, then root.a.*; root.a has none). The first value found
// for a property stays (putIfAbsent).
func NewAutoQueueTemplate(c *Conf, path string) AutoQueueTemplate {
	t := AutoQueueTemplate{Template: map[string]string{}, LeafOnly: map[string]string{}, ParentOnly: map[string]string{}}
	parts := strings.Split(path, ".")
	if len(parts) <= 1 && path != RootQueue {
		return t
	}
	maxIndex := len(parts) - 1
	supported := min(maxIndex-1, 1)
	if path == RootQueue {
		supported = 0
	}
	keys := c.Keys() // sorted: a deterministic first value
	for level := 0; level <= supported; level++ {
		prefix := Prefix + strings.Join(parts, ".") + "."
		for _, k := range keys {
			rest, ok := strings.CutPrefix(k, prefix)
			if !ok {
				continue
			}
			v, _ := c.Get(k)
			for _, tp := range []struct {
				prefix string
				m      map[string]string
			}{{TemplatePrefix, t.Template}, {LeafTemplatePrefix, t.LeafOnly}, {ParentTemplatePrefix, t.ParentOnly}} {
				if name, ok := strings.CutPrefix(rest, tp.prefix); ok {
					if _, set := tp.m[name]; !set {
						tp.m[name] = v
					}
					break
				}
			}
		}
		parts[maxIndex-level] = "*"
	}
	return t
}

// entriesForChild is AutoCreatedQueueTemplate.setTemplateEntriesForChild:
// the properties a child at path receives (leaf or parent specific ones
// first, then the common ones they do not set), except those configured
// explicitly for the child.
func (t AutoQueueTemplate) entriesForChild(c *Conf, path string, leaf bool) [][2]string {
	explicit := map[string]bool{}
	prefix := Prefix + path + "."
	for _, k := range c.Keys() {
		if rest, ok := strings.CutPrefix(k, prefix); ok {
			explicit[rest] = true
		}
	}
	specific := t.ParentOnly
	if leaf {
		specific = t.LeafOnly
	}
	var out [][2]string
	for _, name := range sortedKeys(specific) {
		if !explicit[name] {
			out = append(out, [2]string{prefix + name, specific[name]})
		}
	}
	for _, name := range sortedKeys(t.Template) {
		if _, ok := specific[name]; !ok && !explicit[name] {
			out = append(out, [2]string{prefix + name, t.Template[name]})
		}
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// DynamicQueue is a queue Hadoop 3.4's flexible auto-queue creation made:
// its full path, and whether it is a parent (ParentQueue.
// addDynamicParentQueue) or a leaf.
type DynamicQueue struct {
	Path   string
	Parent bool
}

// WithDynamicQueues is the configuration Hadoop 3.4's scheduler holds once
// the dynamic queues (full paths, in the order they were created, a
// parent before its children) exist: each listed among its parent's
// children, with its parent template's entries (setTemplateEntriesForChild:
// leaf-template or parent-template ones, then template ones, the template
// read from the configuration as it stands when the queue is made) and,
// where neither the template nor an explicit property sets them, a weight
// of 1 (1w: a dynamic queue without a capacity gets weight 1) and a
// dynamic leaf's defaults (AbstractLeafQueue.setDynamicQueueProperties:
// user-limit-factor -1, maximum-am-resource-percent 1). A dynamic parent
// gets auto-queue-creation-v2.enabled (it is eligible, as a dynamic queue
// is) and so stays a parent without children. c is not changed.
func WithDynamicQueues(c *Conf, dynamic []DynamicQueue) *Conf {
	if len(dynamic) == 0 {
		return c
	}
	out := c.Clone()
	for _, d := range dynamic {
		path := d.Path
		i := strings.LastIndex(path, ".")
		if i < 0 {
			continue
		}
		parent, name := path[:i], path[i+1:]
		leaf := !d.Parent
		qk := QueueKey(parent, SuffixQueues)
		raw, _ := out.Get(qk)
		if !slices.Contains(splitQueueNames(raw), name) {
			if strings.TrimSpace(raw) == "" {
				out.Set(qk, name)
			} else {
				out.Set(qk, raw+","+name)
			}
		}
		for _, kv := range NewAutoQueueTemplate(out, parent).entriesForChild(out, path, leaf) {
			out.Set(kv[0], kv[1])
		}
		defaults := [][2]string{{SuffixCapacity, "1w"}}
		if !leaf {
			// A dynamic parent is eligible for creation under it
			// (isEligibleForAutoQueueCreation: isDynamicQueue), and stays
			// a parent without children.
			out.Set(QueueKey(path, SuffixAutoQueueCreationV2), "true")
		} else {
			defaults = append(defaults, [2]string{SuffixUserLimitFactor, "-1"}, [2]string{SuffixMaximumAMResourcePercent, "1"})
		}
		for _, d := range defaults {
			if _, ok := out.Get(QueueKey(path, d[0])); !ok {
				out.Set(QueueKey(path, d[0]), d[1])
			}
		}
	}
	return out
}

// ParseWithDynamicQueues parses c with the dynamic queues
// (WithDynamicQueues) on the live cluster, marking them Dynamic, and
// NoAutoRemoval where auto-queue-creation-v2.queue-auto-removal.enable
// (its own or from the template) is false.
func ParseWithDynamicQueues(c *Conf, profile Profile, cluster resource.Resource, dynamic []DynamicQueue) (*Parsed, error) {
	overlay := WithDynamicQueues(c, dynamic)
	ps, err := ParseOnCluster(overlay, profile, cluster)
	if err != nil {
		return nil, err
	}
	r := &reader{c: overlay}
	for _, d := range dynamic {
		path := d.Path
		if q := ps.Queue(path); q != nil {
			q.Dynamic = true
			q.NoAutoRemoval = !r.getBool(QueueKey(path, SuffixAutoQueueRemoval), true)
		}
	}
	return ps, nil
}
