package config

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode"

	"yarnplay/core/resource"
)

// IsAbsoluteResource reports a capacity written as a resource
// ("[memory=1024,vcores=1]"): CapacitySchedulerConfiguration.
// RESOURCE_PATTERN, `^\[[\w\.,\-_=\ /]+\]$`, found in the value as
// Configuration.get returns it (not trimmed).
func IsAbsoluteResource(raw string) bool {
	if len(raw) < 3 || raw[0] != '[' || raw[len(raw)-1] != ']' {
		return false
	}
	for i := 1; i < len(raw)-1; i++ {
		c := raw[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_.,-= /", c) >= 0) {
			return false
		}
	}
	return true
}

// parseAbsoluteResource is CapacitySchedulerConfiguration.
// internalGetLabeledResourceRequirementForQueue on a value that matches
// RESOURCE_PATTERN: the text between the brackets, trimmed, split at
// commas; each piece split at "="; a piece whose name (untrimmed) is
// "memory" or "vcores" sets that type (updateResourceValuesFromConfig),
// other names and pieces without "=" are skipped. A resource without
// memory is none (the zero Resource).
func parseAbsoluteResource(raw string) (resource.Resource, error) {
	var r resource.Resource
	sub := strings.TrimSpace(raw[1 : len(raw)-1]) // String.trim: the pattern allows only spaces
	for _, kv := range javaSplit(sub, ",") {
		parts := javaSplit(kv, "=")
		if len(parts) < 2 {
			continue
		}
		name, value := parts[0], parts[1]
		if name != "memory" && name != "vcores" {
			continue
		}
		units := resourceUnits(value)
		n, err := parseJavaInteger(value[:len(value)-len(units)], 10, 64)
		if err != nil {
			return r, fmt.Errorf("java.lang.NumberFormatException: For input string: %q", value[:len(value)-len(units)])
		}
		if units != "" {
			if n, err = convertUnits(units, n); err != nil {
				return r, err
			}
		}
		if n < 0 {
			return r, errNegativeAbsolute
		}
		if name == "memory" {
			r.MemoryMB = n
		} else {
			r.VCores = int64(int32(n)) // Long.intValue
		}
	}
	if r.MemoryMB == 0 {
		return resource.None, nil
	}
	return r, nil
}

// errNegativeAbsolute marks a negative amount, which Hadoop reads as is and
// yarnplay cannot simulate.
var errNegativeAbsolute = fmt.Errorf("a negative amount")

