package scenarios

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"yarnplay/core/config"
)

// Validate checks the scenario before it runs: version 1, a known profile,
// nodes with names (unique after expansion) within MaxNodes and
// MaxNodeResource, a configuration within MaxQueues and MaxQueueDepth, and
// for every step exactly one kind, its required values, non-negative
// counts, apps submitted by an earlier step and nodes that exist when they
// heartbeat; node heartbeats within MaxStepHeartbeats a step and
// MaxHeartbeats in all, asks within MaxAskedContainers. It returns nil or an Errors
// list (at most 50) whose entries name the step (steps[i], step i+1) and
// its line.
func (sc *Scenario) Validate() error {
	// Quietly first: the paths are for the messages only, and saved work
	// at scale would build hundreds of thousands of them.
	if !sc.validate(true).failed {
		return nil
	}
	return sc.validate(false).errs
}

// validate checks sc; quiet leaves the errors' paths and messages out,
// only saying whether there are any (failed).
func (sc *Scenario) validate(quiet bool) *validator {
	// The maps are made at the sizes they reach (a scenario of 20,000
	// apps grew them a dozen times over, rehashing every entry).
	apps, nodes := 0, 0
	for i := range sc.Steps {
		if sc.Steps[i].Submit != nil {
			apps++
		}
	}
	for _, n := range sc.Nodes {
		nodes = min(nodes+min(max(n.Count, 1), MaxNodes), MaxNodes)
	}
	v := &validator{sc: sc, errPaths: errPaths{quiet}, apps: make(map[string]int, apps),
		nodes: make(map[string]bool, nodes), everNodes: make(map[string]bool, nodes)}
	v.top()
	v.steps()
	return v
}

type validator struct {
	sc   *Scenario
	errs Errors
	// errPaths quiet builds no path, and add no message (Validate):
	// failed says whether there would be an error.
	errPaths
	failed bool
	// apps maps a submitted app to the step that submitted it.
	apps map[string]int
	// nodes are the nodes registered at the current step; everNodes every
	// node the scenario ever names by adding it.
	nodes, everNodes map[string]bool
	totalNodes       int
	// removed counts the nodes remove_node steps name; heartbeats the node
	// heartbeats heartbeat and tick steps make.
	removed    int
	heartbeats int64
	// asked counts the containers of every ask of every request step.
	asked int64
	// conf tracks the configuration through refresh steps, for MaxQueues.
	conf map[string]string
}

