package config

import (
	"fmt"
	"math"
	"strings"

	"yarnplay/core/resource"
)

// PreemptionSettings configure the proportional capacity preemption policy
// (ProportionalCapacityPreemptionPolicy.updateConfigIfNeeded).
type PreemptionSettings struct {
	Enabled                  bool    // yarn.resourcemanager.scheduler.monitor.enable (false)
	ObserveOnly              bool    // observe_only (false)
	MonitoringIntervalMS     int64   // monitoring_interval (3000)
	MaxWaitBeforeKillMS      int64   // max_wait_before_kill (15000)
	TotalPreemptionPerRound  float32 // total_preemption_per_round (0.1)
	MaxIgnoredOverCapacity   float64 // max_ignored_over_capacity (0.1)
	NaturalTerminationFactor float64 // natural_termination_factor (0.2)
}

// Settings are the global (non-queue) settings, with Hadoop's defaults.
type Settings struct {
	// MinAlloc and MaxAlloc are yarn.scheduler.minimum-allocation-mb/-vcores
	// (1024/1) and yarn.scheduler.maximum-allocation-mb/-vcores (8192/4).
	MinAlloc, MaxAlloc resource.Resource
	// Calculator is yarn.scheduler.capacity.resource-calculator.
	Calculator resource.Calculator
	// MaxApplications is maximum-applications (10000), the system-wide limit.
	MaxApplications int
	// MaxAMPercent is maximum-am-resource-percent (0.1), every queue's default.
	MaxAMPercent float32
	// GlobalQueueMaxApps is global-queue-max-application (-1: undefined).
	GlobalQueueMaxApps int
	// MixedQueueMode is Hadoop 3.4's legacy-queue-mode.enabled=false
	// (hadoop-3.4 profile only): siblings may mix percentages, absolute
	// resources and weights, and every queue's capacities are derived from
	// its effective resources (docs/semantics.md, section 14.8).
	MixedQueueMode bool
	// NodeLocalityDelay is node-locality-delay (40).
	NodeLocalityDelay int
	// RackLocalityAdditionalDelay is rack-locality-additional-delay (-1).
	RackLocalityAdditionalDelay int
	// RackLocalityFullReset is rack-locality-full-reset (true).
	RackLocalityFullReset bool
	// AssignMultiple is per-node-heartbeat.multiple-assignments-enabled (true).
	AssignMultiple bool
	// MaxAssignPerHeartbeat is per-node-heartbeat.maximum-container-assignments
	// (100; -1 unlimited).
	MaxAssignPerHeartbeat int
	// OffSwitchPerHeartbeat is per-node-heartbeat.maximum-offswitch-assignments
	// (1; values below 1 become 1).
	OffSwitchPerHeartbeat int
	// ContinueLook is reservations-continue-look-all-nodes (true).
	ContinueLook bool
	// ACLEnabled is yarn.acl.enable (false).
	ACLEnabled bool
	// AdminACL is yarn.admin.acl ("*").
	AdminACL ACL
	// MaxAppPriority is yarn.cluster.max-application-priority (0).
	MaxAppPriority int
	// HeartbeatIntervalMS is yarn.resourcemanager.nodemanagers.heartbeat-interval-ms (1000).
	HeartbeatIntervalMS int64
	// QueueManagement is whether the scheduling monitor runs
	// QueueManagementDynamicEditPolicy (monitor.enable, and the policy in
	// yarn.resourcemanager.scheduler.monitor.policies), which activates
	// and deactivates auto-created leaf queues every
	// QueueManagementIntervalMS (queue-management.monitoring-interval, 1500).
	QueueManagement           bool
	QueueManagementIntervalMS int64
	// AutoQueueDeletion is whether the monitor runs Hadoop 3.4's
	// AutoCreatedQueueDeletionPolicy (listed in the monitor's policies),
	// every AutoQueueExpirationSec seconds
	// (auto-queue-creation-v2.queue-expiration-time, 300), the idle time
	// after which it deletes a dynamic queue.
	AutoQueueDeletion      bool
	AutoQueueExpirationSec int64
	// UserMetrics is user-metrics.enable (false): with it, Hadoop's
	// LeafQueue.allocateResource and releaseResource compute the user
	// limit (and so refresh UsersManager's count of users with only
	// pending applications) on every container.
	UserMetrics bool
	// UserMaxParallelApps is user.<name>.max-parallel-apps by user name,
	// and UserMaxParallelAppsDefault user.max-parallel-apps
	// (Integer.MAX_VALUE): CapacitySchedulerConfiguration.getMaxParallelAppsForUser.
	UserMaxParallelApps        map[string]int
	UserMaxParallelAppsDefault int
	// Preemption configures the preemption policy.
	Preemption PreemptionSettings
	// Warnings name the values Hadoop silently ignores or replaces (a
	// boolean that is neither true nor false, an off-switch limit below 1,
	// ...), for global and per-queue properties alike: each says which
	// property and what was used instead.
	Warnings []string
}

