// Package core is a deterministic re-implementation of the Apache Hadoop YARN
// Capacity Scheduler (Hadoop 3.3 by default, with a hadoop-2 profile for the
// few rules the book describes and Hadoop 3 changed).
//
// The Scheduler is a pure state machine. It is driven by explicit steps
// (AddNode, Submit, Request, Heartbeat, Tick, FinishContainers, FinishApp,
// KillApp, Refresh, RemoveNode) and records every decision it makes as an
// Event: which queues a heartbeat visited and in what order, which
// applications were considered and why each was skipped, what was allocated
// or reserved. The playground's narration and the tests read that same record.
//
// The package imports nothing of the browser, the wall clock, the operating
// system or global randomness (a test holds its imports to an allowlist).
// Time is a tick counter: one tick is one node heartbeat interval.
//
// The pipeline of one node heartbeat, after the node's finished containers
// are reported:
//
//	node reserved? ── yes ─▶ the reserving app tries its reservation (fulfil, re-reserve or release); heartbeat ends
//	      │ no
//	      ▼
//	root.assignContainers ─▶ children sorted by used capacity ─▶ … ─▶ leaf
//	      leaf: FIFO over active apps ─▶ queue max-capacity gate ─▶ user limit
//	            ─▶ app: request priorities in order ─▶ locality (node, rack, off-switch)
//	            ─▶ allocate, reserve, or skip (with the reason)
//	      repeat while multiple assignments are allowed (off-switch limit, no reservation)
//
// Section numbers in comments refer to the project's semantics reference,
// docs/semantics.md, which names the Hadoop class and method of each rule
// and the Go function that implements it.
package core
