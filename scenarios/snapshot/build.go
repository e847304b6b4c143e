package snapshot

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"yarnplay/core/config"
	"yarnplay/scenarios"
)

// File is one REST response (or configuration) as read: its name, for
// messages, and its bytes.
type File struct {
	Name string
	Data []byte
}

// Files are the responses a snapshot is made of. Scheduler, Nodes and
// Apps are required; Conf (capacity-scheduler.xml, or
// /ws/v1/cluster/scheduler-conf in XML or JSON) and Containers (attempts'
// containers responses) are optional.
type Files struct {
	Scheduler, Nodes, Apps File
	Conf                   *File
	Containers             []File
}

// Decode reads and checks every file. It returns Problems when any file is
// unreadable or holds a value that cannot be used (not a number, NaN,
// negative, larger than 2^40, a required field missing), every one named
// by file and path.
func Decode(f Files) (*Snapshot, error) {
	var probs Problems
	read := func(file File, dec func(elem)) {
		doc, err := parse(file.Name, file.Data)
		if err != nil {
			probs = append(probs, err.(*Problem))
			return
		}
		dec(doc)
	}
	sn := &Snapshot{}
	ended := 0
	read(f.Scheduler, func(d elem) { sn.Queues = decodeScheduler(f.Scheduler.Name, d, &probs) })
	read(f.Nodes, func(d elem) { sn.Nodes = decodeNodes(f.Nodes.Name, d, &probs) })
	read(f.Apps, func(d elem) { sn.Apps, ended = decodeApps(f.Apps.Name, d, &probs) })
	for _, c := range f.Containers {
		read(c, func(d elem) { sn.Containers = append(sn.Containers, decodeContainers(c.Name, d, &probs)...) })
	}
	if f.Conf != nil {
		sn.ConfFile = f.Conf.Name
		t := strings.TrimLeft(string(f.Conf.Data), " \t\r\n\ufeff")
		if strings.HasPrefix(t, "<") {
			c, err := config.ParseXML(f.Conf.Data)
			if err != nil {
				probs = append(probs, &Problem{File: f.Conf.Name, Msg: err.Error()})
			} else {
				sn.Conf = c.Map()
			}
		} else {
			read(*f.Conf, func(d elem) { sn.Conf = decodeConfJSON(f.Conf.Name, d, &probs) })
		}
	}
	if len(sn.Queues) == 0 && len(probs) == 0 {
		probs = append(probs, &Problem{File: f.Scheduler.Name, Path: "scheduler.schedulerInfo", Msg: "no queue found"})
	}
	if len(probs) > 0 {
		return nil, probs
	}
	sn.Ended = ended
	return sn, nil
}

// Import decodes a snapshot and turns it into a scenario (Build).
func Import(f Files) (*scenarios.Scenario, error) {
	sn, err := Decode(f)
	if err != nil {
		return nil, err
	}
	return Build(sn, f)
}

// sortApps orders apps by cluster timestamp then sequence number when
// every id is a Hadoop application id (the RM lists them in no order);
// otherwise the order read is kept.
func sortApps(apps []App) bool {
	type key struct{ ts, seq uint64 }
	keys := make(map[string]key, len(apps))
	for _, a := range apps {
		cluster, n, ok := hadoopAppIDParts(a.ID)
		if !ok {
			return false
		}
		ts, err1 := strconv.ParseUint(cluster, 10, 64)
		seq, err2 := strconv.ParseUint(n, 10, 64)
		if err1 != nil || err2 != nil {
			return false
		}
		keys[a.ID] = key{ts, seq}
	}
	sort.SliceStable(apps, func(i, j int) bool {
		a, b := keys[apps[i].ID], keys[apps[j].ID]
		if a.ts != b.ts {
			return a.ts < b.ts
		}
		return a.seq < b.seq
	})
	return true
}

// notes collects assumptions, aggregating repeated ones.
type notes struct {
	lines []string
	more  map[string]int
	shown map[string]int
}

// add records a sentence; group names a kind of note shown at most five
// times, the rest counted.
func (n *notes) add(group, format string, args ...any) {
	if n.shown == nil {
		n.shown, n.more = map[string]int{}, map[string]int{}
	}
	if group != "" {
		if n.shown[group] >= 5 {
			n.more[group]++
			return
		}
		n.shown[group]++
	}
	n.lines = append(n.lines, fmt.Sprintf(format, args...))
}

func (n *notes) done() []string {
	groups := make([]string, 0, len(n.more))
	for g := range n.more {
		groups = append(groups, g)
	}
	sort.Strings(groups)
	for _, g := range groups {
		n.lines = append(n.lines, fmt.Sprintf("... and %d more like the above (%s)", n.more[g], g))
	}
	return n.lines
}
