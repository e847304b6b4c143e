package scenarios

import (
	"math"
	"strings"
)

var topKeys = []string{
	"version", "name", "description", "source", "notes", "assumptions", "profile", "config",
	"config_xml", "groups", "node_labels", "nodes", "config_error", "steps",
}

// scenario decodes the top level.
func (d *decoder) scenario(v *value) (*Scenario, error) {
	if v.kind != vMap {
		return nil, d.errAt(v, "", "a scenario must be a map (version, name, config, nodes, steps...), not %s", v.describe())
	}
	fs, err := d.fields(v, "", topKeys)
	if err != nil {
		return nil, err
	}
	sc := &Scenario{File: d.file}
	for _, f := range fs {
		var err error
		switch f.key {
		case "version":
			var n int64
			n, err = d.integer(f.val, f.key, math.MinInt32, math.MaxInt32)
			sc.Version = int(n)
		case "name":
			sc.Name, err = d.str(f.val, f.key)
		case "description":
			sc.Description, err = d.str(f.val, f.key)
		case "source":
			sc.Source, err = d.str(f.val, f.key)
		case "notes":
			sc.Notes, err = d.str(f.val, f.key)
		case "assumptions":
			sc.Assumptions, err = d.texts(f.val, f.key)
		case "profile":
			sc.Profile, err = d.str(f.val, f.key)
		case "config":
			sc.Config, err = d.configMap(f.val, f.key)
		case "config_xml":
			sc.ConfigXML, err = d.str(f.val, f.key)
		case "groups":
			sc.Groups, err = d.groups(f.val, f.key)
		case "node_labels":
			sc.NodeLabels, err = d.nodeLabels(f.val, f.key)
		case "nodes":
			sc.Nodes, err = d.nodes(f.val, f.key)
		case "config_error":
			sc.ConfigError, err = d.texts(f.val, f.key)
		case "steps":
			sc.Steps, err = d.steps(f.val, f.key)
		}
		if err != nil {
			return nil, err
		}
	}
	if sc.Version == 0 {
		sc.Version = FormatVersion
	}
	return sc, nil
}

func (d *decoder) groups(v *value, path string) (map[string][]string, error) {
	fs, err := d.fields(v, path, nil)
	if err != nil {
		return nil, err
	}
	out := make(map[string][]string, len(fs))
	for _, f := range fs {
		var gs []string
		if f.val.kind == vScalar {
			// "g1,g2", as Hadoop writes group lists.
			for _, g := range strings.Split(f.val.text, ",") {
				if g = strings.TrimSpace(g); g != "" {
					gs = append(gs, g)
				}
			}
		} else if f.val.kind != vNull {
			if gs, err = d.stringList(f.val, d.sub(path, f.key)); err != nil {
				return nil, err
			}
		}
		out[f.key] = gs
	}
	return out, nil
}

func (d *decoder) nodes(v *value, path string) ([]NodeSpec, error) {
	if v.kind == vNull {
		return nil, nil
	}
	if v.kind != vSeq {
		return nil, d.errAt(v, path, "must be a list of nodes, not %s", v.describe())
	}
	out := make([]NodeSpec, 0, len(v.content))
	for i, it := range v.content {
		n, err := d.nodeSpec(it, d.index(path, i))
		if err != nil {
			return nil, err
		}
		out = append(out, *n)
	}
	return out, nil
}

var nodeKeys = []string{"name", "rack", "memory_mb", "vcores", "count", "label"}

var nodeLabelKeys = []string{"name", "exclusive"}

// nodeLabels reads the cluster's node labels: a list of {name,
// exclusive} maps, or of bare names (exclusive).
func (d *decoder) nodeLabels(v *value, path string) ([]NodeLabel, error) {
	if v.kind == vNull {
		return nil, nil
	}
	if v.kind != vSeq {
		return nil, d.errAt(v, path, "must be a list of node labels ({name, exclusive}), not %s", v.describe())
	}
	out := make([]NodeLabel, 0, len(v.content))
	for i, it := range v.content {
		p := d.index(path, i)
		if it.kind == vScalar {
			name, err := d.str(it, p)
			if err != nil {
				return nil, err
			}
			out = append(out, NodeLabel{Name: name})
			continue
		}
		fs, err := d.fields(it, p, nodeLabelKeys)
		if err != nil {
			return nil, err
		}
		if err := d.require(it, p, fs, "name"); err != nil {
			return nil, err
		}
		var l NodeLabel
		for _, f := range fs {
			switch f.key {
			case "name":
				l.Name, err = d.str(f.val, d.sub(p, f.key))
			case "exclusive":
				var b bool
				b, err = d.boolean(f.val, d.sub(p, f.key))
				l.Exclusive = &b
			}
			if err != nil {
				return nil, err
			}
		}
		out = append(out, l)
	}
	return out, nil
}

