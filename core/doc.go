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
// # One node's heartbeat
//
// A Tick makes every node heartbeat once, in registration order. Follow one
// node through it: the Go function, its file, and the Hadoop class and
// method it is (in org.apache.hadoop.yarn.server.resourcemanager.scheduler
// and its capacity, common.fica and capacity.allocator packages). A
// heartbeat makes passes (allocateOnce) until cannotAllocateMore
// (CapacityScheduler.canAllocateMore) or a pass assigns nothing; each pass
// yields at most one container or reservation; a node holding a
// reservation only serves it. A method named alone is of the class named
// on a row above it.
//
//	Tick                                                 apply.go     (a round of the NodeManagers' heartbeats)
//	└─ heartbeat                                         heartbeat.go CapacityScheduler.nodeUpdate
//	   ├─ completeDueContainers                          apply.go     nodeUpdate's completed containers
//	   │  └─ releaseContainer                            apply.go     LeafQueue.completedContainer
//	   │     └─ releaseResource                          apply.go     LeafQueue.releaseResource
//	   └─ passes while cannotAllocateMore                heartbeat.go allocateContainersToNode, canAllocateMore
//	      └─ allocateOnce                                heartbeat.go allocateContainerOnSingleNode
//	         ├─ reserved: serveReservation               heartbeat.go allocateFromReservedContainer
//	         └─ assignParent(root)                       heartbeat.go ParentQueue.assignContainers
//	            ├─ canAssignToThisQueue                  heartbeat.go AbstractCSQueue.canAssignToThisQueue
//	            ├─ sortedChildren                        order.go     PriorityUtilizationQueueOrderingPolicy
//	            └─ each child in order                   heartbeat.go assignContainersToChildQueues
//	               ├─ childLimit                         scheduler.go getResourceLimitsOfChild
//	               ├─ assignParent …                     heartbeat.go ParentQueue.assignContainers
//	               └─ assignLeaf                         heartbeat.go LeafQueue.assignContainers
//	                  └─ visitLeaf                       heartbeat.go LeafQueue.assignContainers
//	                     ├─ updateCurrentLimit           scheduler.go updateCurrentResourceLimits
//	                     ├─ canAssignToThisQueue         heartbeat.go AbstractCSQueue.canAssignToThisQueue
//	                     └─ each active app              heartbeat.go FifoOrderingPolicy
//	                        ├─ userLimitOf               users.go     UsersManager.computeUserLimit
//	                        ├─ canAssignToUser           users.go     LeafQueue.canAssignToUser
//	                        └─ assignApp                 alloc.go     FiCaSchedulerApp.assignContainers
//	                           ├─ allocate               alloc.go     RegularContainerAllocator.allocate
//	                           │  ├─ checkHeadroom       alloc.go     checkHeadroom
//	                           │  └─ assignOnNode        alloc.go     assignContainersOnNode
//	                           │     └─ assignContainer  alloc.go     assignContainer
//	                           │        └─ canAssign     alloc.go     canAssign (delay scheduling)
//	                           └─ commit                 alloc.go     FiCaSchedulerApp.accept, apply
//	                              ├─ applyAllocation     apply.go     FiCaSchedulerApp.apply
//	                              │  ├─ decrementAsks    apply.go     AppSchedulingInfo.allocate
//	                              │  └─ allocateResource apply.go     LeafQueue.allocateResource
//	                              ├─ applyReservation    apply.go     SchedulerApplicationAttempt.reserve
//	                              └─ unreserve           apply.go     FiCaSchedulerApp.unreserve
//	then monitor                                         preempt.go   ProportionalCapacityPreemptionPolicy
//
// Every level returns its result (an assignment: a container, a
// reservation, or why not) to the one above, as Hadoop's CSAssignment;
// the limits a parent hands a child are Hadoop's ResourceLimits, which the
// child fills in (its headroom, what it blocked) for the parent to read.
// The walk keeps four caches that let an unrecorded walk skip work whose
// outcome it knows (walkcache.go); every change reaches them through
// Scheduler.invalidate. A recorded walk (RecordFull) uses none of them, so
// the narration always tells Hadoop's whole walk.
//
// Section numbers in comments refer to the project's semantics reference,
// docs/semantics.md, which names the Hadoop class and method of each rule
// and the Go function that implements it.
package core
