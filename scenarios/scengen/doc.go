// Package scengen generates random, valid scenarios for property tests:
// Generate(seed, opts) returns the same scenario for the same seed and
// options, on every platform (math/rand/v2's PCG, no maps iterated into a
// decision).
//
// A scenario has a random queue tree one to three levels deep whose
// capacities sum to 100 under each parent, with maximum capacities, user
// limit factors, minimum user limit percents, AM percents, application
// limits, sometimes ACLs (with yarn.acl.enable), continue-looking,
// the DominantResourceCalculator and preemption; nodes on racks; and steps
// mixing submissions (some refused), requests (node, rack and off-switch,
// with durations), heartbeats, ticks, finished containers, finished and
// killed applications, refreshes (valid and invalid), and nodes that join
// and leave.
//
// The generator plays each step as it writes it (with scenarios.Player), so
// that it can aim the next step at live applications, containers and
// nodes, and so that a step the scheduler refuses is written with the
// refusal in its `error`: a generated scenario passes scenarios.Run as it
// is, and a failing one can be saved as a YAML file and replayed.
//
// The tests of this package run thousands of generated scenarios and check,
// after every step, the scheduler's bookkeeping (core.CheckInvariants), the
// decision record replayed into a ledger of its own (nodes, applications,
// users, queues and the cluster), the queue maximum and user limit rules at
// each allocation, the application state machine, that a refused step
// changes nothing, that a clone taken at a step and played on is identical
// to the original, and that the records of a fixed set of seeds hash to the
// values in testdata (natively and under WebAssembly alike).
package scengen
