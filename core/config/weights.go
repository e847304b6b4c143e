package config

import (
	"errors"
	"math"
	"strings"

	"yarnplay/core/resource"
)

// Hadoop 3.4's weights (YARN-10504): a capacity written "2w" is a weight,
// and a parent whose children use weights gives each the share
// weight / sum of the siblings' weights. Hadoop 3.3 has no weights: its
// Float.parseFloat refuses "2w".

// weightSuffix is CapacitySchedulerConfiguration.WEIGHT_SUFFIX.
const weightSuffix = "w"

// KeyLegacyQueueMode is Hadoop 3.4's legacy-queue-mode.enabled (default
// true): the one-mode-among-siblings rules. With false, siblings may mix
// percentages, absolute resources and weights (Settings.MixedQueueMode).
const KeyLegacyQueueMode = Prefix + "legacy-queue-mode.enabled"

// SuffixAllowZeroCapacitySum is Hadoop 3.4's allow-zero-capacity-sum of
// a parent (default false): its children's percentages may sum to 0.
const SuffixAllowZeroCapacitySum = "allow-zero-capacity-sum"

// IsWeight reports whether a capacity value is a weight: it ends with "w"
// (CapacitySchedulerConfiguration.configuredWeightAsCapacity, matched
// against the value as written).
func IsWeight(raw string) bool { return strings.HasSuffix(raw, weightSuffix) }

// queueMode reads legacy-queue-mode.enabled under the hadoop-3.4 profile
// (CapacitySchedulerConfiguration.isLegacyQueueMode: getBoolean, so an
// unreadable value is the default, true) into Settings.MixedQueueMode.
// Hadoop 3.3 has no such property.
func (p *parser) queueMode() {
	if p.profile.AtLeast34() {
		p.s.MixedQueueMode = !p.r.getBool(KeyLegacyQueueMode, true)
	}
}

// weight is getNonLabeledQueueWeight under the hadoop-3.4 profile: the
// number before the first "w" of a capacity ending in "w"
// (extractFloatValueFromWeightConfig, Float.parseFloat), -1 when the
// capacity is not a weight, refused outside [0, 10000] unless it is -1
// (throwExceptionForUnexpectedWeight). It sets q.Weighted and q.Weight.
func (p *parser) weight(q *QueueConf) error {
	capKey := QueueKey(q.Path, SuffixCapacity)
	raw, ok := p.r.c.Get(capKey)
	if !ok || !IsWeight(raw) {
		return nil
	}
	number := raw[:strings.Index(raw, weightSuffix)]
	w, err := parseJavaFloat(number, 32)
	switch {
	case errors.Is(err, errNotFinite):
		// Float.parseFloat reads NaN and Infinity; the range check
		// refuses the infinities and lets NaN through.
		t := javaTrim(number)
		if strings.HasSuffix(t, "Infinity") {
			w = math.Inf(1)
			if strings.HasPrefix(t, "-") {
				w = math.Inf(-1)
			}
		} else {
			return unsupported(capKey, q.Path, "NaN and infinite numbers", notLoaded,
				"Invalid weight %q for %s (queue %s): NaN is not accepted", raw, capKey, q.Path)
		}
	case err != nil:
		return errorf(capKey, q.Path, "Invalid float value %q for %s (queue %s): java.lang.NumberFormatException: For input string: %q",
			raw, capKey, q.Path, javaTrim(number))
	}
	f := float32(w)
	if (f < -1e-6 && math.Abs(float64(f+1)) > 1e-6) || f > 10000 {
		return errorf(capKey, q.Path, "Illegal weight=%s for queue=%slabel=. Acceptable values: [0, 10000], -1 is same as not set",
			JavaFloatString(f), q.Path)
	}
	q.Weight = f
	// By default weight is -1, so >= 0 is "set" (ParentQueue).
	q.Weighted = f >= 0
	return nil
}

// weightNumberNote says, under the hadoop-3.3 and hadoop-2 profiles, that a
// weight is a Hadoop 3.4 form.
func weightNumberNote(p Profile, raw, path string) string {
	if p.AtLeast34() || !IsWeight(raw) {
		return ""
	}
	return " (weights such as 2w came with Hadoop 3.4: use the hadoop-3.4 profile, or give queue " +
		path + " a percentage)"
}

// capacityType is ParentQueue.QueueCapacityType.
type capacityType int

const (
	typeWeight capacityType = iota
	typeAbsolute
	typePercent
)