// javaSplit is String.split(sep) for a one-character separator: trailing
// empty strings are dropped (but "" splits to [""]).
func javaSplit(s, sep string) []string {
	parts := strings.Split(s, sep)
	if s == "" {
		return parts
	}
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// resourceUnits is CapacitySchedulerConfiguration.getUnits: the rest of the
// value from the first letter whose rest is all letters, else "".
func resourceUnits(v string) string {
	for i, c := range v {
		if unicode.IsLetter(c) {
			if rest := v[i:]; strings.IndexFunc(rest, func(r rune) bool { return !unicode.IsLetter(r) }) < 0 {
				return rest
			}
		}
	}
	return ""
}

// unitConverters are UnitsConversionUtil's converters (numerator,
// denominator).
var unitConverters = map[string][2]int64{
	"p": {1, 1e12}, "n": {1, 1e9}, "u": {1, 1e6}, "m": {1, 1e3}, "": {1, 1},
	"k": {1e3, 1}, "M": {1e6, 1}, "G": {1e9, 1}, "T": {1e12, 1}, "P": {1e15, 1},
	"Ki": {1 << 10, 1}, "Mi": {1 << 20, 1}, "Gi": {1 << 30, 1}, "Ti": {1 << 40, 1}, "Pi": {1 << 50, 1},
}

// knownUnits is UnitsConversionUtil.KNOWN_UNITS as its HashSet prints.
const knownUnits = "[, Gi, G, k, m, M, n, p, P, T, u, Ti, Pi, Mi, Ki]"

// convertUnits is UnitsConversionUtil.convert(from, "Mi", v).
func convertUnits(from string, v int64) (int64, error) {
	if from == "Mi" {
		return v, nil
	}
	fc, ok := unitConverters[from]
	if !ok {
		return 0, fmt.Errorf("Unknown unit '%s'. Known units are %s", from, knownUnits)
	}
	tc := unitConverters["Mi"]
	num, den := fc[0]*tc[1], fc[1]*tc[0]
	limit := math.MaxInt64 / num
	overflow := fmt.Errorf("Converting %d from '%s' to 'Mi' will result in an overflow of Long", v, from)
	if num < den {
		if limit < v {
			return 0, overflow
		}
		return v * num / den, nil
	}
	if limit > v {
		return num * v / den, nil
	}
	tmp := num / den
	if math.MaxInt64/tmp < v {
		return 0, overflow
	}
	return v * tmp, nil
}

// resourceRequirement is AbstractCSQueue.updateConfigurableResourceRequirement
// for the default partition: the configured minimum and maximum resources,
// the queue's capacity type and their checks. It runs after capacities (the
// percentages), as setupQueueConfigs calls it.
func (p *parser) resourceRequirement(q *QueueConf) error {
	if q.Parent == nil {
		return nil // root's bracketed capacities are warned about and ignored
	}
	minRes, err := p.absoluteValue(q, SuffixCapacity)
	if err != nil {
		return err
	}
	maxRes, err := p.absoluteValue(q, SuffixMaximumCapacity)
	if err != nil {
		return err
	}
	// capacityConfigType: ABSOLUTE_RESOURCE when a minimum is configured and
	// the absolute capacity is 0 (a bracketed capacity reads as 0%).
	q.Absolute = !minRes.IsZero() && q.AbsCapacity == 0
	if !minRes.IsZero() && !q.Absolute {
		// validateAbsoluteVsPercentageCapacityConfig (unreachable for the
		// default partition, kept for the message).
		return errorf(QueueKey(q.Path, SuffixCapacity), q.Path,
			"Queue '%s' should use either percentage based capacity configuration or absolute resource.", q.Path)
	}
	rc, cl, none := p.s.Calculator, p.cluster, resource.None
	if !maxRes.IsZero() && rc.GreaterThan(cl, minRes, maxRes) {
		return errorf(QueueKey(q.Path, SuffixCapacity), q.Path,
			"Min resource configuration %s is greater than its max value:%s in queue:%s", minRes, maxRes, q.Path)
	}
	if parentMax := q.Parent.MaxResource; rc.GreaterThan(cl, parentMax, none) {
		if rc.GreaterThan(cl, maxRes, parentMax) {
			return errorf(QueueKey(q.Path, SuffixMaximumCapacity), q.Path,
				"Max resource configuration %s is greater than parents max value:%s in queue:%s", maxRes, parentMax, q.Path)
		}
		if maxRes.IsZero() && !minRes.IsZero() {
			maxRes = parentMax
		}
	}
	if !maxRes.IsZero() && !q.Absolute && !p.profile.AtLeast34() {
		p.r.warnf("%s: queue %s's capacity is a percentage, so Hadoop 3.3 ignores its absolute maximum %s "+
			"(its maximum stays the percentage's, 100%%)", QueueKey(q.Path, SuffixMaximumCapacity), q.Path, maxRes)
	}
	q.MinResource, q.MaxResource = minRes, maxRes
	return nil
}

// absoluteValue reads capacity or maximum-capacity of q as a resource
// (CapacitySchedulerConfiguration.getMinimumResourceRequirement /
// getMaximumResourceRequirement), none when it is not bracketed.
func (p *parser) absoluteValue(q *QueueConf, suffix string) (resource.Resource, error) {
	key := QueueKey(q.Path, suffix)
	raw, ok := p.r.c.Get(key)
	if !ok || !IsAbsoluteResource(raw) {
		return resource.None, nil
	}
	res, err := parseAbsoluteResource(raw)
	switch {
	case err == errNegativeAbsolute:
		return res, unsupported(key, q.Path, "negative absolute resources", notLoaded,
			"%s = %q: a negative amount in an absolute resource is not simulated by yarnplay; give queue %s "+
				"a non-negative amount", key, raw, q.Path)
	case err != nil:
		return res, errorf(key, q.Path, "%v (%s = %q, queue %s)", err, key, raw, q.Path)
	}
	if res.IsZero() {
		p.r.warnf("%s = %q sets no memory: Hadoop 3.3 reads it as no resource, so queue %s's %s is 0%%",
			key, raw, q.Path, suffix)
	}
	return res, nil
}

// checkChildModes is the part of ParentQueue.setChildQueues (Hadoop 3.3)
// about capacity types, once q's children are constructed: a non-root
// parent with a percentage above 0 refuses an absolute child; the sum of
// the children's percentages must be 100% unless a child configures a
// resource (or be 0 when the parent's capacity is 0); a non-root parent
// and its children share one capacity type; and a parent's configured
// minimum is at least the sum of its children's.
func (p *parser) checkChildModes(q *QueueConf) error {
	key := QueueKey(q.Path, SuffixQueues)
	root := q.Parent == nil
	var sum float32
	var minSum resource.Resource
	for _, c := range q.Children {
		sum = float32(sum + c.Capacity)
		minSum = minSum.Add(c.MinResource)
		if !root && q.Capacity != 0 && !c.MinResource.IsZero() {
			return errorf(key, q.Path, "Parent queue '%s' and child queue '%s' should use either percentage based "+
				"capacity configuration or absolute resource together.", q.Path, c.Path)
		}
	}
	delta := float32(math.Abs(float64(float32(1 - sum))))
	if (minSum.IsZero() && q.Capacity > 0 && delta > float32(0.0005)) || (q.Capacity == 0 && sum > 0) {
		return errorf(key, q.Path, "Illegal capacity of %s for children of queue %s", JavaFloatString(sum), q.Name)
	}
	// The default partition's pass of the label loop.
	for _, c := range q.Children {
		if !root && q.Absolute != c.Absolute {
			return errorf(key, q.Path, "Parent queue '%s' and child queue '%s' should use either percentage based "+
				"capacityconfiguration or absolute resource together for label:", q.Path, c.Path)
		}
	}
	if !q.MinResource.IsZero() && p.s.Calculator.LessThan(p.cluster, q.MinResource, minSum) {
		return errorf(QueueKey(q.Path, SuffixCapacity), q.Path, "Parent Queues capacity: %s is less than to its children:%s for queue:%s",
			q.MinResource, minSum, q.Name)
	}
	return nil
}

// labelCapacities is the labelled part of CSQueueUtils.
// loadCapacitiesByLabelsFromConf: for each label the queue configures
// (getConfiguredNodeLabels), capacity and maximum-capacity are read by
// internalGetLabeledQueueCapacity, which refuses a value outside [0, 100]
// (a bracketed value is not checked, and reads as the default). The
// values go to q.Labels.ByLabel with their absolute values
// (updateAbsoluteCapacitiesByNodeLabels) and maximum AM percent, then
// capacitiesSanityCheck refuses an absolute capacity above the absolute
// maximum.
func (p *parser) labelCapacities(q *QueueConf) error {
	prefix := QueueKey(q.Path, SuffixAccessibleNodeLabels) + "."
	labels := p.labels[q.Path] // the labels of the keys under prefix
	sorted := make([]string, 0, len(labels))
	for l := range labels {
		sorted = append(sorted, l)
	}
	sort.Strings(sorted)
	if len(sorted) > 0 {
		q.Labels.ByLabel = map[string]LabelCapacity{}
	}
	for _, label := range sorted {
		var vals [2]float32
		for i, s := range []struct {
			suffix string
			def    float32
		}{{SuffixCapacity, 0}, {SuffixMaximumCapacity, 100}} {
			key := prefix + label + "." + s.suffix
			raw, ok := p.r.c.Get(key)
			if ok && IsAbsoluteResource(raw) {
				vals[i] = s.def
				p.r.notSimulated(unsupported(key, q.Path, "absolute resources for a node label", notLoaded,
					"Queue %s gives node label %s an absolute resource (%s=%s): yarnplay simulates label capacities as percentages only",
					q.Path, label, key, raw))
				continue
			}
			v, err := p.r.getFloat(key, s.def, q.Path)
			if err != nil {
				return err
			}
			if v < 0 || v > 100 {
				return errorf(key, q.Path, "Illegal capacity of %s for node-label=%s in queue=%s, "+
					"valid capacity should in range of [0, 100].", JavaFloatString(v), label, q.Path)
			}
			vals[i] = v
		}
		am, err := p.r.getFloat(prefix+label+"."+SuffixMaximumAMResourcePercent, q.MaxAMPercent, q.Path)
		if err != nil {
			return err
		}
		q.Labels.ByLabel[label] = p.absoluteLabel(q, label, vals[0], vals[1], am)
		if q.Parent != nil && vals[0] > 0 && !hasLabelCapacity(q.Parent, label) {
			p.r.warnf("%s: the parent %s configures no capacity for node label %s, so %s's guarantee in %s is 0 (set %s)",
				prefix+label+"."+SuffixCapacity, q.Parent.Path, label, q.Path, label, QueueKey(q.Parent.Path, SuffixAccessibleNodeLabels+"."+label+"."+SuffixCapacity))
		}
		if lc := q.Labels.ByLabel[label]; lc.AbsCapacity > lc.AbsMaxCapacity {
			return errorf(prefix+label+"."+SuffixMaximumCapacity, q.Path,
				"Illegal queue capacity setting (abs-capacity=%s) > (abs-maximum-capacity=%s) for queue=[%s],label=[%s]",
				JavaFloatString(lc.AbsCapacity), JavaFloatString(lc.AbsMaxCapacity), q.Path, label)
		}
	}
	return nil
}

// absoluteLabel is one label's QueueCapacities: capacity and maximum as
// fractions (value / 100 in float), the absolute values of
// updateAbsoluteCapacitiesByNodeLabels (set only when the fraction is
// above 0; the parent's 0 when it does not configure the label).
func (p *parser) absoluteLabel(q *QueueConf, label string, capacity, maxCapacity, am float32) LabelCapacity {
	lc := LabelCapacity{Capacity: float32(capacity / 100), MaxCapacity: float32(maxCapacity / 100), MaxAMPercent: am}
	parentAbs, parentAbsMax := float32(1), float32(1)
	if q.Parent != nil {
		pl := q.Parent.Label(label)
		parentAbs, parentAbsMax = pl.AbsCapacity, pl.AbsMaxCapacity
	}
	if lc.Capacity > 0 {
		lc.AbsCapacity = float32(lc.Capacity * parentAbs)
	}
	if lc.MaxCapacity > 0 {
		lc.AbsMaxCapacity = float32(lc.MaxCapacity * parentAbsMax)
	}
	return lc
}

func hasLabelCapacity(q *QueueConf, label string) bool {
	_, ok := q.Labels.ByLabel[label]
	return ok
}
