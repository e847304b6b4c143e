package config

import (
	"sort"
	"strings"
)

// userWeights is AbstractCSQueue.getUserWeightsFromHierarchy: the parent's
// weights overridden by this queue's user-settings.<user>.weight.
func (p *parser) userWeights(q *QueueConf) error {
	q.UserWeights = map[string]float32{}
	if q.Parent != nil {
		for u, w := range q.Parent.UserWeights {
			q.UserWeights[u] = w
		}
	}
	own := p.weights[q.Path]
	users := make([]string, 0, len(own))
	for u := range own {
		users = append(users, u)
	}
	sort.Strings(users)
	for _, u := range users {
		key, raw := UserWeightKey(q.Path, u), own[u]
		if !isWordName(u) {
			p.r.warnf("%s: Hadoop only reads user weights of user names made of letters, digits and _; ignored", key)
			continue
		}
		v, err := parseJavaFloat(raw, 32)
		if err != nil {
			return numberError(key, q.Path, raw, "float", err)
		}
		q.UserWeights[u] = float32(v)
	}
	return nil
}

// isWordName matches Java's regex \w+ (ASCII letters, digits, _).
func isWordName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isDigit(c) || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return s != ""
}

// lifetimes is AbstractCSQueue's getInheritedMaxAppLifetime,
// getInheritedDefaultAppLifetime and their check.
func (p *parser) lifetimes(q *QueueConf) error {
	maxKey, defKey := QueueKey(q.Path, SuffixMaximumApplicationLifetime), QueueKey(q.Path, SuffixDefaultApplicationLifetime)
	maxLT, err := p.r.getLong(maxKey, -1, q.Path)
	if err != nil {
		return err
	}
	if q.Parent != nil && maxLT < 0 {
		maxLT = q.Parent.MaxAppLifetime
	}
	defLT, err := p.r.getLong(defKey, -1, q.Path)
	if err != nil {
		return err
	}
	specified := defLT >= 0 || q.Parent != nil && p.lifetimeSpecified[q.Parent.Path]
	p.lifetimeSpecified[q.Path] = specified
	if q.Parent != nil && defLT < 0 {
		if specified && q.Parent.DefaultAppLifetime <= maxLT {
			defLT = q.Parent.DefaultAppLifetime
		} else {
			defLT = maxLT
		}
	}
	if maxLT > 0 && defLT > maxLT {
		return errorf(defKey, q.Path, "Default lifetime %d can't exceed maximum lifetime %d", defLT, maxLT)
	}
	if defLT <= 0 {
		defLT = maxLT
	}
	q.MaxAppLifetime, q.DefaultAppLifetime = maxLT, defLT
	return nil
}

const (
	policyPackage   = "org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy."
	fifoPolicyClass = policyPackage + "FifoOrderingPolicy"
	fairPolicyClass = policyPackage + "FairOrderingPolicy"
)