// reader reads typed values from a Conf the way Hadoop's Configuration
// getters do, turning Java's exceptions into *Error and its silent
// fallbacks into warnings.
type reader struct {
	c        *Conf
	warnings []string
	// notSim is the first feature Hadoop runs and yarnplay does not
	// simulate; the parse reads on, so that a refusal of Hadoop's that
	// comes later wins (Check's verdict is then Refused).
	notSim *Error
}

// notSimulated records a feature yarnplay does not simulate, the first one only.
func (r *reader) notSimulated(e *Error) {
	if r.notSim == nil {
		r.notSim = e
	}
}

func (r *reader) warnf(format string, args ...any) {
	r.warnings = append(r.warnings, fmt.Sprintf(format, args...))
}

// getInt is Configuration.getInt (queue names the queue for messages).
func (r *reader) getInt(key string, def int, queue string) (int, error) {
	raw, ok := r.c.Get(key)
	if !ok {
		return def, nil
	}
	v, err := parseHadoopInteger(raw, 32)
	if err != nil {
		return 0, numberError(key, queue, raw, "integer", err)
	}
	return int(v), nil
}

// getLong is Configuration.getLong.
func (r *reader) getLong(key string, def int64, queue string) (int64, error) {
	raw, ok := r.c.Get(key)
	if !ok {
		return def, nil
	}
	v, err := parseHadoopInteger(raw, 64)
	if err != nil {
		return 0, numberError(key, queue, raw, "long integer", err)
	}
	return v, nil
}

// getFloat is Configuration.getFloat.
func (r *reader) getFloat(key string, def float32, queue string) (float32, error) {
	raw, ok := r.c.Get(key)
	if !ok {
		return def, nil
	}
	v, err := parseJavaFloat(raw, 32)
	if err != nil {
		return 0, numberError(key, queue, raw, "float", err)
	}
	return float32(v), nil
}

// getDouble is Configuration.getDouble.
func (r *reader) getDouble(key string, def float64, queue string) (float64, error) {
	raw, ok := r.c.Get(key)
	if !ok {
		return def, nil
	}
	v, err := parseJavaFloat(raw, 64)
	if err != nil {
		return 0, numberError(key, queue, raw, "double", err)
	}
	return v, nil
}

// getBool is Configuration.getBoolean: "true"/"false" in any case; empty
// means the default; anything else is the default and a warning.
func (r *reader) getBool(key string, def bool) bool {
	raw, ok := r.c.Get(key)
	if !ok {
		return def
	}
	switch t := javaTrim(raw); {
	case t == "":
		return def
	case strings.EqualFold(t, "true"):
		return true
	case strings.EqualFold(t, "false"):
		return false
	}
	r.warnf("%s: %q is not a boolean (true or false); Hadoop uses the default, %v", key, raw, def)
	return def
}

