package app

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"yarnplay/core"
	"yarnplay/core/config"
)

// withPercents follows each fraction in a Hadoop message by what it means
// as a percentage: "Illegal capacity of 1.0 (100%) for …",
// "(abs-capacity=0.6 (60%)) > (abs-maximum-capacity=0.5 (50%))". The
// message is otherwise Hadoop's own. A fraction is what follows
// "capacity of " or "capacity=": as the regular expression
// (capacity of |capacity=)(-?[0-9]+(?:\.[0-9]+)?(?:E-?[0-9]+)?) finds it
// (hadoopmsg_test.go holds it to it), read by hand because package regexp
// would add some 240 KB of code to app.wasm.
func withPercents(msg string) string {
	var b strings.Builder
	done := 0
	for i := 0; i < len(msg); i++ {
		num, end := fractionAt(msg, i)
		if end < 0 {
			continue
		}
		b.WriteString(msg[done:end])
		if v, err := strconv.ParseFloat(msg[num:end], 64); err == nil {
			b.WriteString(" (" + strconv.FormatFloat(math.Round(v*1e6)/1e4, 'f', -1, 64) + "%)")
		}
		done, i = end, end-1
	}
	if done == 0 {
		return msg
	}
	return b.String() + msg[done:]
}

// fractionAt finds a fraction Hadoop's message prints right at msg[i:]:
// "capacity of " or "capacity=", then a number (an optional minus, digits,
// optionally a point and digits, optionally E, an optional minus and
// digits). It returns where the number starts and where it ends, or -1
// and -1.
func fractionAt(msg string, i int) (num, end int) {
	for _, lead := range []string{"capacity of ", "capacity="} {
		if !strings.HasPrefix(msg[i:], lead) {
			continue
		}
		num = i + len(lead)
		p := num
		if p < len(msg) && msg[p] == '-' {
			p++
		}
		if q := digitsEnd(msg, p); q > p {
			p = q
		} else {
			return -1, -1
		}
		if p < len(msg) && msg[p] == '.' {
			if q := digitsEnd(msg, p+1); q > p+1 {
				p = q
			}
		}
		if p < len(msg) && msg[p] == 'E' {
			e := p + 1
			if e < len(msg) && msg[e] == '-' {
				e++
			}
			if q := digitsEnd(msg, e); q > e {
				p = q
			}
		}
		return num, p
	}
	return -1, -1
}

// digitsEnd is where the ASCII digits starting at s[i] end.
func digitsEnd(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
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
