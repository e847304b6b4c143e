package config

import (
	"sort"
	"strings"
)

// queueSuffixes are the per-queue properties Hadoop 3.3 reads (the last
// part of yarn.scheduler.capacity.<queue path>.<suffix>), for the
// warnings of checkKeys.
var queueSuffixes = []string{
	SuffixQueues, SuffixCapacity, SuffixMaximumCapacity, SuffixState, SuffixACLSubmitApplications,
	SuffixACLAdministerQueue, SuffixUserLimitFactor, SuffixMinimumUserLimitPercent, SuffixMaximumApplications,
	SuffixMaximumAMResourcePercent, SuffixMaximumAllocation, SuffixMaximumAllocationMB, SuffixMaximumAllocationVcores,
	SuffixOrderingPolicy, SuffixPriority, SuffixDisablePreemption, SuffixDefaultApplicationPriority,
	SuffixReservable, SuffixAutoCreateChildQueue, SuffixMaxParallelApps, SuffixMaximumApplicationLifetime,
	SuffixDefaultApplicationLifetime, SuffixAccessibleNodeLabels,
	"default-node-label-expression", "intra-queue-preemption.disable_preemption", "acl_administer_reservations",
	"acl_list_reservations", "acl_submit_reservations", "average-capacity", "instantaneous-max-capacity",
	"reservation-agent", "reservation-move-on-expiry", "reservation-policy", "reservation-planner",
	"reservation-window", "reservation-enforcement-window", "show-reservations-as-queues",
	"auto-create-child-queue.fallback-reservation-window", "multi-node-placement-enabled",
	"ordering-policy.fair.enable-size-based-weight", SuffixAllowZeroCapacitySum,
}

// queueSuffixPrefixes start per-queue properties with a name of their own
// in the middle (a user, a label, a template setting).
var queueSuffixPrefixes = []string{
	SuffixUserSettings + ".", SuffixAccessibleNodeLabels + ".", SuffixOrderingPolicy + ".",
	"leaf-queue-template.", "auto-create-child-queue.", "auto-queue-creation-v2.",
}

// globalSuffixes are the global Capacity Scheduler properties (after
// yarn.scheduler.capacity.), for the typo warnings.
var globalSuffixes = []string{
	"maximum-applications", "maximum-am-resource-percent", "global-queue-max-application", "resource-calculator",
	"node-locality-delay", "rack-locality-additional-delay", "rack-locality-full-reset",
	"per-node-heartbeat.multiple-assignments-enabled", "per-node-heartbeat.maximum-container-assignments",
	"per-node-heartbeat.maximum-offswitch-assignments", "reservations-continue-look-all-nodes", "max-parallel-apps",
	"user.max-parallel-apps", "user-metrics.enable", "queue-mappings", "queue-mappings-override.enable",
	"schedule-asynchronously.enable", "schedule-asynchronously.maximum-threads",
	"schedule-asynchronously.scheduling-interval-ms", "lazy-preemption-enabled", "application.fail-fast",
	"workflow-priority-mappings", "workflow-priority-mappings-override.enable", "multi-node-placement-enabled",
	"multi-node-sorting.policy", "multi-node-sorting.policy.names", "node-locality-delay", "configuration.provider",
	"maximum-application-lifetime", "default-application-lifetime", "app-fail-fast",
	"legacy-queue-mode.enabled", "auto-queue-creation-v2.queue-expiration-time", SuffixAutoQueueCreationV2MaxDepth,
}

// checkKeys warns about Capacity Scheduler properties Hadoop silently
// ignores because they name no configured queue (a queue property whose
// path is not a queue of the tree, as the chapter's unrooted
// yarn.scheduler.capacity.finance-wizards.queues), and about probable
// typos of known properties (within an edit distance of 2).
func (p *parser) checkKeys(root *QueueConf) {
	paths := map[string]*QueueConf{}
	byName := map[string][]string{}
	root.Walk(func(q *QueueConf) {
		paths[q.Path] = q
		byName[q.Name] = append(byName[q.Name], q.Path)
	})
	for _, k := range p.r.c.Keys() {
		rest, ok := strings.CutPrefix(k, Prefix)
		if !ok || rest == "" || strings.HasPrefix(rest, "user.") || contains(globalSuffixes, rest) {
			continue
		}
		// The longest configured queue path the key starts with.
		path, suffix := "", ""
		for i := len(rest); i > 0; i = strings.LastIndex(rest[:i], ".") {
			if _, ok := paths[rest[:i]]; ok && i < len(rest) {
				path, suffix = rest[:i], rest[i+1:]
				break
			}
		}
		if path != "" {
			if sub, _ := splitQueueKey(suffix); sub != "" && !knownQueueSuffix(suffix) {
				p.r.warnf("%s: no configured queue is %s, so Hadoop ignores this property; no queue lists it among its children",
					k, path+"."+sub)
				continue
			}
			if !knownQueueSuffix(suffix) {
				if near := nearest(suffix, queueSuffixes); near != "" {
					p.r.warnf("%s: Hadoop reads no property %q of queue %s and ignores it; did you mean %s?",
						k, suffix, path, QueueKey(path, near))
				}
			}
			continue
		}
		if near := nearest(rest, globalSuffixes); near != "" {
			p.r.warnf("%s: Hadoop reads no such property and ignores it; did you mean %s?", k, Prefix+near)
			continue
		}
		qpath, suffix := splitQueueKey(rest)
		if qpath == "" {
			continue
		}
		hint := "queue properties name the queue by its full path from root"
		first, _, _ := strings.Cut(qpath, ".")
		switch full := byName[first]; {
		case len(full) == 1 && qpath == first:
			hint = "did you mean " + QueueKey(full[0], suffix) + "?"
		case strings.HasPrefix(qpath, RootQueue+"."):
			hint = "no queue lists it among its children"
		}
		p.r.warnf("%s: no configured queue is %s, so Hadoop ignores this property; %s", k, qpath, hint)
	}
}

// splitQueueKey splits a key's part after the prefix into a queue path and
// a known per-queue suffix, or returns "" when it ends with none.
func splitQueueKey(rest string) (string, string) {
	for i := strings.Index(rest, "."); i >= 0; {
		if suffix := rest[i+1:]; knownQueueSuffix(suffix) {
			return rest[:i], suffix
		}
		j := strings.Index(rest[i+1:], ".")
		if j < 0 {
			break
		}
		i += j + 1
	}
	return "", ""
}

func knownQueueSuffix(s string) bool {
	if contains(queueSuffixes, s) {
		return true
	}
	for _, p := range queueSuffixPrefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// nearest returns the known name within an edit distance of 2 of s (and
// less than a third of its length), the closest and then the first in
// alphabetical order, or "".
func nearest(s string, known []string) string {
	best, bestD := "", 3
	names := append([]string(nil), known...)
	sort.Strings(names)
	for _, k := range names {
		if k == s {
			return ""
		}
		if d := EditDistance(s, k); d < bestD && d*3 < len(k) {
			best, bestD = k, d
		}
	}
	return best
}

// EditDistance is the Levenshtein distance of two strings, by bytes, for
// "did you mean" suggestions; strings over 200 bytes are not compared (a
// distance larger than any suggestion takes).
func EditDistance(a, b string) int {
	if len(a) > 200 || len(b) > 200 {
		return 1 << 20
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