// parseSettings reads the global settings. The allocation limits are
// validated first, as CapacitySchedulerConfigValidator.validateMemoryAllocation
// and validateVCores run before anything else.
func parseSettings(r *reader) (Settings, error) {
	var s Settings
	var err error
	ints := func(dst *int, key string, def int) {
		if err == nil {
			*dst, err = r.getInt(key, def, "")
		}
	}
	var minMem, maxMem, minVc, maxVc int
	ints(&minMem, KeyMinAllocationMB, 1024)
	ints(&maxMem, KeyMaxAllocationMB, 8192)
	if err != nil {
		return s, err
	}
	if minMem <= 0 || minMem > maxMem {
		return s, errorf(KeyMinAllocationMB, "", "Invalid resource scheduler memory allocation configuration, "+
			"%s=%d, %s=%d, min and max should be greater than 0, max should be no smaller than min.",
			KeyMinAllocationMB, minMem, KeyMaxAllocationMB, maxMem)
	}
	ints(&minVc, KeyMinAllocationVcores, 1)
	ints(&maxVc, KeyMaxAllocationVcores, 4)
	if err != nil {
		return s, err
	}
	if minVc <= 0 || minVc > maxVc {
		return s, errorf(KeyMinAllocationVcores, "", "Invalid resource scheduler vcores allocation configuration, "+
			"%s=%d, %s=%d, min and max should be greater than 0, max should be no smaller than min.",
			KeyMinAllocationVcores, minVc, KeyMaxAllocationVcores, maxVc)
	}
	s.MinAlloc = resource.New(int64(minMem), int64(minVc))
	s.MaxAlloc = resource.New(int64(maxMem), int64(maxVc))

	s.Calculator = resource.Default
	if raw, ok := r.c.Get(KeyResourceCalculator); ok {
		switch cls := javaTrim(raw); cls {
		case resource.DefaultCalculatorClass:
			s.Calculator = resource.Default
		case resource.DominantCalculatorClass:
			s.Calculator = resource.Dominant
		default:
			return s, errorf(KeyResourceCalculator, "", "java.lang.ClassNotFoundException: Class %s not found "+
				"(%s must be %s or %s)", cls, KeyResourceCalculator,
				resource.DefaultCalculatorClass, resource.DominantCalculatorClass)
		}
	}

	ints(&s.MaxApplications, KeyMaximumApplications, 10000)
	if err == nil {
		s.MaxAMPercent, err = r.getFloat(KeyMaximumAMResourcePercent, 0.1, "")
	}
	ints(&s.GlobalQueueMaxApps, KeyGlobalQueueMaxApplication, -1)
	ints(&s.NodeLocalityDelay, KeyNodeLocalityDelay, 40)
	ints(&s.RackLocalityAdditionalDelay, KeyRackLocalityAdditionalDelay, -1)
	ints(&s.MaxAssignPerHeartbeat, KeyMaxAssignPerHeartbeat, 100)
	ints(&s.OffSwitchPerHeartbeat, KeyOffSwitchPerHeartbeat, 1)
	ints(&s.MaxAppPriority, KeyMaxApplicationPriority, 0)
	if err == nil {
		s.HeartbeatIntervalMS, err = r.getLong(KeyHeartbeatIntervalMS, 1000, "")
	}
	if err != nil {
		return s, err
	}
	if s.HeartbeatIntervalMS <= 0 {
		return s, errorf(KeyHeartbeatIntervalMS, "", "Invalid Configuration. %s should be larger than 0.", KeyHeartbeatIntervalMS)
	}
	if s.OffSwitchPerHeartbeat < 1 {
		r.warnf("%s(%d) < 1. Using 1.", KeyOffSwitchPerHeartbeat, s.OffSwitchPerHeartbeat)
		s.OffSwitchPerHeartbeat = 1
	}
	if s.MaxAMPercent > 1 {
		r.warnf("%s is a fraction (0.1 = 10%%): %s lets AMs use more than the whole queue",
			KeyMaximumAMResourcePercent, JavaFloatString(s.MaxAMPercent))
	}
	s.RackLocalityFullReset = r.getBool(KeyRackLocalityFullReset, true)
	s.AssignMultiple = r.getBool(KeyAssignMultiple, true)
	s.ContinueLook = r.getBool(KeyReservationsContinueLook, true)
	s.ACLEnabled = r.getBool(KeyACLEnable, false)
	s.UserMetrics = r.getBool(KeyUserMetricsEnable, false)
	if err := userMaxParallelApps(r, &s); err != nil {
		return s, err
	}
	adminACL := "*"
	if v, ok := r.c.Get(KeyAdminACL); ok {
		adminACL = v
	}
	s.AdminACL = ParseACL(adminACL)

	p := &s.Preemption
	p.Enabled = r.getBool(KeyMonitorEnable, false)
	p.ObserveOnly = r.getBool(KeyPreemptionObserveOnly, false)
	if p.MonitoringIntervalMS, err = r.getLong(KeyPreemptionMonitoringInterval, 3000, ""); err != nil {
		return s, err
	}
	if p.MaxWaitBeforeKillMS, err = r.getLong(KeyPreemptionMaxWaitBeforeKill, 15000, ""); err != nil {
		return s, err
	}
	if p.TotalPreemptionPerRound, err = r.getFloat(KeyPreemptionTotalPerRound, 0.1, ""); err != nil {
		return s, err
	}
	if p.MaxIgnoredOverCapacity, err = r.getDouble(KeyPreemptionMaxIgnoredOverCapacity, 0.1, ""); err != nil {
		return s, err
	}
	if p.NaturalTerminationFactor, err = r.getDouble(KeyPreemptionNaturalTerminationFactor, 0.2, ""); err != nil {
		return s, err
	}
	if s.QueueManagementIntervalMS, err = r.getLong(KeyQueueManagementInterval, 1500, ""); err != nil {
		return s, err
	}
	if s.AutoQueueExpirationSec, err = r.getLong(KeyAutoQueueExpirationTime, 300, ""); err != nil {
		return s, err
	}
	if v, ok := r.c.Get(KeyMonitorPolicies); ok && p.Enabled {
		// ResourceManager.createSchedulerMonitors: the monitor runs the
		// listed policies only (Configuration.getClasses; the default
		// lists the preemption policy alone).
		preempt := false
		for _, c := range trimmedStrings(v) {
			s.QueueManagement = s.QueueManagement || c == QueueManagementPolicyClass
			s.AutoQueueDeletion = s.AutoQueueDeletion || c == AutoQueueDeletionPolicyClass
			preempt = preempt || c == PreemptionPolicyClass
		}
		p.Enabled = preempt
	}
	if p.Enabled && p.MonitoringIntervalMS <= 0 {
		return s, errorf(KeyPreemptionMonitoringInterval, "", "%s must be positive, not %d",
			KeyPreemptionMonitoringInterval, p.MonitoringIntervalMS)
	}
	return s, nil
}

