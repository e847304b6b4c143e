// Package lessons holds the playground's built-in lessons: the examples of
// the Capacity Scheduler chapter of "Apache Hadoop YARN" (Murthy,
// Vavilapalli et al., 2014) as scenario files, played with Hadoop's real
// numbers and narrated where they differ from the book's.
//
// Each lesson is a YAML scenario embedded in the binary (see Files). A
// lesson's slug is stable and URL-safe: it names the lesson's route and
// static page, so a slug, once published, must not change. All lists the
// lessons in teaching order; Load parses one; Default names the scenario the
// playground opens with.
//
// Every lesson is checked by the scenario runner in this package's tests:
// its expectations are the proof of the story its narration tells.
package lessons

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"yarnplay/internal/noeq"
	"yarnplay/scenarios"
)

//go:embed *.yaml
var files embed.FS

// Lesson describes one built-in lesson.
type Lesson struct {
	_ noeq.T
	// Slug is the lesson's stable, URL-safe name ("elastic-borrowing").
	Slug string
	// Title is the scenario's name, as the side panel shows it.
	Title string
	// Summary is one sentence for a list of lessons.
	Summary string
	// Order is the lesson's place in teaching order, from 1.
	Order int
	// File is the scenario file's name in Files.
	File string
}

// catalog is the teaching order. Titles equal the files' names (a test
// checks it).
var catalog = []Lesson{
	{Slug: "yarnrollers", Title: "YARNRollers, the book's company",
		Summary: "The book's queue hierarchy on 100 nodes of 10 GB: capacities, absolute capacities, and why only leaf queues take applications."},
	{Slug: "elastic-borrowing", Title: "Elastic borrowing in grumpy-engineers",
		Summary: "infinite-monkeys borrows all of grumpy-engineers (242 GB for two users, not 240); without preemption gupta waits until sid's tasks finish."},
	{Slug: "preemption", Title: "Preemption, Hadoop's gradual defaults",
		Summary: "The same story with the preemption monitor on: Hadoop's defaults give gupta 2 GB every 18 seconds."},
	{Slug: "preemption-undamped", Title: "Preemption, undamped",
		Summary: "The same steps with the damping turned off: gupta has his whole 48 GB guarantee within ten ticks."},
	{Slug: "maximum-capacity", Title: "Maximum capacity, 400 GB or 240 GB?",
		Summary: "maximum-capacity 40 boxes infinite-monkeys at 400 GB in Hadoop, not the book's 240 GB; a lower maximum takes nothing back."},
	{Slug: "user-limits", Title: "User limits in thrifty-treasurers",
		Summary: "minimum-user-limit-percent 20 with six users: Hadoop's limits, first-in-first-out, and selden waiting his turn."},
	{Slug: "user-limit-factor", Title: "User limit factor, a cap on one user",
		Summary: "user-limit-factor 1, 2 and 0.5 cap one user against the queue's guarantee; they never let a queue borrow."},
	{Slug: "reservations", Title: "Reservations for a large-memory application",
		Summary: "An 8 GB ask on busy nodes: reserved, served alone, fulfilled; released when no longer needed or satisfied elsewhere."},
	{Slug: "queue-states", Title: "Queue states, draining and stopping",
		Summary: "Stopping finance-wizards: DRAINING, refused submissions, STOPPED, restarting, and removing a queue at run time."},
	{Slug: "acls", Title: "Queue ACLs, and the root queue's \"*\"",
		Summary: "Submit and administer ACLs, root's default \"*\" that opens every queue, admin implies submit, and the space before a group."},
	{Slug: "application-limits", Title: "Limits on applications",
		Summary: "maximum-applications refuses submissions; maximum-am-resource-percent holds applications pending until others finish."},
	{Slug: "fair-ordering", Title: "Fair ordering within a leaf",
		Summary: "ordering-policy=fair lets a small job past a large one in the same queue, by cached usage: Hadoop 3.3's FairOrderingPolicy."},
	{Slug: "queue-priorities", Title: "Queue priorities",
		Summary: "priority-utilization: a higher-priority queue goes first while both are under, or both over, their guarantees; never past a queue under its own."},
	{Slug: "absolute-capacities", Title: "Absolute capacities, in resources",
		Summary: "Capacities as [memory=…,vcores=…]: guarantees in GB while the cluster has them, scaled down together when it does not, percentages derived."},
	{Slug: "weights", Title: "Weights, shares without sums",
		Summary: "Hadoop 3.4's 3w, 1w, 2w: each queue's share is its weight over its siblings', and a new queue takes its share from all of them at once."},
	{Slug: "auto-created-queues", Title: "Auto-created queues, one per user",
		Summary: "u:%user:users.%user makes a leaf per user from a template: 50% while the parent has room, else 0, handed over as applications come and go."},
	{Slug: "partitions", Title: "Node labels, partitions of the cluster",
		Summary: "A GPU node in its own partition: capacities per label, a default label for a queue's asks, and idle GPU resources lent to the default partition."},
}

func init() {
	for i := range catalog {
		catalog[i].Order = i + 1
		catalog[i].File = catalog[i].Slug + ".yaml"
	}
}

// defaultSlug is the scenario the playground opens with.
const defaultSlug = "yarnrollers"

// ErrUnknownLesson is wrapped by Load's error for a slug that names no lesson.
var ErrUnknownLesson = errors.New("unknown lesson")

// All returns the lessons in teaching order. The slice is a copy.
func All() []Lesson {
	return append([]Lesson(nil), catalog...)
}

// Get returns the lesson with this slug.
func Get(slug string) (Lesson, bool) {
	for _, l := range catalog {
		if l.Slug == slug {
			return l, true
		}
	}
	return Lesson{}, false
}

// Default returns the slug of the scenario the playground opens with: the
// book's YARNRollers cluster.
func Default() string { return defaultSlug }

// Files returns the embedded lesson files, one "<slug>.yaml" per lesson.
func Files() fs.FS { return files }

// Load parses the lesson's scenario (scenarios.Load on Files). An unknown
// slug gives an error wrapping ErrUnknownLesson that lists the known ones.
func Load(slug string) (*scenarios.Scenario, error) {
	l, ok := Get(slug)
	if !ok {
		known := make([]string, len(catalog))
		for i, c := range catalog {
			known[i] = c.Slug
		}
		return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknownLesson, slug, strings.Join(known, ", "))
	}
	return scenarios.Load(files, l.File)
}