func (v *validator) add(path string, line int, format string, args ...any) {
	v.failed = true
	if v.quiet || len(v.errs) >= maxErrors {
		return
	}
	v.errs = append(v.errs, &Error{File: v.sc.File, Path: path, Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (v *validator) top() {
	sc := v.sc
	if sc.Version != 0 && sc.Version != FormatVersion {
		v.add("version", 0, "version %d is not supported; this yarnplay reads version %d", sc.Version, FormatVersion)
	}
	switch sc.Profile {
	case "", ProfileHadoop3, ProfileHadoop33, ProfileHadoop34, ProfileHadoop2:
	default:
		v.add("profile", 0, "unknown profile %q; use %s", sc.Profile, config.ProfileNames)
	}
	for _, k := range sortedKeys(sc.Config) {
		if strings.TrimSpace(k) == "" {
			v.add("config", 0, "a property name must not be empty")
		}
	}
	for _, u := range sortedKeys(sc.Groups) {
		if u == "" {
			v.add("groups", 0, "a user name must not be empty")
		}
	}
	for i, t := range sc.ConfigError {
		if t == "" {
			v.add(v.index("config_error", i), 0, "must not be empty")
		}
	}
	v.budgets()
	for i, l := range sc.NodeLabels {
		if l.Name == "" {
			v.add(v.index("node_labels", i), 0, "a node label needs a name")
		}
	}
	for i := range sc.Nodes {
		v.addNodes(&sc.Nodes[i], v.index("nodes", i), sc.Nodes[i].Line, true)
	}
	conf, err := sc.startConfigMap()
	if err != nil {
		v.add("config_xml", 0, "%v", err)
		return
	}
	v.conf = conf
	if msg := queueLimits(conf); msg != "" {
		v.add("config", 0, "%s", msg)
	}
}

func (v *validator) hasNodeLabel(name string) bool {
	for _, l := range v.sc.NodeLabels {
		if l.Name == name {
			return true
		}
	}
	return false
}

// addNodes checks a node spec and registers its nodes (when register).
func (v *validator) addNodes(n *NodeSpec, path string, line int, register bool) {
	if n.Name == "" {
		v.add(path, line, "a node needs a name")
		return
	}
	if n.Count < 0 || n.MemoryMB < 0 || n.VCores < 0 {
		v.add(path, line, "count, memory_mb and vcores must not be negative")
		return
	}
	if n.Label != "" && !v.hasNodeLabel(n.Label) {
		v.add(path+".label", line, "node label %q is not one of the scenario's node_labels", n.Label)
		return
	}
	if n.MemoryMB > MaxNodeResource || n.VCores > MaxNodeResource {
		v.add(path, line, "memory_mb and vcores must be at most %d (2^40), the limit on a node's size", int64(MaxNodeResource))
		return
	}
	if msg := nodeNameTooLong(n); msg != "" {
		v.add(path, line, "%s", msg)
		return
	}
	count := max(n.Count, 1)
	if v.totalNodes+count > MaxNodes {
		v.add(path, line, "more than %d nodes (counting every count and add_node); the limit is %d nodes", MaxNodes, MaxNodes)
		v.totalNodes = MaxNodes + 1
		return
	}
	v.totalNodes += count
	if n.Count > 1 && !strings.Contains(n.Name, "{i}") {
		v.add(path, line, "name %q needs {i} to number its %d nodes (e.g. \"n{i}\")", n.Name, n.Count)
		return
	}
	for _, name := range ExpandNames(n.Name, n.Count) {
		if register && v.nodes[name] {
			v.add(path, line, "node %q is already registered", name)
			return
		}
		if register {
			v.nodes[name] = true
		}
		v.everNodes[name] = true
	}
}

// ExpandNames returns the node names a spec with this name and count
// stands for: "{i}" replaced by 0..count-1; a count of 0 means one node.
func ExpandNames(name string, count int) []string {
	if count <= 0 {
		count = 1
	}
	if !strings.Contains(name, "{i}") {
		return []string{name}
	}
	out := make([]string, count)
	for i := range out {
		out[i] = strings.ReplaceAll(name, "{i}", strconv.Itoa(i))
	}
	return out
}

func (v *validator) steps() {
	if len(v.sc.Steps) > MaxSteps {
		// As a file or a link holding them would be refused.
		v.add("steps", 0, "%d steps; the limit is %d steps", len(v.sc.Steps), MaxSteps)
		return
	}
	snapshot := false
	for i := range v.sc.Steps {
		st := &v.sc.Steps[i]
		path := v.stepPath(i)
		kind, n := st.kind()
		switch {
		case n == 0:
			v.add(path, st.Line, "a step needs a kind: one of %s", strings.Join(StepKinds, ", "))
			continue
		case n > 1:
			v.add(path, st.Line, "a step has exactly one kind; this one has %s", strings.Join(st.Kinds(), " and "))
			continue
		}
		mayFail := len(st.Error) > 0 || len(st.ErrorAny) > 0
		for j, t := range st.Error {
			if t == "" {
				v.add(v.index(path+".error", j), st.Line, "must not be empty")
			}
		}
		for j, t := range st.ErrorAny {
			if t == "" {
				v.add(v.index(path+".error_any", j), st.Line, "must not be empty")
			}
		}
		p := v.sub(path, kind)
		switch kind {
		case KindSubmit:
			v.submit(st.Submit, p, st.Line, i, mayFail)
		case KindRequest:
			if len(st.Request) == 0 {
				v.add(p, st.Line, "needs at least one ask")
			}
			for j, a := range st.Request {
				ap := p
				if len(st.Request) > 1 {
					ap = v.index(p, j)
				}
				v.app(a.App, ap+".app", st.Line, mayFail)
				if a.Priority < 0 || a.Count < 0 || a.Duration < 0 || a.Resource.MemoryMB < 0 || a.Resource.VCores < 0 {
					v.add(ap, st.Line, "priority, count, duration and resource must not be negative")
				}
				v.countAsked(int64(a.Count), ap, st.Line)
			}
		case KindHeartbeat:
			var stepBeats int64
			if len(st.Heartbeat) == 0 {
				v.add(p, st.Line, "needs at least one node")
			}
			for j, h := range st.Heartbeat {
				hp := p
				if len(st.Heartbeat) > 1 {
					hp = v.index(p, j)
				}
				if h.Times < 0 {
					v.add(hp, st.Line, "times must not be negative")
				}
				v.countHeartbeats(int64(max(h.Times, 1)), hp, st.Line)
				v.node(h.Node, hp, st.Line, mayFail, v.nodes)
				stepBeats += int64(max(h.Times, 1))
			}
			v.stepHeartbeats(stepBeats, p, st.Line)
		case KindTick:
			if *st.Tick < 0 {
				v.add(p, st.Line, "must not be negative")
			}
			v.countHeartbeats(int64(*st.Tick)*int64(max(len(v.nodes), 1)), p, st.Line)
			v.stepHeartbeats(int64(*st.Tick)*int64(len(v.nodes)), p, st.Line)
		case KindFinishContainer:
			fc := st.FinishContainer
			v.app(fc.App, p+".app", st.Line, mayFail)
			if fc.Count < 0 {
				v.add(p+".count", st.Line, "must not be negative")
			}
			if fc.Node != "" {
				v.node(fc.Node, p+".node", st.Line, mayFail, v.everNodes)
			}
		case KindFinishApp:
			v.app(st.FinishApp, p, st.Line, mayFail)
		case KindKillApp:
			v.app(st.KillApp.App, p+".app", st.Line, mayFail)
			if st.KillApp.By == "" {
				v.add(p+".by", st.Line, "must name the user who kills the app")
			}
		case KindRefresh:
			v.refresh(st.Refresh, p, st.Line, mayFail)
		case KindAddNode:
			v.addNodes(st.AddNode, p, st.Line, !mayFail)
		case KindRemoveNode:
			v.removeNode(st.RemoveNode, p, st.Line, mayFail)
		case KindPreemptionSnapshot:
			if err := checkSnapshot(st.PreemptionSnapshot); err != nil {
				v.add(p, st.Line, "%v", err)
			}
			snapshot = true
		case KindPreemptionRound:
			if !snapshot && !mayFail {
				v.add(p, st.Line, "needs a preemption_snapshot step before it")
			}
			if st.PreemptionRound.NowMS < 0 {
				v.add(p+".now_ms", st.Line, "must not be negative")
			}
		case KindRestore:
			v.restore(st.Restore, p, st.Line, i, mayFail)
		case KindExpect:
			if mayFail {
				v.add(path, st.Line, "an expect step cannot carry error or error_any")
			}
			v.expect(st.Expect, p, st.Line)
		}
	}
}

func (v *validator) submit(s *Submit, p string, line, i int, mayFail bool) {
	if s.App == "" || s.User == "" || s.Queue == "" {
		v.add(p, line, "app, user and queue are required")
		return
	}
	if msg := submitNameTooLong(s); msg != "" {
		v.add(p, line, "%s", msg)
		return
	}
	if s.AM != nil && (s.AM.MemoryMB < 0 || s.AM.VCores < 0) {
		v.add(p+".am", line, "must not be negative")
	}
	if prev, ok := v.apps[s.App]; ok && !mayFail {
		v.add(p+".app", line, "app %q was already submitted at step %d", s.App, prev+1)
		return
	}
	if _, ok := v.apps[s.App]; !ok {
		v.apps[s.App] = i
	}
}

// app checks that an app was submitted by an earlier step (a step expected
// to fail may name any app).
func (v *validator) app(app, p string, line int, mayFail bool) {
	if app == "" {
		v.add(p, line, "must name an app")
		return
	}
	if _, ok := v.apps[app]; !ok && !mayFail && !v.full() {
		v.add(p, line, "app %q is not submitted by an earlier step%s", app, suggestFrom(app, v.apps))
	}
}

// node checks that a node is known (in set) at this step.
func (v *validator) node(name, p string, line int, mayFail bool, set map[string]bool) {
	if name == "" {
		v.add(p, line, "must name a node")
		return
	}
	if !set[name] && !mayFail && !v.full() {
		v.add(p, line, "no node %q at this step%s", name, suggestFrom(name, set))
	}
}

func (v *validator) removeNode(r *RemoveNode, p string, line int, mayFail bool) {
	if r.Name == "" {
		v.add(p, line, "must name a node")
		return
	}
	if r.Count < 0 {
		v.add(p+".count", line, "must not be negative")
		return
	}
	v.removed += max(r.Count, 1)
	if v.removed > MaxNodes {
		v.add(p, line, "more than %d nodes removed in all; the limit is %d nodes", MaxNodes, MaxNodes)
		v.removed = math.MinInt32 // report once
		return
	}
	for _, name := range ExpandNames(r.Name, r.Count) {
		v.node(name, p, line, mayFail, v.nodes)
		if !mayFail {
			delete(v.nodes, name)
		}
	}
}

func (v *validator) refresh(r *Refresh, p string, line int, mayFail bool) {
	for _, k := range r.Unset {
		if k == "" {
			v.add(p+".unset", line, "a property name must not be empty")
		}
	}
	if v.conf == nil || mayFail {
		return
	}
	queuesChanged := false
	if r.ReplaceConfig != nil {
		v.conf = make(map[string]string, len(r.ReplaceConfig))
		for k, val := range r.ReplaceConfig {
			v.conf[k] = val
		}
		queuesChanged = true
	}
	for k, val := range r.Set {
		v.conf[k] = val
		queuesChanged = queuesChanged || strings.HasSuffix(k, ".queues")
	}
	for _, k := range r.Unset {
		delete(v.conf, k)
		queuesChanged = queuesChanged || strings.HasSuffix(k, ".queues")
	}
	if queuesChanged {
		if msg := queueLimits(v.conf); msg != "" {
			v.add(p, line, "%s", msg)
		}
	}
}

// expect checks the names an expectation uses: apps submitted, nodes known.
func (v *validator) expect(e *Expect, p string, line int) {
	apps := func(key string, names []string) {
		for _, a := range names {
			v.app(a, p+"."+key+"."+a, line, false)
		}
	}
	nodes := func(key string, names []string) {
		for _, n := range names {
			v.node(n, p+"."+key+"."+n, line, false, v.everNodes)
		}
	}
	apps("app_state", sortedKeys(e.AppState))
	apps("app_consumption", sortedKeys(e.AppConsumption))
	apps("app_reserved", sortedKeys(e.AppReserved))
	apps("app_live_containers", sortedKeys(e.AppLiveContainers))
	apps("app_attempt", sortedKeys(e.AppAttempt))
	apps("app_reserved_containers", sortedKeys(e.AppReservedContainers))
	apps("app_headroom", sortedKeys(e.AppHeadroom))
	apps("app_outstanding", sortedKeys(e.AppOutstanding))
	apps("app_scheduling_opportunities", sortedKeys(e.AppSchedulingOpportunities))
	nodes("node_allocated", sortedKeys(e.NodeAllocated))
	nodes("node_reserved", sortedKeys(e.NodeReserved))
	if e.LastStepAllocations != nil {
		for i, a := range *e.LastStepAllocations {
			ap := v.index(p+".last_step_allocations", i)
			v.app(a.App, ap+".app", line, false)
			v.node(a.Node, ap+".node", line, false, v.everNodes)
			if !contains(localities, a.Locality) {
				v.add(ap+".locality", line, "must be one of %s", strings.Join(localities, ", "))
			}
		}
	}
	for _, c := range []struct {
		key     string
		m       map[string]string
		allowed []string
	}{
		{"queue_state", e.QueueState, queueStates},
		{"queue_type", e.QueueType, queueTypes},
		{"app_state", e.AppState, appStates},
	} {
		for _, name := range sortedKeys(c.m) {
			if !containsFold(c.allowed, c.m[name]) {
				v.add(p+"."+c.key+"."+name, line, "must be one of %s, not %q", strings.Join(c.allowed, ", "), c.m[name])
			}
		}
	}
	for i, a := range e.ACL {
		if a.Queue == "" || a.User == "" || !containsFold(aclNames, a.ACL) {
			v.add(v.index(p+".acl", i), line, "needs queue, user and acl (%s)", strings.Join(aclNames, " or "))
		}
	}
	for _, c := range []struct {
		key string
		m   map[string]map[string]int
	}{
		{"app_outstanding", e.AppOutstanding},
		{"app_scheduling_opportunities", e.AppSchedulingOpportunities},
	} {
		for _, app := range sortedKeys(c.m) {
			for _, pr := range sortedKeys(c.m[app]) {
				if _, err := parsePriority(pr); err != nil {
					v.add(p+"."+c.key+"."+app, line, "key %q must be a request priority (a whole number)", pr)
				}
			}
		}
	}
}

// full reports that no more problems are recorded.
func (v *validator) full() bool { return len(v.errs) >= maxErrors }

// suggestFrom is suggest over a set's names, skipped for large sets.
func suggestFrom[V any](name string, set map[string]V) string {
	if len(set) > 1000 {
		return ""
	}
	return suggest(name, sortedKeys(set))
}

// countHeartbeats adds n node heartbeats to the run's total.
func (v *validator) countHeartbeats(n int64, p string, line int) {
	v.heartbeats += n
	if v.heartbeats > MaxHeartbeats {
		v.add(p, line, "more than %d node heartbeats in all (counting ticks times nodes); the limit keeps a run bounded", MaxHeartbeats)
		v.heartbeats = math.MinInt64 / 2 // report once
	}
}

// countAsked adds an ask's containers to the scenario's total.
func (v *validator) countAsked(n int64, p string, line int) {
	v.asked += n
	if v.asked > MaxAskedContainers {
		v.add(p, line, "the asks of the request steps add up to more than %d containers; the limit keeps a run bounded", MaxAskedContainers)
		v.asked = math.MinInt64 / 2 // report once
	}
}

// stepHeartbeats checks the node heartbeats of one step.
func (v *validator) stepHeartbeats(n int64, p string, line int) {
	if n > MaxStepHeartbeats {
		v.add(p, line, "%d node heartbeats in one step (counting ticks times nodes); the limit is %d a step: split the step", n, MaxStepHeartbeats)
	}
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
