package snapshot

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"yarnplay/core/config"
	"yarnplay/scenarios"
)

// Hadoop's defaults the importer assumes where nothing says otherwise.
const (
	defaultMinMB, defaultMinVCores = 1024, 1
	defaultMaxMB, defaultMaxVCores = 8192, 4
	nodeHTTPPort                   = "8042"
)

// Build turns a decoded snapshot into a scenario: the configuration (the
// given one, or one derived from the queue tree), the nodes, and a first
// step, a `restore`, that recovers the running apps' containers, submits
// the waiting apps and makes every pending ask. What the snapshot does not
// say is chosen deterministically and listed in Scenario.Assumptions,
// with everything inconsistent that was left out or adjusted.
func Build(sn *Snapshot, f Files) (*scenarios.Scenario, error) {
	sc, _, err := build(sn, f)
	return sc, err
}

// Restore is Import that also returns the player standing after the
// restore step (the state the snapshot shows), which Import plays anyway
// to check it: the command and the page need not play it again. Its
// scheduler records nothing (core.RecordNone) until told otherwise.
func Restore(f Files) (*scenarios.Scenario, *scenarios.Player, error) {
	sn, err := Decode(f)
	if err != nil {
		return nil, nil, err
	}
	return build(sn, f)
}

func build(sn *Snapshot, f Files) (*scenarios.Scenario, *scenarios.Player, error) {
	b := &builder{sn: sn, f: f}
	b.conf()
	b.nodes()
	b.keepApps()
	b.place()
	b.asks()
	sc := &scenarios.Scenario{
		Version:     scenarios.FormatVersion,
		Name:        "cluster snapshot",
		Description: fmt.Sprintf("The state of a running cluster, imported from its ResourceManager's REST responses (%d queues, %d nodes, %d live applications). The first step restores it; what the snapshot did not say is listed as assumptions.", len(sn.Queues), len(b.nodeList), len(b.restore.Apps)),
		Source:      b.source(),
		Profile:     b.profile,
		Config:      b.cfg,
		Nodes:       b.nodeList,
		Steps:       []scenarios.Step{{Restore: &b.restore, Note: "the cluster as the snapshot shows it"}},
	}
	if err := sc.Validate(); err != nil {
		return nil, nil, Problems{{File: b.f.Apps.Name, Msg: "the snapshot makes a scenario yarnplay cannot play: " + err.Error()}}
	}
	p, err := b.check(sc)
	if err != nil {
		return nil, nil, err
	}
	sc.Assumptions = b.notes.done()
	return sc, p, nil
}

type builder struct {
	sn    *Snapshot
	f     Files
	notes notes
	// profile is the scenario's profile: hadoop-3.4 when the configuration
	// uses weights, which only Hadoop 3.4 reads; else the default.
	profile string
	cfg     map[string]string
	tree    *config.Parsed
	min     Res
	// nodes
	nodeList []scenarios.NodeSpec
	nodeIdx  map[string]int // node id -> index
	byHTTP   map[string]int
	byHost   map[string]int
	room     []Res // capacity left
	budget   []Res // used the RM reports, not yet placed
	// bcur and rcur skip the nodes with less than the minimum allocation
	// of budget, or of room, left (fit).
	bcur, rcur int
	// apps
	live    []App
	leafOf  map[string]string // app -> leaf path
	amSize  map[string]Res    // queue -> assumed AM size
	restore scenarios.Restore
	hasAM   map[string]bool
	amRes   map[string]scenarios.Res // the AM container's size
	holds   map[string]bool
}

func (b *builder) source() string {
	names := []string{b.f.Scheduler.Name, b.f.Nodes.Name, b.f.Apps.Name}
	if b.f.Conf != nil {
		names = append(names, b.f.Conf.Name)
	}
	for _, c := range b.f.Containers {
		names = append(names, c.Name)
	}
	return "ResourceManager REST responses: " + strings.Join(names, ", ")
}

