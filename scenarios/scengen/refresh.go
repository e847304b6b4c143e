package scengen

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/scenarios"
)

// refresh writes a refresh: most change the configuration in force in a
// way Hadoop accepts (maximum capacities, user limits, capacities
// redistributed, a queue added, stopped, restarted or removed, global
// settings), some in ways it refuses (capacities that do not sum to 100, a
// number that is not one, a running queue removed, a leaf turned into a
// parent). The change is written as set and unset, or now and then as a
// whole replace_config.
func (g *gen) refresh() scenarios.Step {
	s := g.p.Scheduler()
	cur := s.Conf().Map()
	m := maps.Clone(cur)
	var queues, leaves, parents []core.QueueView
	for _, q := range s.Queues() {
		queues = append(queues, q)
		if q.Leaf {
			leaves = append(leaves, q)
		} else {
			parents = append(parents, q)
		}
	}
	nonRoot := queues[1:]
	switch g.intn(13) {
	case 0:
		if len(nonRoot) > 0 {
			q := pick(g, nonRoot...)
			m[key(q.Path, config.SuffixMaximumCapacity)] = g.maxCapacity(m[key(q.Path, config.SuffixCapacity)])
		}
	case 1:
		q := pick(g, leaves...)
		m[key(q.Path, config.SuffixUserLimitFactor)] = pick(g, "0.5", "1", "2", "5")
		m[key(q.Path, config.SuffixMinimumUserLimitPercent)] = pick(g, "25", "50", "100")
		m[key(q.Path, config.SuffixMaximumAMResourcePercent)] = pick(g, "0.1", "0.3", "1")
	case 2:
		p := pick(g, parents...)
		g.resplit(m, p, p.Children)
	case 3: // a new leaf
		p := pick(g, parents...)
		name := g.freshName()
		m[key(p.Path, config.SuffixQueues)] += "," + name
		g.resplit(m, p, append(slices.Clone(p.Children), p.Path+"."+name))
	case 4:
		q := pick(g, nonRoot...)
		if len(leaves) > 1 && g.chance(2) {
			m[key(q.Path, config.SuffixState)] = "STOPPED"
		}
	case 5:
		q := pick(g, queues...)
		if g.chance(2) {
			m[key(q.Path, config.SuffixState)] = "RUNNING"
		} else {
			delete(m, key(q.Path, config.SuffixState))
		}
	case 6: // remove a leaf, most often a stopped one without applications
		var idle []core.QueueView
		for _, q := range leaves {
			if q.State == config.Stopped && q.NumApps == 0 {
				idle = append(idle, q)
			}
		}
		q := pick(g, leaves...)
		if len(idle) > 0 && !g.chance(4) {
			q = pick(g, idle...)
		}
		g.remove(m, q, queues)
	case 7: // capacities that do not sum to 100
		p := pick(g, parents...)
		c := p.Children[g.intn(len(p.Children))]
		m[key(c, config.SuffixCapacity)] = pick(g, "110", "1", "99.9")
	case 8: // a value that is not a number, or a maximum below the capacity
		q := pick(g, nonRoot...)
		if g.chance(2) {
			m[key(q.Path, pick(g, config.SuffixCapacity, config.SuffixUserLimitFactor, config.SuffixMaximumApplications))] = "lots"
		} else {
			m[key(q.Path, config.SuffixCapacity)] = "60"
			m[key(q.Path, config.SuffixMaximumCapacity)] = "40"
		}
	case 9:
		m[config.KeyReservationsContinueLook] = pick(g, "true", "false")
		m[config.KeyNodeLocalityDelay] = pick(g, "-1", "0", "3")
		m[config.KeyMaximumAMResourcePercent] = pick(g, "0.1", "0.5", "1")
	case 10: // a leaf becomes a parent
		q := pick(g, leaves...)
		name := g.freshName()
		m[key(q.Path, config.SuffixQueues)] = name
		m[key(q.Path+"."+name, config.SuffixCapacity)] = "100"
	case 11:
		m[config.KeyMaximumApplications] = pick(g, "20", "50", "10000")
	}
	if g.chance(6) {
		return scenarios.Step{Refresh: &scenarios.Refresh{ReplaceConfig: m}}
	}
	r := &scenarios.Refresh{}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if v, ok := cur[k]; !ok || v != m[k] {
			if r.Set == nil {
				r.Set = map[string]string{}
			}
			r.Set[k] = m[k]
		}
	}
	for _, k := range slices.Sorted(maps.Keys(cur)) {
		if _, ok := m[k]; !ok {
			r.Unset = append(r.Unset, k)
		}
	}
	return scenarios.Step{Refresh: r}
}

// resplit gives the children of p (full paths) new capacities summing to
// 100, raising a maximum capacity that would fall below its capacity.
func (g *gen) resplit(m map[string]string, p core.QueueView, children []string) {
	caps := g.split(len(children), p.Capacity > 0 || p.Parent == "")
	for i, c := range children {
		m[key(c, config.SuffixCapacity)] = caps[i]
		if mx, ok := m[key(c, config.SuffixMaximumCapacity)]; ok && number(mx) != -1 && number(mx) < number(caps[i]) {
			m[key(c, config.SuffixMaximumCapacity)] = "100"
		}
	}
}

// number reads a percentage; text that is not one reads as 0.
func number(s string) float64 {
	v, _ := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return v
}

// remove takes leaf q out of its parent's list, with its properties, and
// gives its siblings the parent's capacity. An only child is left alone.
func (g *gen) remove(m map[string]string, q core.QueueView, queues []core.QueueView) {
	var p core.QueueView
	for _, x := range queues {
		if x.Path == q.Parent {
			p = x
		}
	}
	var rest, names []string
	for _, c := range p.Children {
		if c != q.Path {
			rest = append(rest, c)
			names = append(names, c[len(p.Path)+1:])
		}
	}
	if len(rest) == 0 {
		return
	}
	m[key(p.Path, config.SuffixQueues)] = strings.Join(names, ",")
	prefix := config.Prefix + q.Path + "."
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if strings.HasPrefix(k, prefix) {
			delete(m, k)
		}
	}
	g.resplit(m, p, rest)
}
