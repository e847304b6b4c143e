package config

// Prefix starts every Capacity Scheduler property
// (CapacitySchedulerConfiguration.PREFIX).
const Prefix = "yarn.scheduler.capacity."

// RootQueue is the name (and path) of the root queue.
const RootQueue = "root"

// QueueKey returns the property name of a per-queue setting:
// Prefix + path + "." + suffix, e.g. QueueKey("root.a", SuffixCapacity) is
// "yarn.scheduler.capacity.root.a.capacity".
func QueueKey(path, suffix string) string { return Prefix + path + "." + suffix }

// Per-queue property suffixes (CapacitySchedulerConfiguration), used with
// QueueKey.
const (
	SuffixQueues                     = "queues"                          // child queue names, comma separated
	SuffixCapacity                   = "capacity"                        // percent of the parent
	SuffixMaximumCapacity            = "maximum-capacity"                // percent of the parent
	SuffixState                      = "state"                           // RUNNING or STOPPED
	SuffixACLSubmitApplications      = "acl_submit_applications"         // ACL
	SuffixACLAdministerQueue         = "acl_administer_queue"            // ACL
	SuffixUserLimitFactor            = "user-limit-factor"               // float
	SuffixMinimumUserLimitPercent    = "minimum-user-limit-percent"      // int percent
	SuffixMaximumApplications        = "maximum-applications"            // int
	SuffixMaximumAMResourcePercent   = "maximum-am-resource-percent"     // float fraction
	SuffixMaximumAllocation          = "maximum-allocation"              // "memory-mb=2048,vcores=2"
	SuffixMaximumAllocationMB        = "maximum-allocation-mb"           // legacy form
	SuffixMaximumAllocationVcores    = "maximum-allocation-vcores"       // legacy form
	SuffixOrderingPolicy             = "ordering-policy"                 // fifo (leaf), utilization (parent)
	SuffixPriority                   = "priority"                        // queue priority
	SuffixDisablePreemption          = "disable_preemption"              // boolean, inherited
	SuffixDefaultApplicationPriority = "default-application-priority"    // int
	SuffixUserSettings               = "user-settings"                   // user-settings.<user>.weight
	SuffixWeight                     = "weight"                          // see SuffixUserSettings
	SuffixReservable                 = "reservable"                      // reservation system (unsupported)
	SuffixAutoCreateChildQueue       = "auto-create-child-queue.enabled" // auto-created queues (unsupported)
	SuffixMaxParallelApps            = "max-parallel-apps"               // int
	SuffixMaximumApplicationLifetime = "maximum-application-lifetime"    // seconds
	SuffixDefaultApplicationLifetime = "default-application-lifetime"    // seconds
	SuffixAccessibleNodeLabels       = "accessible-node-labels"          // node labels (not simulated)
)

// UserWeightKey returns the property of a user's weight in a queue:
// <prefix><path>.user-settings.<user>.weight.
func UserWeightKey(path, user string) string {
	return QueueKey(path, SuffixUserSettings+"."+user+"."+SuffixWeight)
}

// Global Capacity Scheduler properties.
const (
	KeyMaximumApplications         = Prefix + "maximum-applications"
	KeyMaximumAMResourcePercent    = Prefix + "maximum-am-resource-percent"
	KeyGlobalQueueMaxApplication   = Prefix + "global-queue-max-application"
	KeyResourceCalculator          = Prefix + "resource-calculator"
	KeyNodeLocalityDelay           = Prefix + "node-locality-delay"
	KeyRackLocalityAdditionalDelay = Prefix + "rack-locality-additional-delay"
	KeyRackLocalityFullReset       = Prefix + "rack-locality-full-reset"
	KeyAssignMultiple              = Prefix + "per-node-heartbeat.multiple-assignments-enabled"
	KeyMaxAssignPerHeartbeat       = Prefix + "per-node-heartbeat.maximum-container-assignments"
	KeyOffSwitchPerHeartbeat       = Prefix + "per-node-heartbeat.maximum-offswitch-assignments"
	KeyReservationsContinueLook    = Prefix + "reservations-continue-look-all-nodes"
	KeyMaxParallelApps             = Prefix + "max-parallel-apps"
	KeyUserMaxParallelAppsDefault  = Prefix + "user.max-parallel-apps"
	KeyUserMetricsEnable           = Prefix + "user-metrics.enable"
)

// YARN properties the Capacity Scheduler reads.
const (
	KeyMinAllocationMB        = "yarn.scheduler.minimum-allocation-mb"
	KeyMinAllocationVcores    = "yarn.scheduler.minimum-allocation-vcores"
	KeyMaxAllocationMB        = "yarn.scheduler.maximum-allocation-mb"
	KeyMaxAllocationVcores    = "yarn.scheduler.maximum-allocation-vcores"
	KeyACLEnable              = "yarn.acl.enable"
	KeyAdminACL               = "yarn.admin.acl"
	KeyMaxApplicationPriority = "yarn.cluster.max-application-priority"
	KeyHeartbeatIntervalMS    = "yarn.resourcemanager.nodemanagers.heartbeat-interval-ms"
	KeyMonitorEnable          = "yarn.resourcemanager.scheduler.monitor.enable"
)

// PreemptionPrefix starts the proportional preemption policy's properties.
const PreemptionPrefix = "yarn.resourcemanager.monitor.capacity.preemption."

// Proportional preemption policy properties.
const (
	KeyPreemptionObserveOnly              = PreemptionPrefix + "observe_only"
	KeyPreemptionMonitoringInterval       = PreemptionPrefix + "monitoring_interval"
	KeyPreemptionMaxWaitBeforeKill        = PreemptionPrefix + "max_wait_before_kill"
	KeyPreemptionTotalPerRound            = PreemptionPrefix + "total_preemption_per_round"
	KeyPreemptionMaxIgnoredOverCapacity   = PreemptionPrefix + "max_ignored_over_capacity"
	KeyPreemptionNaturalTerminationFactor = PreemptionPrefix + "natural_termination_factor"
)
