package snapshot

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// maxAmount bounds a memory (MB) or vcores figure: 2^40, as scenario nodes.
const maxAmount = 1 << 40

// reader decodes one file, collecting problems.
type reader struct {
	file  string
	probs *Problems
}

func (r *reader) bad(path, format string, args ...any) {
	if len(*r.probs) < maxProblems {
		*r.probs = append(*r.probs, &Problem{File: r.file, Path: path, Msg: fmt.Sprintf(format, args...)})
	}
}

func at(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func idx(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }

// obj returns v as an element, or reports it.
func (r *reader) obj(v any, path, what string) (elem, bool) {
	m, ok := v.(elem)
	if !ok {
		r.bad(path, "must be %s (an object), not %s", what, describe(v))
	}
	return m, ok
}

// str reads an optional text field.
func (r *reader) str(m elem, key, path string) string {
	switch x := m[key].(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	default:
		r.bad(at(path, key), "must be a text, not %s", describe(x))
		return ""
	}
}

// number reads an optional number field; ok is false when it is absent
// or wrong (wrong is reported).
func (r *reader) number(m elem, key, path string) (float64, bool) {
	v, present := m[key]
	if !present || v == nil {
		return 0, false
	}
	var text string
	switch x := v.(type) {
	case json.Number:
		text = x.String()
	case string:
		text = strings.TrimSpace(x)
	default:
		r.bad(at(path, key), "must be a number, not %s", describe(v))
		return 0, false
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil && !strings.Contains(err.Error(), "range") {
		r.bad(at(path, key), "must be a number, not %q", clip(text))
		return 0, false
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		r.bad(at(path, key), "must be a finite number, not %s", clip(text))
		return 0, false
	}
	return f, true
}

// amount reads a non-negative whole amount up to maxAmount (MB, vcores,
// counts). The RM's -1 for "not known" reads as 0 where allowMinus1.
func (r *reader) amount(m elem, key, path string, allowMinus1 bool) int64 {
	f, ok := r.number(m, key, path)
	if !ok {
		return 0
	}
	switch {
	case f == -1 && allowMinus1:
		return 0
	case f < 0:
		r.bad(at(path, key), "must not be negative, not %v", f)
		return 0
	case f > maxAmount:
		r.bad(at(path, key), "%v is larger than %d, the largest amount read", f, int64(maxAmount))
		return 0
	case f != math.Trunc(f):
		r.bad(at(path, key), "must be a whole number, not %v", f)
		return 0
	}
	return int64(f)
}

// signed reads a whole amount that may be negative (a node's available
// resources are when it is over-allocated), within ±maxAmount.
func (r *reader) signed(m elem, key, path string) int64 {
	f, ok := r.number(m, key, path)
	if !ok {
		return 0
	}
	if f > maxAmount || f < -maxAmount || f != math.Trunc(f) {
		r.bad(at(path, key), "must be a whole number of at most %d, not %v", int64(maxAmount), f)
		return 0
	}
	return int64(f)
}

// percent reads a percentage in [0, 100]; -1 when absent.
func (r *reader) percent(m elem, key, path string) float64 {
	f, ok := r.number(m, key, path)
	if !ok {
		return -1
	}
	if f < 0 || f > 100 {
		r.bad(at(path, key), "must be a percentage between 0 and 100, not %v", f)
		return -1
	}
	return f
}

// res reads {memory, vCores} (ResourceInfo).
func (r *reader) res(m elem, key, path string) Res {
	v, ok := m[key]
	if !ok || v == nil || v == "" {
		return Res{}
	}
	o, ok := r.obj(v, at(path, key), "a resource {memory, vCores}")
	if !ok {
		return Res{}
	}
	p := at(path, key)
	return Res{MemoryMB: r.amount(o, "memory", p, false), VCores: r.amount(o, "vCores", p, false)}
}

// root returns the document's one top-level key's value, which must be an
// object (a missing one reads as empty when emptyOK: `{"apps": null}`).
func (r *reader) root(doc elem, key, what string) (elem, bool) {
	v, ok := doc[key]
	if !ok {
		keys := make([]string, 0, len(doc))
		for k := range doc {
			keys = append(keys, k)
		}
		r.bad("", "this is not %s: it has no %q at the top (found %s)", what, key, clip(strings.Join(keys, ", ")))
		return nil, false
	}
	if v == nil || v == "" {
		return elem{}, true
	}
	return r.obj(v, key, what)
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// decodeScheduler reads /ws/v1/cluster/scheduler.
func decodeScheduler(file string, doc elem, probs *Problems) []Queue {
	r := &reader{file: file, probs: probs}
	sch, ok := r.root(doc, "scheduler", "a /ws/v1/cluster/scheduler response")
	if !ok {
		return nil
	}
	info, ok := r.obj(sch["schedulerInfo"], "scheduler.schedulerInfo", "the scheduler's information")
	if !ok {
		return nil
	}
	if t := r.str(info, "type", "scheduler.schedulerInfo"); t != "" && t != "capacityScheduler" {
		r.bad("scheduler.schedulerInfo.type", "%q: yarnplay reads the Capacity Scheduler's state only (capacityScheduler)", t)
		return nil
	}
	var out []Queue
	r.queue(info, "scheduler.schedulerInfo", "", &out, 0)
	return out
}

func (r *reader) queue(m elem, path, parent string, out *[]Queue, depth int) {
	if depth > 16 {
		r.bad(path, "queues nest deeper than 16 levels below root")
		return
	}
	name := r.str(m, "queueName", path)
	q := Queue{Name: name, Parent: parent, where: path, UserLimit: -1, UserLimitFactor: -1, MaxAMPercent: -1, MaxApplications: -1, DefaultPriority: -1}
	switch {
	case name == "":
		r.bad(at(path, "queueName"), "a queue needs a name")
		return
	case strings.Contains(name, "."):
		r.bad(at(path, "queueName"), "queue name %q contains a dot", clip(name))
		return
	case parent == "":
		q.Path = name
	default:
		q.Path = parent + "." + name
	}
	q.Capacity = r.percent(m, "capacity", path)
	q.MaxCapacity = r.percent(m, "maxCapacity", path)
	q.State = r.str(m, "state", path)
	q.Used = r.res(m, "resourcesUsed", path)
	children := items(nil)
	if qs, ok := m["queues"]; ok && qs != nil && qs != "" {
		if qm, ok := r.obj(qs, at(path, "queues"), "the child queues {queue: [...]}"); ok {
			children = items(qm["queue"])
		}
	}
	q.Leaf = len(children) == 0
	if q.Leaf {
		r.leaf(m, path, &q)
	}
	*out = append(*out, q)
	for i, c := range children {
		cp := idx(at(path, "queues.queue"), i)
		if cm, ok := r.obj(c, cp, "a queue"); ok {
			r.queue(cm, cp, q.Path, out, depth+1)
		}
	}
}

func (r *reader) leaf(m elem, path string, q *Queue) {
	if f, ok := r.number(m, "userLimit", path); ok {
		q.UserLimit = f
	}
	if f, ok := r.number(m, "userLimitFactor", path); ok {
		if f < 0 && f != -1 {
			r.bad(at(path, "userLimitFactor"), "must not be negative, not %v", f)
		} else {
			q.UserLimitFactor = f
		}
	}
	if f, ok := r.number(m, "configuredMaxAMResourceLimit", path); ok {
		if f < 0 || f > 1 {
			r.bad(at(path, "configuredMaxAMResourceLimit"), "must be a fraction between 0 and 1, not %v", f)
		} else {
			q.MaxAMPercent = f
		}
	}
	if _, ok := m["maxApplications"]; ok {
		q.MaxApplications = r.amount(m, "maxApplications", path, false)
	}
	if _, ok := m["defaultPriority"]; ok {
		q.DefaultPriority = r.amount(m, "defaultPriority", path, false)
	}
	q.AMUsed = r.res(m, "usedAMResource", path)
	q.NumActive = r.amount(m, "numActiveApplications", path, false)
	q.NumPending = r.amount(m, "numPendingApplications", path, false)
	us, ok := m["users"]
	if !ok || us == nil || us == "" {
		return
	}
	um, ok := r.obj(us, at(path, "users"), "the users {user: [...]}")
	if !ok {
		return
	}
	for i, u := range items(um["user"]) {
		up := idx(at(path, "users.user"), i)
		o, ok := r.obj(u, up, "a user")
		if !ok {
			continue
		}
		q.Users = append(q.Users, User{
			Name: r.str(o, "username", up), Used: r.res(o, "resourcesUsed", up), AMUsed: r.res(o, "AMResourceUsed", up),
			Active: r.amount(o, "numActiveApplications", up, false), Pending: r.amount(o, "numPendingApplications", up, false),
		})
	}
}

// decodeNodes reads /ws/v1/cluster/nodes.
func decodeNodes(file string, doc elem, probs *Problems) []Node {
	r := &reader{file: file, probs: probs}
	ns, ok := r.root(doc, "nodes", "a /ws/v1/cluster/nodes response")
	if !ok {
		return nil
	}
	var out []Node
	for i, v := range items(ns["node"]) {
		p := idx("nodes.node", i)
		m, ok := r.obj(v, p, "a node")
		if !ok {
			continue
		}
		n := Node{
			ID: r.str(m, "id", p), Host: r.str(m, "nodeHostName", p), HTTPAddress: r.str(m, "nodeHTTPAddress", p),
			Rack: r.str(m, "rack", p), State: r.str(m, "state", p), where: p,
			Used:          Res{r.amount(m, "usedMemoryMB", p, false), r.amount(m, "usedVirtualCores", p, false)},
			Avail:         Res{r.signed(m, "availMemoryMB", p), r.signed(m, "availableVirtualCores", p)},
			NumContainers: r.amount(m, "numContainers", p, true),
		}
		if n.ID == "" {
			r.bad(at(p, "id"), "a node needs its id (host:port)")
			continue
		}
		for _, l := range items(m["nodeLabels"]) {
			if s, ok := l.(string); ok && s != "" {
				n.Labels = append(n.Labels, s)
			}
		}
		out = append(out, n)
	}
	return out
}

// liveStates are the application states the importer keeps.
var liveStates = map[string]bool{"NEW": true, "NEW_SAVING": true, "SUBMITTED": true, "ACCEPTED": true, "RUNNING": true}

// decodeApps reads /ws/v1/cluster/apps; finished apps are dropped.
func decodeApps(file string, doc elem, probs *Problems) (apps []App, ended int) {
	r := &reader{file: file, probs: probs}
	as, ok := r.root(doc, "apps", "a /ws/v1/cluster/apps response")
	if !ok {
		return nil, 0
	}
	for i, v := range items(as["app"]) {
		p := idx("apps.app", i)
		m, ok := r.obj(v, p, "an application")
		if !ok {
			continue
		}
		a := App{
			ID: r.str(m, "id", p), User: r.str(m, "user", p), Queue: r.str(m, "queue", p), State: r.str(m, "state", p),
			Allocated:         Res{r.amount(m, "allocatedMB", p, true), r.amount(m, "allocatedVCores", p, true)},
			Reserved:          Res{r.amount(m, "reservedMB", p, true), r.amount(m, "reservedVCores", p, true)},
			RunningContainers: r.amount(m, "runningContainers", p, true),
			AMHost:            r.str(m, "amHostHttpAddress", p), where: p,
		}
		if _, ok := m["priority"]; ok {
			a.Priority = r.amount(m, "priority", p, false)
		}
		a.AMUsed = r.appAMUsed(m, p)
		if !liveStates[a.State] {
			if a.State == "" {
				r.bad(at(p, "state"), "an application needs its state (ACCEPTED, RUNNING...)")
			}
			ended++
			continue
		}
		switch {
		case a.ID == "":
			r.bad(at(p, "id"), "an application needs its id")
			continue
		case a.User == "":
			r.bad(at(p, "user"), "application %s needs its user", a.ID)
			continue
		case a.Queue == "":
			r.bad(at(p, "queue"), "application %s needs its queue", a.ID)
			continue
		}
		if rr, ok := m["resourceRequests"]; ok {
			a.HasAsks = true
			for j, x := range items(rr) {
				ap := idx(at(p, "resourceRequests"), j)
				if o, ok := r.obj(x, ap, "a resource request"); ok {
					a.Asks = append(a.Asks, r.ask(o, ap))
				}
			}
		}
		apps = append(apps, a)
	}
	return apps, ended
}

// appAMUsed reads resourceInfo.resourceUsagesByPartition[""].amUsed.
func (r *reader) appAMUsed(m elem, p string) Res {
	ri, ok := m["resourceInfo"].(elem)
	if !ok {
		return Res{}
	}
	p = at(p, "resourceInfo.resourceUsagesByPartition")
	for i, v := range items(ri["resourceUsagesByPartition"]) {
		u, ok := r.obj(v, idx(p, i), "a partition's usage")
		if ok && r.str(u, "partitionName", idx(p, i)) == "" {
			return r.res(u, "amUsed", idx(p, i))
		}
	}
	return Res{}
}

func (r *reader) ask(m elem, p string) Ask {
	k := Ask{
		Resource: r.res(m, "capability", p), Count: r.amount(m, "numContainers", p, false),
		Locality: r.str(m, "resourceName", p), RelaxLocality: true, Label: r.str(m, "nodeLabelExpression", p),
	}
	if k.Locality == "" {
		k.Locality = "*"
	}
	if v, ok := m["relaxLocality"]; ok {
		switch x := v.(type) {
		case bool:
			k.RelaxLocality = x
		case string:
			k.RelaxLocality = x != "false"
		}
	}
	// priority: a number (Hadoop 3) or {priority: n} (Hadoop 2).
	if pm, ok := m["priority"].(elem); ok {
		k.Priority = r.amount(pm, "priority", at(p, "priority"), false)
	} else {
		k.Priority = r.amount(m, "priority", p, false)
	}
	return k
}

// decodeContainers reads an attempt's containers response
// ({"containers": {"container": [...]}}, or its inner object).
func decodeContainers(file string, doc elem, probs *Problems) []Container {
	r := &reader{file: file, probs: probs}
	base, path := doc, ""
	if c, ok := doc["containers"]; ok {
		if c == nil || c == "" {
			return nil
		}
		m, ok := r.obj(c, "containers", "the containers {container: [...]}")
		if !ok {
			return nil
		}
		base, path = m, "containers"
	} else if _, ok := doc["container"]; !ok {
		r.bad("", "this is not an attempt's containers response: it has no \"containers\" or \"container\" at the top")
		return nil
	}
	var out []Container
	for i, v := range items(base["container"]) {
		p := idx(at(path, "container"), i)
		m, ok := r.obj(v, p, "a container")
		if !ok {
			continue
		}
		switch st := r.str(m, "containerState", p); st {
		case "", "NEW", "ALLOCATED", "ACQUIRED", "RUNNING", "RESERVED":
		default:
			continue // COMPLETE and the like: no longer running
		}
		c := Container{ID: r.str(m, "containerId", p), where: p,
			Size:     Res{r.amount(m, "allocatedMB", p, false), r.amount(m, "allocatedVCores", p, false)},
			Priority: r.amount(m, "priority", p, false),
		}
		c.Node = r.str(m, "assignedNodeId", p)
		if c.Node == "" {
			c.Node = r.str(m, "nodeId", p)
		}
		app, seq, ok := parseContainerID(c.ID)
		if !ok {
			r.bad(at(p, "containerId"), "%q is not a container id (container_<cluster>_<app>_<attempt>_<n>)", clip(c.ID))
			continue
		}
		c.App, c.AM = app, seq == 1
		if ext := r.str(m, "appId", p); ext != "" {
			c.App = ext // yarnplay's export of an app without a Hadoop id
		}
		if c.Node == "" {
			r.bad(p, "container %s names no node (assignedNodeId or nodeId)", c.ID)
			continue
		}
		out = append(out, c)
	}
	return out
}

// parseContainerID splits container_[e<epoch>_]<cluster>_<app>_<attempt>_<n>
// into its application id and its sequence number (1 is the AM's).
func parseContainerID(id string) (app string, seq int64, ok bool) {
	parts := strings.Split(id, "_")
	if len(parts) > 0 && parts[0] != "container" {
		return "", 0, false
	}
	if len(parts) == 6 && strings.HasPrefix(parts[1], "e") {
		parts = append(parts[:1], parts[2:]...)
	}
	if len(parts) != 5 {
		return "", 0, false
	}
	for _, p := range parts[1:] {
		if _, err := strconv.ParseUint(p, 10, 63); err != nil {
			return "", 0, false
		}
	}
	n, _ := strconv.ParseInt(parts[4], 10, 64)
	return "application_" + parts[1] + "_" + parts[2], n & (1<<40 - 1), true
}

// decodeConfJSON reads the JSON form of /ws/v1/cluster/scheduler-conf:
// {"property": [{"name", "value"}]}, at the top or in "configuration".
func decodeConfJSON(file string, doc elem, probs *Problems) map[string]string {
	r := &reader{file: file, probs: probs}
	base, path := doc, ""
	if c, ok := doc["configuration"].(elem); ok {
		base, path = c, "configuration"
	}
	if _, ok := base["property"]; !ok {
		r.bad("", "this is not a configuration: it has no \"property\" list")
		return nil
	}
	out := map[string]string{}
	for i, v := range items(base["property"]) {
		p := idx(at(path, "property"), i)
		m, ok := r.obj(v, p, "a property {name, value}")
		if !ok {
			continue
		}
		name := r.str(m, "name", p)
		if name == "" {
			r.bad(at(p, "name"), "a property needs a name")
			continue
		}
		out[name] = r.str(m, "value", p)
	}
	return out
}
