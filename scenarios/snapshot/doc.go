// Package snapshot brings a running cluster into yarnplay and takes it back
// out: Import reads a ResourceManager's REST responses (scheduler, nodes,
// apps, optionally the attempts' containers and the configuration), in
// JSON or XML as Hadoop 2.7 to 3.4 write them, into a scenario whose first
// step, a restore, reproduces the queues', users' and nodes' usage, the
// running applications and their pending asks; what the responses do not
// say is chosen deterministically and listed in Scenario.Assumptions.
// ExportState writes a simulated state as those responses, so that a
// snapshot round-trips. Unreadable input is refused with Problems, each
// naming the file, the path inside it and what is wrong; input that does
// not add up is adjusted and said.
//
//	RM REST responses ─Classify─▶ Files ─Decode─▶ *Snapshot ─Build─▶ *scenarios.Scenario (restore step, assumptions)
//	*core.Scheduler ─ExportState─▶ scheduler, nodes, apps, containers, capacity-scheduler.xml
//
// The format of the responses and every assumption are described in
// ../README.md (Cluster snapshots).
package snapshot