func (d *decoder) nodeSpec(v *value, path string) (*NodeSpec, error) {
	fs, err := d.fields(v, path, nodeKeys)
	if err != nil {
		return nil, err
	}
	if err := d.require(v, path, fs, "name"); err != nil {
		return nil, err
	}
	n := &NodeSpec{Line: v.line}
	for _, f := range fs {
		p := d.sub(path, f.key)
		switch f.key {
		case "name":
			n.Name, err = d.str(f.val, p)
		case "rack":
			n.Rack, err = d.str(f.val, p)
		case "memory_mb":
			n.MemoryMB, err = d.integer(f.val, p, 0, math.MaxInt64/4)
		case "vcores":
			n.VCores, err = d.integer(f.val, p, 0, math.MaxInt64/4)
		case "count":
			n.Count, err = d.intIn(f.val, p, 1)
		case "label":
			n.Label, err = d.str(f.val, p)
		}
		if err != nil {
			return nil, err
		}
	}
	return n, nil
}

// res reads an input resource; memory_mb is required.
func (d *decoder) res(v *value, path string) (Res, error) {
	mem, vcores, _, err := d.resource(v, path, 0)
	return Res{MemoryMB: mem, VCores: vcores}, err
}

// resource reads {memory_mb, vcores}: memory_mb required, each value in
// [lowest, MaxInt64/4]; hasVCores says whether vcores was given.
func (d *decoder) resource(v *value, path string, lowest int64) (mem, vcores int64, hasVCores bool, err error) {
	fs, err := d.fields(v, path, []string{"memory_mb", "vcores"})
	if err != nil {
		return 0, 0, false, err
	}
	if err := d.require(v, path, fs, "memory_mb"); err != nil {
		return 0, 0, false, err
	}
	for _, f := range fs {
		n, err := d.integer(f.val, d.sub(path, f.key), lowest, math.MaxInt64/4)
		if err != nil {
			return 0, 0, false, err
		}
		if f.key == "memory_mb" {
			mem = n
		} else {
			vcores, hasVCores = n, true
		}
	}
	return mem, vcores, hasVCores, nil
}

