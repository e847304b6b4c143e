package app

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"yarnplay/core"
	"yarnplay/core/config"
)

// fractionInMessage finds the capacities Hadoop's messages print as
// fractions: "Illegal capacity of 1.0 for children of queue root",
// "(abs-capacity=0.6) > (abs-maximum-capacity=0.5)".
var fractionInMessage = regexp.MustCompile(`(capacity of |capacity=)(-?[0-9]+(?:\.[0-9]+)?(?:E-?[0-9]+)?)`)

// withPercents follows each fraction in a Hadoop message by what it means
// as a percentage: "Illegal capacity of 1.0 (100%) for …". The message is
// otherwise Hadoop's own.
func withPercents(msg string) string {
	return fractionInMessage.ReplaceAllStringFunc(msg, func(m string) string {
		sub := fractionInMessage.FindStringSubmatch(m)
		v, err := strconv.ParseFloat(sub[2], 64)
		if err != nil {
			return m
		}
		return m + " (" + strconv.FormatFloat(math.Round(v*1e6)/1e4, 'f', -1, 64) + "%)"
	})
}

// queueSuffixes are the per-queue property suffixes whose keys name a
// queue path (Prefix + path + "." + suffix).
var queueSuffixes = []string{
	config.SuffixQueues, config.SuffixCapacity, config.SuffixMaximumCapacity, config.SuffixState,
	config.SuffixACLSubmitApplications, config.SuffixACLAdministerQueue, config.SuffixUserLimitFactor,
	config.SuffixMinimumUserLimitPercent, config.SuffixMaximumApplications, config.SuffixMaximumAMResourcePercent,
	config.SuffixMaximumAllocation, config.SuffixMaximumAllocationMB, config.SuffixMaximumAllocationVcores,
	config.SuffixOrderingPolicy, config.SuffixPriority, config.SuffixDisablePreemption,
	config.SuffixDefaultApplicationPriority, config.SuffixMaxParallelApps,
}

// unknownQueueKeys warns of the per-queue keys of conf that name no queue
// of the tree: Hadoop reads a queue's keys by its full path from root and
// ignores the others without a word, as the book's unrooted
// "yarn.scheduler.capacity.finance-wizards.queues" is. Sorted by key.
func unknownQueueKeys(conf map[string]string, queues []core.QueueView) []string {
	known := make(map[string]bool, len(queues))
	for i := range queues {
		known[queues[i].Path] = true
	}
	var out []string
	for k := range conf {
		rest, ok := strings.CutPrefix(k, config.Prefix)
		if !ok {
			continue
		}
		for _, suf := range queueSuffixes {
			path, ok := strings.CutSuffix(rest, "."+suf)
			if !ok || path == "" || known[path] || isGlobalKey(k) {
				continue
			}
			w := k + " names no queue (" + path + ")"
			if path != config.RootQueue && !strings.HasPrefix(path, config.RootQueue+".") {
				w += ": Hadoop reads queue properties by the full path from root, e.g. " + config.QueueKey(config.RootQueue+"."+path, suf) + ", and ignores this one"
			} else {
				w += ": no configured queue has that path, so Hadoop ignores it"
			}
			out = append(out, w)
			break
		}
	}
	slices.Sort(out)
	return out
}

// isGlobalKey reports whether k is a scheduler-wide property that looks
// like a queue's (yarn.scheduler.capacity.maximum-applications).
func isGlobalKey(k string) bool {
	switch k {
	case config.KeyMaximumApplications, config.KeyMaximumAMResourcePercent, config.KeyMaxParallelApps:
		return true
	}
	return false
}
