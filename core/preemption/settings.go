package preemption

// Settings are the ProportionalCapacityPreemptionPolicy's configuration
// (ProportionalCapacityPreemptionPolicy.updateConfigIfNeeded). They are parsed
// elsewhere from the Hadoop keys named on each field; the types mirror the
// getters Hadoop uses (getBoolean, getLong, getFloat, getDouble).
type Settings struct {
	// Enabled is yarn.resourcemanager.scheduler.monitor.enable (false): when
	// false the monitor never runs and Round decides nothing.
	Enabled bool
	// ObserveOnly is yarn.resourcemanager.monitor.capacity.preemption.observe_only
	// (false): compute and select candidates, but send no event and keep no
	// state.
	ObserveOnly bool
	// MonitoringIntervalMS is ...preemption.monitoring_interval (3000 ms): how
	// often the caller should run a Round. Round itself does not use it.
	MonitoringIntervalMS int64
	// MaxWaitBeforeKillMS is ...preemption.max_wait_before_kill (15000 ms):
	// a container selected again this long after its first selection is
	// killed; remembered candidates older than twice this are forgotten.
	MaxWaitBeforeKillMS int64
	// TotalPreemptionPerRound is ...preemption.total_preemption_per_round
	// (0.1, a Java float): at most cluster x this is selected per round.
	TotalPreemptionPerRound float32
	// MaxIgnoredOverCapacity is ...preemption.max_ignored_over_capacity (0.1,
	// the dead zone): a leaf yields only when used > guaranteed x (1 + this).
	MaxIgnoredOverCapacity float64
	// NaturalTerminationFactor is ...preemption.natural_termination_factor
	// (0.2): the share of a leaf's computed excess asked back per round.
	NaturalTerminationFactor float64
}

// DefaultSettings returns Hadoop's defaults (CapacitySchedulerConfiguration
// DEFAULT_PREEMPTION_* and YarnConfiguration.DEFAULT_RM_SCHEDULER_ENABLE_MONITORS):
// disabled, not observe-only, 3000 ms interval, 15000 ms wait before kill,
// 0.1 per round, 0.1 dead zone, 0.2 natural termination.
func DefaultSettings() Settings {
	return Settings{
		Enabled:                  false,
		ObserveOnly:              false,
		MonitoringIntervalMS:     3000,
		MaxWaitBeforeKillMS:      15000,
		TotalPreemptionPerRound:  0.1,
		MaxIgnoredOverCapacity:   0.1,
		NaturalTerminationFactor: 0.2,
	}
}
