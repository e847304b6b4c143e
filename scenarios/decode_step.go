package scenarios

import (
	"math"
	"strings"
)

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
		if err := d.stepField(st, f.key, f.val, d.sub(path, f.key)); err != nil {
			return err
		}
	}
	return d.oneKind(v, path, st)
}

// stepField decodes the key (one of stepKeys) of step st from val, at path
// p: shared with the one-pass reader.
func (d *decoder) stepField(st *Step, key string, val *value, p string) error {
	var err error
	switch key {
	case KindSubmit:
		st.Submit, err = d.submit(val, p)
	case KindRequest:
		st.Request, err = d.request(val, p)
	case KindHeartbeat:
		st.Heartbeat, err = d.heartbeat(val, p)
	case KindTick:
		n := 1
		if val.kind != vNull {
			n, err = d.intIn(val, p, 0)
		}
		st.Tick = &n
	case KindFinishContainer:
		st.FinishContainer, err = d.finishContainer(val, p)
	case KindFinishApp:
		st.FinishApp, err = d.str(val, p)
		if err == nil && st.FinishApp == "" {
			err = d.errAt(val, p, "must name an app")
		}
	case KindKillApp:
		st.KillApp, err = d.killApp(val, p)
	case KindRefresh:
		st.Refresh, err = d.refresh(val, p)
	case KindAddNode:
		st.AddNode, err = d.nodeSpec(val, p)
	case KindRemoveNode:
		st.RemoveNode, err = d.removeNode(val, p)
	case KindPreemptionSnapshot:
		var g any
		if g, err = d.generic(val, p); err == nil {
			m, ok := g.(map[string]any)
			if !ok {
				err = d.errAt(val, p, "must be a map (cluster, queues), not %s", val.describe())
			}
			st.PreemptionSnapshot = m
		}
	case KindPreemptionRound:
		st.PreemptionRound, err = d.preemptionRound(val, p)
	case KindRestore:
		st.Restore, err = d.restore(val, p)
	case KindExpect:
		st.Expect, err = d.expect(val, p)
	case "error":
		st.Error, err = d.texts(val, p)
	case "error_any":
		st.ErrorAny, err = d.texts(val, p)
	case "note":
		st.Note, err = d.str(val, p)
	}
	return err
}

// oneKind refuses a step (v, at path) that sets no kind or more than one.
func (d *decoder) oneKind(v *value, path string, st *Step) error {
	if st.Kind() == "" {
		ks := st.Kinds()
		if len(ks) == 0 {
			return d.errAt(v, path, "a step needs a kind: one of %s", strings.Join(StepKinds, ", "))
		}
		return d.errAt(v, path, "a step has exactly one kind; this one has %s", strings.Join(ks, " and "))
	}
	return nil
}

// submitKeySet is the keys of a submit, the first 3 required.
var submitKeySet = keySet{[]string{"app", "user", "queue", "am", "am_container_request", "priority", "label", "am_label"}, 3}

func (d *decoder) submit(v *value, path string) (*Submit, error) {
	fs, err := d.fields(v, path, submitKeySet.keys)
	if err != nil {
		return nil, err
	}
	if err := d.require(v, path, fs, submitKeySet.must()...); err != nil {
		return nil, err
	}
	s := &Submit{}
	for _, f := range fs {
		if err := d.submitField(s, f.key, f.val, d.sub(path, f.key)); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// submitField decodes the key (one of submitKeySet) of submit s from val, at
// path p: shared with the one-pass reader.
func (d *decoder) submitField(s *Submit, key string, val *value, p string) error {
	var err error
	switch key {
	case "app":
		s.App, err = d.str(val, p)
	case "user":
		s.User, err = d.str(val, p)
	case "queue":
		s.Queue, err = d.str(val, p)
	case "am":
		if val.kind != vNull {
			var r Res
			r, err = d.res(val, p)
			s.AM = &r
		}
	case "am_container_request":
		var b bool
		b, err = d.boolean(val, p)
		s.AMContainerRequest = &b
	case "priority":
		var n int64
		n, err = d.integer(val, p, math.MinInt32, math.MaxInt32)
		pr := int(n)
		s.Priority = &pr
	case "label":
		s.Label, err = d.str(val, p)
	case "am_label":
		s.AMLabel, err = d.str(val, p)
	}
	return err
}

// askKeySet is the keys of an ask, the first 4 required.
var askKeySet = keySet{[]string{"app", "priority", "resource", "count", "locality", "relax_locality", "duration", "label"}, 4}

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
	fs, err := d.fields(v, path, askKeySet.keys)
	if err != nil {
		return Ask{}, err
	}
	if err := d.require(v, path, fs, askKeySet.must()...); err != nil {
		return Ask{}, err
	}
	var a Ask
	for _, f := range fs {
		if err := d.askField(&a, f.key, f.val, d.sub(path, f.key)); err != nil {
			return Ask{}, err
		}
	}
	return a, nil
}

// askField decodes the key (one of askKeySet) of ask a from val, at path p:
// shared with the one-pass reader.
func (d *decoder) askField(a *Ask, key string, val *value, p string) error {
	var err error
	switch key {
	case "app":
		a.App, err = d.str(val, p)
	case "priority":
		a.Priority, err = d.intIn(val, p, 0)
	case "resource":
		a.Resource, err = d.res(val, p)
	case "count":
		a.Count, err = d.intIn(val, p, 0)
	case "locality":
		a.Locality, err = d.str(val, p)
	case "relax_locality":
		var b bool
		b, err = d.boolean(val, p)
		a.RelaxLocality = &b
	case "duration":
		a.Duration, err = d.integer(val, p, 0, math.MaxInt64/4)
	case "label":
		var l string
		if val.kind != vNull {
			l, err = d.str(val, p)
		}
		a.Label = &l
	}
	return err
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