// orderingPolicy reads ordering-policy: a leaf's application ordering
// (CapacitySchedulerConfiguration.getAppOrderingPolicy: default fifo;
// "fifo", "fair", "fifo-with-partitions" and "fifo-for-pending-apps"
// compared trimmed, anything else a class name for Class.forName, with
// the properties under ordering-policy. handed to configure) or a
// parent's queue ordering (getQueueOrderingPolicy: default the parent's
// policy, else utilization; the value trimmed; "utilization" and
// "priority-utilization", anything else a class name).
func (p *parser) orderingPolicy(q *QueueConf, leaf bool) error {
	key := QueueKey(q.Path, SuffixOrderingPolicy)
	raw, ok := p.r.c.Get(key)
	policy := javaTrim(raw)
	if leaf {
		switch {
		case !ok || policy == PolicyFIFO || raw == fifoPolicyClass:
			q.OrderingPolicy = PolicyFIFO
			return nil
		case policy == PolicyFair || raw == fairPolicyClass:
			q.OrderingPolicy = PolicyFair
			// Boolean.parseBoolean: "true" in any case, untrimmed; else false.
			v, _ := p.r.c.Get(key + ".fair.enable-size-based-weight")
			q.FairSizeBasedWeight = strings.EqualFold(v, "true")
			return nil
		case policy == "fifo-with-partitions" || policy == "fifo-for-pending-apps",
			raw == policyPackage+"FifoOrderingPolicyWithExclusivePartitions",
			raw == policyPackage+"FifoOrderingPolicyForPendingApps":
			p.r.notSimulated(unsupported(key, q.Path, "the "+policy+" application ordering policy",
				"yarnplay simulates the fifo and fair policies only; "+notLoaded,
				"%s = %q: Hadoop runs leaf queue %s with this policy, which yarnplay does not simulate (it simulates fifo and fair)",
				key, raw, q.Path))
			q.OrderingPolicy = PolicyFIFO // to read on, for a refusal that may come later
			return nil
		}
		return errorf(key, q.Path, "Unable to construct ordering policy for: %s, %s (%s of leaf queue %s)",
			raw, raw, key, q.Path)
	}
	if !ok {
		policy = PolicyUtilization
		if q.Parent != nil {
			policy = q.Parent.OrderingPolicy
		}
	}
	switch policy {
	case PolicyUtilization, PolicyPriorityUtilization:
		q.OrderingPolicy = policy
		return nil
	}
	return errorf(key, q.Path, "Unable to construct queue ordering policy=%s queue=%s (%s of parent queue %s)",
		policy, q.Path, key, q.Path)
}

// leafConfigs is the rest of LeafQueue.setupQueueConfigs.
func (p *parser) leafConfigs(q *QueueConf) error {
	r, path := p.r, q.Path
	key := func(suffix string) string { return QueueKey(path, suffix) }
	if err := p.orderingPolicy(q, true); err != nil {
		return err
	}
	ul, err := r.getInt(key(SuffixMinimumUserLimitPercent), 100, path)
	if err != nil {
		return err
	}
	ulf, err := r.getFloat(key(SuffixUserLimitFactor), 1, path)
	if err != nil {
		return err
	}
	q.MinUserLimitPercent, q.UserLimitFactor = float32(ul), ulf

	maxApps, err := r.getInt(key(SuffixMaximumApplications), -1, path)
	if err != nil {
		return err
	}
	if maxApps < 0 {
		if p.s.GlobalQueueMaxApps > 0 {
			maxApps = p.s.GlobalQueueMaxApps
		} else {
			maxApps = javaFloatToInt(float64(float32(float32(p.s.MaxApplications) * q.AbsCapacity)))
		}
	}
	perUser := float32(float32(maxApps) * float32(float32(ul)/100))
	perUser = float32(perUser * ulf)
	q.MaxApplications = maxApps
	q.MaxApplicationsPerUser = min(maxApps, javaFloatToInt(float64(perUser)))

	if q.MaxAMPercent, err = r.getFloat(key(SuffixMaximumAMResourcePercent), p.s.MaxAMPercent, path); err != nil {
		return err
	}
	if q.DefaultAppPriority, err = r.getInt(key(SuffixDefaultApplicationPriority), 0, path); err != nil {
		return err
	}

	// Validate the user weights (LeafQueue.setupQueueConfigs).
	queueUL := min(100, ul)
	limit := float32(100) / float32(queueUL)
	users := make([]string, 0, len(q.UserWeights))
	for u := range q.UserWeights {
		users = append(users, u)
	}
	sort.Strings(users)
	for _, u := range users {
		if w := q.UserWeights[u]; w < 0 || w > limit {
			return errorf(p.weightKey(q, u), path, "Weight (%s) for user \"%s\" must be between 0 and 100 / %d "+
				"(= %s, the number of concurrent active users in %s)",
				JavaFloatString(w), u, queueUL, JavaFloatString(limit), path)
		}
	}
	return nil
}

// weightKey is the property that set u's weight for q: q's own or the
// nearest ancestor's.
func (p *parser) weightKey(q *QueueConf, u string) string {
	for a := q; a != nil; a = a.Parent {
		if _, ok := p.weights[a.Path][u]; ok {
			return UserWeightKey(a.Path, u)
		}
	}
	return UserWeightKey(q.Path, u)
}
