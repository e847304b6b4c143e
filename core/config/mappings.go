package config

import (
	"errors"
	"strings"
)

// KeyQueueMappings is yarn.scheduler.capacity.queue-mappings.
const KeyQueueMappings = Prefix + "queue-mappings"

// checkQueueMappings is what Hadoop 3.3 does with queue-mappings at start
// and at every refresh (CapacityScheduler.updatePlacementRules, which
// always includes the user-group rule):
// CapacitySchedulerConfiguration.getQueueMappings parses them, and
// UserGroupMappingPlacementRule.initialize checks that each static mapping
// (no %user, %primary_group or %secondary_group in its queue) names a
// leaf queue, by full path or unambiguous short name. A failure stops the
// ResourceManager ("Failed to initialize queues") or the refresh. yarnplay
// does not place applications by the mappings (a submission goes to the
// queue it names), and says so.
func (p *parser) checkQueueMappings(root *QueueConf) error {
	raw, ok := p.r.c.Get(KeyQueueMappings)
	if !ok {
		return nil
	}
	parsed := &Parsed{Root: root}
	seen := map[string]bool{}
	n := 0
	for _, value := range trimmedStrings(raw) { // getTrimmedStringCollection: a set
		if value == "" || seen[value] {
			continue
		}
		seen[value] = true
		n++
		parts := tokens(value, ":")
		if len(parts) != 3 || parts[1] == "" || parts[2] == "" || (parts[0] != "u" && parts[0] != "g") {
			return errorf(KeyQueueMappings, "", "Failed to initialize queues: Illegal queue mapping %s (%s)", value, KeyQueueMappings)
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
			return errorf(KeyQueueMappings, "", "Failed to initialize queues: %s (%s = %q)", err, KeyQueueMappings, raw)
		}
	}
	if n > 0 {
		p.r.warnf("%s: queue mappings are checked as Hadoop does, but yarnplay does not place applications by them: "+
			"a submission goes to the queue it names", KeyQueueMappings)
	}
	return nil
}

// checkMapping is UserGroupMappingPlacementRule.initialize for one mapping,
// returning Hadoop's message, or "".
func checkMapping(p *Parsed, parent, queue, full string) string {
	dynamic := func(s string) bool {
		return strings.Contains(s, "%user") || strings.Contains(s, "%primary_group") || strings.Contains(s, "%secondary_group")
	}
	// validateAndGetAutoCreatedQueueMapping: a parent that exists must have
	// auto-created queues enabled, which yarnplay refuses beforehand.
	underParent := func() string {
		if parent == "%primary_group" || parent == "%secondary_group" {
			return ""
		}
		q, _ := p.Lookup(parent)
		if q == nil {
			return "mapping contains invalid or non-leaf queue [" + queue + "] and invalid parent queue [" + parent + "]"
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
