// Package why answers "why is this application waiting?": given the state
// at a step and the decisions of the heartbeats that follow (the core's
// events), it names, for every application that waits (not running, or
// with asks not met), the check that stops it, with its numbers. The
// command yarnplay-why and the playground's "why waiting" panel both call
// Analyze, so that they give the same answer.
package why

// Rule is the check that stops an application, as one word that tickets
// and scripts can grep.
type Rule string

// Rules.
const (
	// None: nothing stops it (it got containers in the heartbeats read, or
	// it was not reached in them).
	None Rule = ""
	// AMLimit: pending, its AM would take the queue's AM usage past
	// maximum-am-resource-percent of the queue.
	AMLimit Rule = "am-limit"
	// UserAMLimit: pending, its AM would take its user's AM usage past the
	// user's share of the AM limit.
	UserAMLimit Rule = "user-am-limit"
	// UserLimit: its user is at the user limit (minimum-user-limit-percent,
	// user-limit-factor).
	UserLimit Rule = "user-limit"
	// QueueMaxCapacity: its leaf is at its maximum capacity (or its
	// headroom is smaller than the ask).
	QueueMaxCapacity Rule = "queue-max-capacity"
	// ParentMaxCapacity: an ancestor of its leaf is at its maximum capacity.
	ParentMaxCapacity Rule = "parent-max-capacity"
	// MaxApplications: refused at submission by maximum-applications
	// (queue or user) or the system limit.
	MaxApplications Rule = "max-applications"
	// MaxParallelApps: accepted but not runnable: its queue (or an
	// ancestor) or its user runs max-parallel-apps applications already.
	MaxParallelApps Rule = "max-parallel-apps"
	// NoNodeFits: no node has room for its ask (or the ask is larger than
	// any node).
	NoNodeFits Rule = "no-node-fits"
	// Reserved: it waits on a reservation (its own, for a node to free up,
	// or other apps' reservations hold the nodes).
	Reserved Rule = "reserved"
	// LocalityDelay: delay scheduling: it waits for a node or rack it
	// asked for (node-locality-delay) or will not relax locality.
	LocalityDelay Rule = "locality-delay"
	// QueueStopped: refused at submission because its queue is STOPPED.
	QueueStopped Rule = "queue-stopped"
	// ACL: refused at submission by the queue's ACLs.
	ACL Rule = "acl"
	// Partition: the nodes that heartbeat are in another partition than
	// its asks' (node labels), its AM waits for a node of its own
	// partition (never a shared one), or a default-partition ask waits
	// for the default partition's nodes before a shared partition's.
	Partition Rule = "partition"
)

// Rules lists every rule word, in the order the documentation gives them.
var Rules = []Rule{
	AMLimit, UserAMLimit, UserLimit, QueueMaxCapacity, ParentMaxCapacity, MaxApplications,
	MaxParallelApps, NoNodeFits, Reserved, LocalityDelay, QueueStopped, ACL, Partition,
}

// Produced reports whether today's core makes decisions that Analyze maps
// to r (every rule but None).
func Produced(r Rule) bool { return r != None }