func pct(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// conf takes the given configuration or derives one from the queue tree.
func (b *builder) conf() {
	sn := b.sn
	if sn.Conf != nil {
		b.cfg = sn.Conf
		b.notes.add("", "the configuration is %s; yarn-site settings it leaves out take Hadoop's defaults", sn.ConfFile)
	} else {
		b.cfg = map[string]string{}
		children := map[string][]string{}
		for _, q := range sn.Queues {
			if q.Parent != "" {
				children[q.Parent] = append(children[q.Parent], q.Name)
			}
		}
		noAM := 0
		for _, q := range sn.Queues {
			key := func(s string) string { return config.QueueKey(q.Path, s) }
			if len(children[q.Path]) > 0 {
				b.cfg[key("queues")] = strings.Join(children[q.Path], ",")
			}
			if q.Parent != "" {
				if q.Capacity >= 0 {
					b.cfg[key("capacity")] = pct(q.Capacity)
				}
				if q.MaxCapacity >= 0 {
					b.cfg[key("maximum-capacity")] = pct(q.MaxCapacity)
				}
			}
			if q.State == "STOPPED" || q.State == "DRAINING" {
				b.cfg[key("state")] = "STOPPED"
			}
			if !q.Leaf {
				continue
			}
			if q.UserLimitFactor >= 0 {
				b.cfg[key("user-limit-factor")] = pct(q.UserLimitFactor)
			}
			if q.UserLimit >= 0 {
				b.cfg[key("minimum-user-limit-percent")] = pct(q.UserLimit)
			}
			if q.MaxAMPercent >= 0 {
				b.cfg[key("maximum-am-resource-percent")] = pct(q.MaxAMPercent)
			} else {
				noAM++
			}
			if q.MaxApplications >= 0 {
				b.cfg[key("maximum-applications")] = strconv.FormatInt(q.MaxApplications, 10)
			}
			if q.DefaultPriority > 0 {
				b.cfg[key("default-application-priority")] = strconv.FormatInt(q.DefaultPriority, 10)
			}
		}
		b.notes.add("", "no configuration file was given: the queues' capacities, maximum capacities, user limits and maximum applications come from the scheduler response; every other setting (node-locality-delay, resource calculator, minimum allocation, ACLs) takes Hadoop's default")
		if noAM > 0 {
			b.notes.add("", "%d leaf queues do not say their maximum-am-resource-percent (Hadoop before 3.0): the default 0.1 is assumed", noAM)
		}
	}
	b.min = Res{defaultMinMB, defaultMinVCores}
	if v, err := strconv.ParseInt(b.cfg["yarn.scheduler.minimum-allocation-mb"], 10, 64); err == nil && v > 0 {
		b.min.MemoryMB = v
	}
	if v, err := strconv.ParseInt(b.cfg["yarn.scheduler.minimum-allocation-vcores"], 10, 64); err == nil && v > 0 {
		b.min.VCores = v
	}
	for _, k := range slices.Sorted(maps.Keys(b.cfg)) {
		if strings.HasSuffix(k, "."+config.SuffixCapacity) && config.IsWeight(b.cfg[k]) {
			b.profile = scenarios.ProfileHadoop34
			b.notes.add("", "the configuration gives weights (%s = %s), which only Hadoop 3.4 reads: the scenario uses the hadoop-3.4 profile", k, b.cfg[k])
			break
		}
	}
	profile, _ := config.ParseProfile(b.profile)
	tree, err := config.Parse(config.FromMap(b.cfg), profile)
	if err == nil {
		b.tree = tree
	}
}

// nodes registers the running nodes.
func (b *builder) nodes() {
	b.nodeIdx, b.byHTTP, b.byHost = map[string]int{}, map[string]int{}, map[string]int{}
	left, labelled := 0, 0
	for _, n := range b.sn.Nodes {
		if n.State != "" && n.State != "RUNNING" && n.State != "NEW" {
			left++
			continue
		}
		if _, dup := b.nodeIdx[n.ID]; dup {
			b.notes.add("node-dup", "node %s is listed twice (%s): the second is left out", n.ID, n.where)
			continue
		}
		total := n.Used.add(n.Avail)
		if n.Avail.MemoryMB < 0 || n.Avail.VCores < 0 {
			b.notes.add("node-over", "node %s reports %d MB, %d vcores used but %d MB, %d vcores available (over-allocated, %s): its capacity is taken as their sum", n.ID, n.Used.MemoryMB, n.Used.VCores, n.Avail.MemoryMB, n.Avail.VCores, n.where)
		}
		if total.MemoryMB <= 0 || total.VCores <= 0 {
			b.notes.add("node-empty", "node %s reports no memory or no vcores (%s): it is left out", n.ID, n.where)
			continue
		}
		if len(b.nodeList) >= scenarios.MaxNodes {
			b.notes.add("", "the snapshot has more than %d running nodes: the others are left out", scenarios.MaxNodes)
			break
		}
		if len(n.Labels) > 0 {
			labelled++
		}
		rack := n.Rack
		if rack == "" {
			rack = scenarios.DefaultRack
		}
		i := len(b.nodeList)
		b.nodeIdx[n.ID] = i
		if n.HTTPAddress != "" {
			b.byHTTP[n.HTTPAddress] = i
		}
		if n.Host != "" {
			if _, ok := b.byHost[n.Host]; !ok {
				b.byHost[n.Host] = i
			}
		}
		b.nodeList = append(b.nodeList, scenarios.NodeSpec{Name: n.ID, Rack: rack, MemoryMB: total.MemoryMB, VCores: total.VCores})
		b.room = append(b.room, total)
		b.budget = append(b.budget, n.Used)
	}
	if left > 0 {
		b.notes.add("", "%d nodes that are not RUNNING (unhealthy, lost, decommissioned...) are left out, with any container on them", left)
	}
	if labelled > 0 {
		b.notes.add("", "%d nodes carry node labels; the import does not carry labels over yet, so every node is in the default partition (a scenario can give nodes labels: node_labels and a node's label)", labelled)
	}
	if b.sn.Ended > 0 {
		b.notes.add("", "%d finished, failed or killed applications in the apps response are left out", b.sn.Ended)
	}
}

// leafFor resolves an app's queue (a leaf's short name or full path).
func (b *builder) leafFor(name string) (string, string) {
	if b.tree == nil {
		return "", "the configuration is refused"
	}
	q, err := b.tree.Lookup(name)
	if i := strings.LastIndex(name, "."); q == nil && i > 0 {
		if p := b.tree.Queue(name[:i]); p != nil && p.ManagedParent {
			// An auto-created leaf: the restore creates it again, as
			// Hadoop's recovery does, when the mappings place the user there.
			return name, ""
		}
	}
	if err != nil || q == nil {
		return "", fmt.Sprintf("queue %q is not in the configuration", name)
	}
	if !q.IsLeaf() {
		return "", fmt.Sprintf("queue %q is a parent queue", name)
	}
	return q.Path, ""
}

// apps keeps the apps whose queue is a leaf the configuration has.
func (b *builder) keepApps() {
	if sortApps(b.sn.Apps) {
		b.notes.add("", "applications are taken in the order of their ids, as their submission order")
	} else {
		b.notes.add("", "applications are taken in the order the apps response lists them, as their submission order")
	}
	b.leafOf = map[string]string{}
	seen := map[string]bool{}
	for _, a := range b.sn.Apps {
		if seen[a.ID] {
			b.notes.add("app-dup", "application %s is listed twice (%s): the second is left out", a.ID, a.where)
			continue
		}
		seen[a.ID] = true
		leaf, why := b.leafFor(a.Queue)
		if why != "" {
			b.notes.add("app-queue", "application %s is left out: %s (%s)", a.ID, why, a.where)
			continue
		}
		if len(b.live) >= scenarios.MaxSteps {
			b.notes.add("", "more than %d live applications: the others are left out", scenarios.MaxSteps)
			break
		}
		b.leafOf[a.ID] = leaf
		b.live = append(b.live, a)
	}
	const systemKey, systemDefault = "yarn.scheduler.capacity.maximum-applications", 10000
	if _, given := b.cfg[systemKey]; !given && len(b.live) > systemDefault {
		b.cfg[systemKey] = strconv.Itoa(len(b.live))
		b.notes.add("", "%s is set to %d, the live applications of the snapshot (Hadoop's default %d would refuse the others)", systemKey, len(b.live), systemDefault)
	}
	// The AM size assumed for an app whose AM is not known: its leaf's AM
	// usage shared equally among its active apps.
	b.amSize = map[string]Res{}
	for _, q := range b.sn.Queues {
		if q.Leaf && q.NumActive > 0 && !q.AMUsed.zero() {
			am := Res{q.AMUsed.MemoryMB / q.NumActive, q.AMUsed.VCores / q.NumActive}
			am.MemoryMB -= am.MemoryMB % max(b.min.MemoryMB, 1)
			b.amSize[q.Path] = Res{max(am.MemoryMB, b.min.MemoryMB), max(am.VCores, b.min.VCores)}
		}
	}
}

func (b *builder) assumedAM(leaf string) Res {
	if am, ok := b.amSize[leaf]; ok {
		return am
	}
	return b.min
}