// userMaxParallelApps reads user.max-parallel-apps and every
// user.<name>.max-parallel-apps (YARN-9930, Hadoop 3.3.1). Hadoop reads a
// user's value with Integer.parseInt, untrimmed, only when one of the
// user's application attempts is added
// (CSMaxRunningAppsEnforcer.getUserMaxParallelApps): a value that is not a
// number starts, and fails that user's submissions with a
// NumberFormatException, which yarnplay does not simulate.
func userMaxParallelApps(r *reader, s *Settings) error {
	var err error
	if s.UserMaxParallelAppsDefault, err = r.getInt(KeyUserMaxParallelAppsDefault, math.MaxInt32, ""); err != nil {
		return err
	}
	const head, tail = Prefix + "user.", "." + SuffixMaxParallelApps
	for _, k := range r.c.Keys() {
		name, ok := strings.CutPrefix(k, head)
		if !ok {
			continue
		}
		if name, ok = strings.CutSuffix(name, tail); !ok || name == "" {
			continue
		}
		raw, _ := r.c.Get(k)
		v, perr := parseJavaInteger(raw, 10, 32)
		if perr != nil {
			e := numberError(k, "", raw, "integer", perr)
			r.notSimulated(notSimulated(e, "a user's max-parallel-apps that is not a number",
				"Hadoop starts with it and fails each of user "+name+"'s submissions with a NumberFormatException; "+
					notLoaded))
			continue
		}
		if s.UserMaxParallelApps == nil {
			s.UserMaxParallelApps = map[string]int{}
		}
		s.UserMaxParallelApps[name] = int(v)
	}
	return nil
}

// MaxParallelAppsForUser is CapacitySchedulerConfiguration.getMaxParallelAppsForUser:
// user.<name>.max-parallel-apps, else user.max-parallel-apps.
func (s *Settings) MaxParallelAppsForUser(user string) int {
	if v, ok := s.UserMaxParallelApps[user]; ok {
		return v
	}
	return s.UserMaxParallelAppsDefault
}