// capacityTypeOf is Hadoop 3.4's ParentQueue.
// getCapacityConfigurationTypeForQueues for the default partition: it
// refuses queues that mix percentages (a capacity > 0), weights and
// absolute resources, in Hadoop's order-dependent way (an absolute queue
// forgets the percentages seen before it, a 0% queue is no percentage),
// and returns the mode: weights when any queue uses one (or there are no
// queues), else absolute when any does, else percentages. The check is
// skipped when the first queue is root (parent names the parent checked).
func capacityTypeOf(parent string, queues []*QueueConf) (capacityType, error) {
	var percent, weight, absolute bool
	var diag strings.Builder
	for _, q := range queues {
		if q.Capacity > 0 {
			percent = true
		}
		if q.Weighted {
			weight = true
			diag.WriteString("{Queue=" + q.Path + ", label= uses weight mode}. ")
		}
		if !q.MinResource.IsZero() {
			absolute = true
			percent = false
			diag.WriteString("{Queue=" + q.Path + ", label= uses absolute mode}. ")
		}
		if percent {
			diag.WriteString("{Queue=" + q.Path + ", label= uses percentage mode}. ")
		}
	}
	n := 0
	for _, b := range []bool{percent, weight, absolute} {
		if b {
			n++
		}
	}
	if len(queues) > 0 && queues[0].Path != RootQueue && n > 1 {
		return 0, errorf(QueueKey(parent, SuffixQueues), parent, "Parent queue '%s' have children queue used mixed of "+
			" weight mode, percentage and absolute mode, it is not allowed, please double check, details:%s", parent, diag.String())
	}
	switch {
	case weight || len(queues) == 0:
		return typeWeight, nil
	case absolute:
		return typeAbsolute, nil
	}
	return typePercent, nil
}

// checkChildModes34 is Hadoop 3.4's ParentQueue.setChildQueues in legacy
// queue mode, for the default partition: one mode among siblings, an
// absolute parent with absolute children only (root exempt) whose
// minimum covers theirs, and percentages summing to 1 (or to 0 under a
// weighted parent, a 0% parent or allow-zero-capacity-sum).
func (p *parser) checkChildModes34(q *QueueConf) error {
	key := QueueKey(q.Path, SuffixQueues)
	children, err := capacityTypeOf(q.Path, q.Children)
	if err != nil {
		return err
	}
	parent, err := capacityTypeOf(q.Path, []*QueueConf{q})
	if err != nil {
		return err
	}
	if children == typeAbsolute || parent == typeAbsolute {
		if children != parent && q.Parent != nil {
			return errorf(key, q.Path, "Parent=%s: When absolute minResource is used, we must make sure both "+
				"parent and child all use absolute minResource", q.Path)
		}
		var minSum resource.Resource
		for _, c := range q.Children {
			minSum = minSum.Add(c.MinResource)
		}
		if !q.MinResource.IsZero() && p.s.Calculator.LessThan(p.cluster, q.MinResource, minSum) {
			return errorf(QueueKey(q.Path, SuffixCapacity), q.Path, "Parent Queues capacity: %s is less than to its children:%s for queue:%s",
				q.MinResource, minSum, q.Name)
		}
	}
	if children != typePercent {
		return nil
	}
	allowZero := p.r.getBool(QueueKey(q.Path, SuffixAllowZeroCapacitySum), false)
	const precision = float32(0.0005)
	var sum float32
	for _, c := range q.Children {
		sum = float32(sum + c.Capacity)
	}
	abs32 := func(f float32) float32 { return float32(math.Abs(float64(f))) }
	prefix := "Illegal capacity sum of " + JavaFloatString(sum) + " for children of queue " + q.Name + " for label="
	switch {
	case abs32(float32(1-sum)) > precision && abs32(sum) > precision:
		return errorf(key, q.Path, "%s. It should be either 0 or 1.0", prefix)
	case abs32(float32(1-sum)) > precision:
		if parent == typePercent && abs32(q.Capacity) > precision && !allowZero {
			return errorf(key, q.Path, "%s. It is set to 0, but parent percent != 0, and doesn't allow children capacity to set to 0", prefix)
		}
	case parent == typePercent && abs32(q.Capacity) <= 0 && !allowZero:
		return errorf(key, q.Path, "%s. queue=%s has zero capacity, but childqueues have positive capacities", prefix, q.Name)
	}
	return nil
}

