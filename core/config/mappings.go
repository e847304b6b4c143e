package config

import (
	"errors"
	"strings"
)

// KeyQueueMappings is yarn.scheduler.capacity.queue-mappings.
const KeyQueueMappings = Prefix + "queue-mappings"

// KeyQueueMappingsOverride is yarn.scheduler.capacity.queue-mappings-override.enable.
const KeyQueueMappingsOverride = Prefix + "queue-mappings-override.enable"

// QueueMapping is one user or group queue mapping (Hadoop's QueueMapping):
// Type "u" or "g", the Source user or group (or %user), and the Queue it
// maps to, with its Parent when the mapping names one (the part before
// the last dot).
type QueueMapping struct {
	Type, Source, Parent, Queue string
}

// Mappings are the queue mappings in force, and whether they override
// the queue an application names (queue-mappings-override.enable).
type Mappings struct {
	List     []QueueMapping
	Override bool
}

// checkQueueMappings is what Hadoop 3.3 does with queue-mappings at start
// and at every refresh (CapacityScheduler.updatePlacementRules, which
// always includes the user-group rule):
// CapacitySchedulerConfiguration.getQueueMappings parses them, and
// UserGroupMappingPlacementRule.initialize checks that each static mapping
// (no %user, %primary_group or %secondary_group in its queue) names a
// leaf queue, by full path or unambiguous short name, or a leaf under an
// auto-create enabled parent. A failure stops the ResourceManager
// ("Failed to initialize queues") or the refresh. The scheduler places
// applications by them (core's placement).
func (p *parser) checkQueueMappings(root *QueueConf) (Mappings, error) {
	m := Mappings{Override: p.r.getBool(KeyQueueMappingsOverride, false)}
	raw, ok := p.r.c.Get(KeyQueueMappings)
	if !ok {
		return m, nil
	}
	parsed := &Parsed{Root: root}
	seen := map[string]bool{}
	for _, value := range trimmedStrings(raw) { // getTrimmedStringCollection: a set
		if value == "" || seen[value] {
			continue
		}
		seen[value] = true
		parts := tokens(value, ":")
		if len(parts) != 3 || parts[1] == "" || parts[2] == "" || (parts[0] != "u" && parts[0] != "g") {
			return m, errorf(KeyQueueMappings, "", "Failed to initialize queues: Illegal queue mapping %s (%s)", value, KeyQueueMappings)
		}
		parent, queue := "", parts[2]
		if i := strings.LastIndex(parts[2], "."); i >= 0 { // QueueMappingBuilder.parsePathString
			parent, queue = javaTrim(parts[2][:i]), javaTrim(parts[2][i+1:])
		}
		full := queue
		if parent != "" {
			full = parent + "." + queue
		}
		if err := checkMapping(parsed, parent, queue, full); err != "" {
			return m, errorf(KeyQueueMappings, "", "Failed to initialize queues: %s (%s = %q)", err, KeyQueueMappings, raw)
		}
		m.List = append(m.List, QueueMapping{Type: parts[0], Source: parts[1], Parent: parent, Queue: queue})
	}
	return m, nil
}

// checkMapping is UserGroupMappingPlacementRule.initialize for one mapping,
// returning Hadoop's message, or "".
func checkMapping(p *Parsed, parent, queue, full string) string {
	dynamic := func(s string) bool {
		return strings.Contains(s, "%user") || strings.Contains(s, "%primary_group") || strings.Contains(s, "%secondary_group")
	}
	// validateAndGetAutoCreatedQueueMapping
	// (QueuePlacementRuleUtils.validateQueueMappingUnderParentQueue): a
	// parent that exists must have auto-created queues enabled.
	underParent := func() string {
		if parent == "%primary_group" || parent == "%secondary_group" {
			return ""
		}
		q, _ := p.Lookup(parent)
		if q == nil {
			return "mapping contains invalid or non-leaf queue [" + queue + "] and invalid parent queue [" + parent + "]"
		}
		if q.ManagedParent || q.AutoQueueCreationV2 {
			return ""
		}
		return "mapping contains leaf queue [" + queue + "] and invalid parent queue which does not have auto creation of leaf queues enabled [" + parent + "]"
	}
	if dynamic(queue) {
		if parent != "" {
			return underParent()
		}
		return ""
	}
	q, err := p.Lookup(full)
	if q == nil {
		if errors.Is(err, ErrAmbiguousQueue) {
			return "mapping contains ambiguous leaf queue reference " + full
		}
		if parent == "" {
			return "mapping contains invalid or non-leaf queue " + queue
		}
		return underParent()
	}
	if !q.IsLeaf() {
		return "mapping contains invalid or non-leaf queue : " + full
	}
	return ""
}

// trimmedStrings is StringUtils.getTrimmedStrings: split at commas and
// newlines, each piece trimmed.
func trimmedStrings(s string) []string {
	s = javaTrim(s)
	if s == "" {
		return nil
	}
	out := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '\n' })
	for i := range out {
		out[i] = javaTrim(out[i])
	}
	return out
}

// tokens is StringUtils.getTrimmedStringCollection(s, delim): a
// StringTokenizer's tokens, trimmed, empty ones dropped.
func tokens(s, delim string) []string {
	var out []string
	for _, t := range strings.Split(s, delim) {
		if t = javaTrim(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}