func (d *decoder) steps(v *value, path string) ([]Step, error) {
	if v.kind == vNull {
		return nil, nil
	}
	if v.kind != vSeq {
		return nil, d.errAt(v, path, "must be a list of steps, not %s", v.describe())
	}
	if len(v.content) > MaxSteps {
		return nil, d.errAt(v, path, "%d steps; the limit is %d steps", len(v.content), MaxSteps)
	}
	out := make([]Step, len(v.content))
	for i, it := range v.content {
		if err := d.step(it, d.stepPath(i), &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

var stepCommonKeys = []string{"error", "error_any", "note"}

var stepKeys = append(append([]string{}, StepKinds...), stepCommonKeys...)

func (d *decoder) step(v *value, path string, st *Step) error {
	if v.kind == vScalar && contains(StepKinds, v.text) {
		return d.errAt(v, path, "%q needs a value (write `%s: ...`)", v.text, v.text)
	}
	if v.kind != vMap {
		return d.errAt(v, path, "a step must be a map with one kind (%s), not %s", strings.Join(StepKinds, ", "), v.describe())
	}
	fs, err := d.fields(v, path, nil)
	if err != nil {
		return err
	}
	st.Line = v.line
	for _, f := range fs {
		if !contains(stepKeys, f.key) {
			return d.errAt(f.at, path, "unknown step kind or key %q%s", f.key, suggest(f.key, stepKeys))
		}
	}
	for _, f := range fs {
		p := d.sub(path, f.key)
		var err error
		switch f.key {
		case KindSubmit:
			st.Submit, err = d.submit(f.val, p)
		case KindRequest:
			st.Request, err = d.request(f.val, p)
		case KindHeartbeat:
			st.Heartbeat, err = d.heartbeat(f.val, p)
		case KindTick:
			n := 1
			if f.val.kind != vNull {
				n, err = d.intIn(f.val, p, 0)
			}
			st.Tick = &n
		case KindFinishContainer:
			st.FinishContainer, err = d.finishContainer(f.val, p)
		case KindFinishApp:
			st.FinishApp, err = d.str(f.val, p)
			if err == nil && st.FinishApp == "" {
				err = d.errAt(f.val, p, "must name an app")
			}
		case KindKillApp:
			st.KillApp, err = d.killApp(f.val, p)
		case KindRefresh:
			st.Refresh, err = d.refresh(f.val, p)
		case KindAddNode:
			st.AddNode, err = d.nodeSpec(f.val, p)
		case KindRemoveNode:
			st.RemoveNode, err = d.removeNode(f.val, p)
		case KindPreemptionSnapshot:
			var g any
			if g, err = d.generic(f.val, p); err == nil {
				m, ok := g.(map[string]any)
				if !ok {
					err = d.errAt(f.val, p, "must be a map (cluster, queues), not %s", f.val.describe())
				}
				st.PreemptionSnapshot = m
			}
		case KindPreemptionRound:
			st.PreemptionRound, err = d.preemptionRound(f.val, p)
		case KindRestore:
			st.Restore, err = d.restore(f.val, p)
		case KindExpect:
			st.Expect, err = d.expect(f.val, p)
		case "error":
			st.Error, err = d.texts(f.val, p)
		case "error_any":
			st.ErrorAny, err = d.texts(f.val, p)
		case "note":
			st.Note, err = d.str(f.val, p)
		}
		if err != nil {
			return err
		}
	}
	if st.Kind() == "" {
		ks := st.Kinds()
		if len(ks) == 0 {
			return d.errAt(v, path, "a step needs a kind: one of %s", strings.Join(StepKinds, ", "))
		}
		return d.errAt(v, path, "a step has exactly one kind; this one has %s", strings.Join(ks, " and "))
	}
	return nil
}

var submitKeys = []string{"app", "user", "queue", "am", "am_container_request", "priority", "label", "am_label"}

func (d *decoder) submit(v *value, path string) (*Submit, error) {
	fs, err := d.fields(v, path, submitKeys)
	if err != nil {
		return nil, err
	}
	if err := d.require(v, path, fs, "app", "user", "queue"); err != nil {
		return nil, err
	}
	s := &Submit{}
	for _, f := range fs {
		p := d.sub(path, f.key)
		switch f.key {
		case "app":
			s.App, err = d.str(f.val, p)
		case "user":
			s.User, err = d.str(f.val, p)
		case "queue":
			s.Queue, err = d.str(f.val, p)
		case "am":
			if f.val.kind != vNull {
				var r Res
				r, err = d.res(f.val, p)
				s.AM = &r
			}
		case "am_container_request":
			var b bool
			b, err = d.boolean(f.val, p)
			s.AMContainerRequest = &b
		case "priority":
			var n int64
			n, err = d.integer(f.val, p, math.MinInt32, math.MaxInt32)
			pr := int(n)
			s.Priority = &pr
		case "label":
			s.Label, err = d.str(f.val, p)
		case "am_label":
			s.AMLabel, err = d.str(f.val, p)
		}
		if err != nil {
			return nil, err
		}
	}
	return s, nil
}

var askKeys = []string{"app", "priority", "resource", "count", "locality", "relax_locality", "duration", "label"}

func (d *decoder) request(v *value, path string) (Asks, error) {
	if v.kind == vMap {
		a, err := d.ask(v, path)
		if err != nil {
			return nil, err
		}
		return Asks{a}, nil
	}
	if v.kind != vSeq {
		return nil, d.errAt(v, path, "must be an ask {app, priority, resource, count, locality} or a list of them, not %s", v.describe())
	}
	if len(v.content) == 0 {
		return nil, d.errAt(v, path, "must not be an empty list")
	}
	out := make(Asks, 0, len(v.content))
	for i, it := range v.content {
		a, err := d.ask(it, d.index(path, i))
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

func (d *decoder) ask(v *value, path string) (Ask, error) {
	fs, err := d.fields(v, path, askKeys)
	if err != nil {
		return Ask{}, err
	}
	if err := d.require(v, path, fs, "app", "priority", "resource", "count"); err != nil {
		return Ask{}, err
	}
	var a Ask
	for _, f := range fs {
		p := d.sub(path, f.key)
		switch f.key {
		case "app":
			a.App, err = d.str(f.val, p)
		case "priority":
			a.Priority, err = d.intIn(f.val, p, 0)
		case "resource":
			a.Resource, err = d.res(f.val, p)
		case "count":
			a.Count, err = d.intIn(f.val, p, 0)
		case "locality":
			a.Locality, err = d.str(f.val, p)
		case "relax_locality":
			var b bool
			b, err = d.boolean(f.val, p)
			a.RelaxLocality = &b
		case "duration":
			a.Duration, err = d.integer(f.val, p, 0, math.MaxInt64/4)
		case "label":
			var l string
			if f.val.kind != vNull {
				l, err = d.str(f.val, p)
			}
			a.Label = &l
		}
		if err != nil {
			return Ask{}, err
		}
	}
	return a, nil
}

func (d *decoder) heartbeat(v *value, path string) (Heartbeats, error) {
	if v.kind == vSeq {
		if len(v.content) == 0 {
			return nil, d.errAt(v, path, "must not be an empty list")
		}
		out := make(Heartbeats, 0, len(v.content))
		for i, it := range v.content {
			h, err := d.heartbeatSpec(it, d.index(path, i))
			if err != nil {
				return nil, err
			}
			out = append(out, h)
		}
		return out, nil
	}
	h, err := d.heartbeatSpec(v, path)
	if err != nil {
		return nil, err
	}
	return Heartbeats{h}, nil
}

func (d *decoder) heartbeatSpec(v *value, path string) (HeartbeatSpec, error) {
	if v.kind == vScalar {
		if v.text == "" {
			return HeartbeatSpec{}, d.errAt(v, path, "must name a node")
		}
		return HeartbeatSpec{Node: v.text}, nil
	}
	if v.kind != vMap {
		return HeartbeatSpec{}, d.errAt(v, path, "must be a node name, {node, times} or a list of node names, not %s", v.describe())
	}
	fs, err := d.fields(v, path, []string{"node", "times"})
	if err != nil {
		return HeartbeatSpec{}, err
	}
	if err := d.require(v, path, fs, "node"); err != nil {
		return HeartbeatSpec{}, err
	}
	var h HeartbeatSpec
	for _, f := range fs {
		if f.key == "node" {
			h.Node, err = d.str(f.val, d.sub(path, f.key))
		} else {
			h.Times, err = d.intIn(f.val, d.sub(path, f.key), 0)
		}
		if err != nil {
			return HeartbeatSpec{}, err
		}
	}
	if h.Times == 1 {
		h.Times = 0 // once, as when left out
	}
	return h, nil
}

func (d *decoder) finishContainer(v *value, path string) (*FinishContainer, error) {
	fs, err := d.fields(v, path, []string{"app", "count", "node"})
	if err != nil {
		return nil, err
	}
	if err := d.require(v, path, fs, "app", "count"); err != nil {
		return nil, err
	}
	fc := &FinishContainer{}
	for _, f := range fs {
		p := d.sub(path, f.key)
		switch f.key {
		case "app":
			fc.App, err = d.str(f.val, p)
		case "count":
			fc.Count, err = d.intIn(f.val, p, 0)
		case "node":
			fc.Node, err = d.str(f.val, p)
		}
		if err != nil {
			return nil, err
		}
	}
	return fc, nil
}

func (d *decoder) killApp(v *value, path string) (*KillApp, error) {
	fs, err := d.fields(v, path, []string{"app", "by"})
	if err != nil {
		return nil, err
	}
	if err := d.require(v, path, fs, "app", "by"); err != nil {
		return nil, err
	}
	k := &KillApp{}
	for _, f := range fs {
		if f.key == "app" {
			k.App, err = d.str(f.val, d.sub(path, f.key))
		} else {
			k.By, err = d.str(f.val, d.sub(path, f.key))
		}
		if err != nil {
			return nil, err
		}
	}
	return k, nil
}

func (d *decoder) refresh(v *value, path string) (*Refresh, error) {
	r := &Refresh{}
	if v.kind == vNull {
		return r, nil
	}
	fs, err := d.fields(v, path, []string{"set", "unset", "replace_config"})
	if err != nil {
		return nil, err
	}
	for _, f := range fs {
		p := d.sub(path, f.key)
		switch f.key {
		case "set":
			r.Set, err = d.configMap(f.val, p)
		case "unset":
			r.Unset, err = d.stringList(f.val, p)
		case "replace_config":
			r.ReplaceConfig, err = d.configMap(f.val, p)
			if err == nil && len(r.ReplaceConfig) == 0 {
				err = d.errAt(f.val, p, "must not be empty (a configuration needs at least yarn.scheduler.capacity.root.queues)")
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return r, nil
}

func (d *decoder) removeNode(v *value, path string) (*RemoveNode, error) {
	if v.kind == vScalar {
		return &RemoveNode{Name: v.text}, nil
	}
	fs, err := d.fields(v, path, []string{"name", "count"})
	if err != nil {
		return nil, err
	}
	if err := d.require(v, path, fs, "name"); err != nil {
		return nil, err
	}
	r := &RemoveNode{}
	for _, f := range fs {
		if f.key == "name" {
			r.Name, err = d.str(f.val, d.sub(path, f.key))
		} else {
			r.Count, err = d.intIn(f.val, d.sub(path, f.key), 1)
		}
		if err != nil {
			return nil, err
		}
	}
	return r, nil
}

func (d *decoder) preemptionRound(v *value, path string) (*PreemptionRound, error) {
	r := &PreemptionRound{}
	if v.kind == vNull {
		return r, nil
	}
	fs, err := d.fields(v, path, []string{"now_ms"})
	if err != nil {
		return nil, err
	}
	for _, f := range fs {
		if r.NowMS, err = d.integer(f.val, d.sub(path, f.key), 0, math.MaxInt64/4); err != nil {
			return nil, err
		}
	}
	return r, nil
}