// normalizeWeights gives weighted queues their capacities, run over the
// whole tree once it is parsed, root first, as Hadoop 3.4's queue
// capacity handler does after each parent's calculation in legacy mode:
// a weighted child's normalized weight is its weight over the sum of its
// weighted siblings' weights, in double (WeightQueueCapacityCalculator.
// updateCapacitiesAfterCalculation, the mean over memory and vcores,
// which have the same weight; all weights 0 leave it 0); then each
// queue's absolute capacities are updated as AbstractCSQueue.
// updateAbsoluteCapacities does (the capacity is the larger of the
// percentage and the normalized weight), and a leaf's application limits
// are derived again from them (AbstractLeafQueue.updateMaximumApplications).
// It changes nothing in a tree without weights.
func (p *parser) normalizeWeights(root *QueueConf) {
	if !p.profile.AtLeast34() {
		return
	}
	any := false
	root.Walk(func(q *QueueConf) { any = any || q.Weighted })
	if !any {
		return
	}
	var walk func(q *QueueConf)
	walk = func(q *QueueConf) {
		if q.Parent != nil {
			parentAbs, parentAbsMax := q.Parent.AbsCapacity, q.Parent.AbsMaxCapacity
			if c := max(q.Capacity, q.NormalizedWeight); c > 0 {
				q.AbsCapacity = float32(c * parentAbs)
			}
			if q.MaxCapacity > 0 {
				q.AbsMaxCapacity = float32(q.MaxCapacity * parentAbsMax)
			}
			if q.IsLeaf() {
				p.maxApplications34(q)
			}
		}
		var sum float64
		for _, c := range q.Children {
			if c.Weighted {
				sum += float64(c.Weight)
			}
		}
		if sum != 0 {
			for _, c := range q.Children {
				if c.Weighted {
					c.NormalizedWeight = float32(float64(c.Weight) / sum)
				}
			}
		}
		for _, c := range q.Children {
			walk(c)
		}
	}
	walk(root)
}

// maxApplications34 sets a leaf's application limits as Hadoop 3.4 does
// (MaxApplications34).
func (p *parser) maxApplications34(q *QueueConf) {
	q.MaxApplications, q.MaxApplicationsPerUser = MaxApplications34(*p.s, q, true)
}

// MaxApplications34 is Hadoop 3.4's AbstractLeafQueue.
// updateMaximumApplications: the queue's maximum-applications, else the
// base (the global per-queue maximum, at most the system's, or the
// system's) when the absolute capacity is not ready or for a queue that
// is not absolute under a global per-queue maximum, else the base times
// the absolute capacity, (int) of a float; then the per-user maximum
// (updateMaxAppsPerUser).
func MaxApplications34(s Settings, q *QueueConf, ready bool) (maxApps, perUser int) {
	maxApps = q.QueueMaxApplications
	base := s.MaxApplications
	if s.GlobalQueueMaxApps > 0 {
		base = min(s.GlobalQueueMaxApps, s.MaxApplications)
	}
	if maxApps < 0 {
		if !ready || s.GlobalQueueMaxApps > 0 && !q.Absolute {
			maxApps = base
		} else {
			maxApps = javaFloatToInt(float64(float32(float32(base) * q.AbsCapacity)))
		}
	}
	perUser = maxApps
	if q.UserLimitFactor != -1 {
		f := float32(float32(float32(maxApps)*float32(q.MinUserLimitPercent/100)) * q.UserLimitFactor)
		perUser = min(maxApps, javaFloatToInt(float64(f)))
	}
	return maxApps, perUser
}

// isCapacityVector reports whether a capacity is Hadoop 3.4's capacity
// vector with a percentage or weight unit ("[memory=50%,vcores=2w]",
// QueueCapacityConfigParser): spaces removed, a bracketed list of
// name=value entries, some value ending in "%" or "w". Plain resources
// ("[memory=1024,vcores=1]") are absolute capacities.
func isCapacityVector(raw string) bool {
	s := strings.ReplaceAll(raw, " ", "")
	inner, ok := strings.CutPrefix(s, "[")
	if !ok {
		return false
	}
	if inner, ok = strings.CutSuffix(inner, "]"); !ok {
		return false
	}
	unit := false
	for _, e := range strings.Split(inner, ",") {
		_, v, ok := strings.Cut(e, "=")
		if !ok {
			return false
		}
		unit = unit || strings.HasSuffix(v, "%") || strings.HasSuffix(v, weightSuffix)
	}
	return unit
}

// capacityVectors refuses, under the hadoop-3.4 profile, a capacity or
// maximum capacity written as a capacity vector with percentage or
// weight units, which yarnplay does not simulate, and keeps a bracketed
// maximum as q.MaxVector (its errors are resourceRequirement's).
func (p *parser) capacityVectors(q *QueueConf) error {
	if !p.profile.AtLeast34() {
		return nil
	}
	if raw, ok := p.r.c.Get(QueueKey(q.Path, SuffixMaximumCapacity)); ok && IsAbsoluteResource(raw) {
		if res, err := parseAbsoluteResource(raw); err == nil {
			q.MaxVector = res
		}
	}
	for _, suffix := range []string{SuffixCapacity, SuffixMaximumCapacity} {
		key := QueueKey(q.Path, suffix)
		if raw, ok := p.r.c.Get(key); ok && isCapacityVector(raw) {
			return unsupported(key, q.Path, "capacity vectors with percentage or weight units", notLoaded,
				"%s=%q mixes units inside one queue's capacity (Hadoop 3.4's capacity vector): this form is not "+
					"simulated by yarnplay; give queue %s one percentage, weight (\"2w\") or resource "+
					"(\"[memory=4096,vcores=4]\")", key, raw, q.Path)
		}
	}
	return nil
}
