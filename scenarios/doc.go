// Package scenarios loads, validates, runs, checks and shares yarnplay
// scenario files: a cluster, a Capacity Scheduler configuration and a
// script of steps (the contract is ../shared/spec/scenario-format.md; the
// format as implemented, with its extensions, is described in README.md).
//
// The flow:
//
//	file (YAML or JSON) ─Load/Parse─▶ *Scenario ─Validate─▶ Run ─▶ *Result (PASS/FAIL, mismatches, narration)
//	                                       │
//	                                       ├─CanonicalJSON─▶ EncodeLink ─▶ "#s=1.…&t=…&sel=…" ─DecodeLink─▶ *Scenario
//	                                       └─YAML─▶ an exported file that loads back to the same scenario
//
// Loading is bounded (file size, number of values, steps, nodes and queues)
// so that a hostile file or link cannot exhaust the browser. Every error
// names the file, the place in the document (steps[3].submit) and its line.
package scenarios
