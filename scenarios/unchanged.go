package scenarios

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"yarnplay/core"
	"yarnplay/core/resource"
)

// stateView is everything a reader can see of the scheduler, to check that
// a step which fails changes nothing.
type stateView struct {
	queues  []core.QueueView
	apps    []core.AppView
	nodes   []core.NodeView
	conf    map[string]string
	cluster resource.Resource
	used    resource.Resource
	now     int64
}

func (p *Player) capture() *stateView {
	if p.s == nil {
		return &stateView{}
	}
	s := p.s
	return &stateView{
		queues: s.Queues(), apps: s.Apps(), nodes: s.Nodes(), conf: s.Conf().Map(),
		cluster: s.ClusterResource(), used: s.ClusterUsed(), now: s.Now(),
	}
}

// diff describes the first difference between two views, or returns "".
// An application that appears REJECTED after a refused submission is no
// change: the RM keeps rejected applications in that state.
func (a *stateView) diff(b *stateView) string {
	if a == nil || b == nil {
		return ""
	}
	if d := valueDiff("cluster resource", a.cluster, b.cluster); d != "" {
		return d
	}
	if d := valueDiff("cluster used", a.used, b.used); d != "" {
		return d
	}
	if a.now != b.now {
		return fmt.Sprintf("time moved from tick %d to %d", a.now, b.now)
	}
	if d := confDiff(a.conf, b.conf); d != "" {
		return d
	}
	name := func(q core.QueueView) string { return q.Path }
	if d := namedDiff("queue", namedList(a.queues, name), namedList(b.queues, name)); d != "" {
		return d
	}
	known := map[string]bool{}
	for _, x := range a.apps {
		known[x.ID] = true
	}
	var after []core.AppView
	for _, x := range b.apps {
		if known[x.ID] || x.State != core.AppRejected {
			after = append(after, x)
		}
	}
	id := func(x core.AppView) string { return x.ID }
	if d := namedDiff("app", namedList(a.apps, id), namedList(after, id)); d != "" {
		return d
	}
	node := func(n core.NodeView) string { return n.Name }
	return namedDiff("node", namedList(a.nodes, node), namedList(b.nodes, node))
}

func confDiff(a, b map[string]string) string {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	for _, k := range sortedKeys(keys) {
		va, oka := a[k]
		vb, okb := b[k]
		switch {
		case oka && !okb:
			return fmt.Sprintf("property %s was removed from the configuration", k)
		case !oka && okb:
			return fmt.Sprintf("property %s was added to the configuration (%q)", k, vb)
		case va != vb:
			return fmt.Sprintf("property %s changed from %q to %q", k, va, vb)
		}
	}
	return ""
}

// namedView is a view and its name.
type namedView struct {
	name string
	v    any
}

// namedList pairs each view of xs with its name.
func namedList[T any](xs []T, name func(T) string) []namedView {
	out := make([]namedView, len(xs))
	for i, x := range xs {
		out[i] = namedView{name(x), x}
	}
	return out
}

// namedDiff compares two lists of views by their names (namedList): not
// generic, for one copy in app.wasm instead of one per type of view.
func namedDiff(what string, a, b []namedView) string {
	byName := make(map[string]any, len(b))
	for _, x := range b {
		byName[x.name] = x.v
	}
	for _, x := range a {
		y, ok := byName[x.name]
		if !ok {
			return fmt.Sprintf("%s %s disappeared", what, x.name)
		}
		if d := valueDiff(what+" "+x.name, x.v, y); d != "" {
			return d
		}
	}
	if len(b) > len(a) {
		seen := make(map[string]bool, len(a))
		for _, x := range a {
			seen[x.name] = true
		}
		for _, y := range b {
			if !seen[y.name] {
				return fmt.Sprintf("%s %s appeared", what, y.name)
			}
		}
	}
	return ""
}

// valueDiff names the first field where two values differ. Equal values,
// what a step that fails leaves, are told by reflect.DeepEqual, which
// builds no path on the way (firstDiff names every field it passes).
func valueDiff(label string, a, b any) string {
	if reflect.DeepEqual(a, b) {
		return ""
	}
	path, va, vb, ok := firstDiff(reflect.ValueOf(a), reflect.ValueOf(b), "", 0)
	if ok {
		return ""
	}
	if path != "" {
		label += " " + strings.TrimPrefix(path, ".")
	}
	return fmt.Sprintf("%s changed from %s to %s", label, va, vb)
}

// firstDiff walks two values of the same type; ok is true when they are
// equal, else path locates the first difference and va, vb render it.
func firstDiff(a, b reflect.Value, path string, depth int) (string, string, string, bool) {
	if depth > 12 {
		return path, "…", "…", reflect.DeepEqual(a.Interface(), b.Interface())
	}
	if a.Type() == reflect.TypeOf(resource.Resource{}) {
		ra, rb := a.Interface().(resource.Resource), b.Interface().(resource.Resource)
		return path, ra.String(), rb.String(), ra == rb
	}
	switch a.Kind() {
	case reflect.Struct:
		for i := range a.NumField() {
			if !a.Type().Field(i).IsExported() {
				continue
			}
			if p, va, vb, ok := firstDiff(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name, depth+1); !ok {
				return p, va, vb, false
			}
		}
		return "", "", "", true
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() && b.IsNil() {
				return "", "", "", true
			}
			return path, render(a), render(b), false
		}
		return firstDiff(a.Elem(), b.Elem(), path, depth+1)
	case reflect.Slice:
		if a.Len() != b.Len() {
			return path, render(a), render(b), false
		}
		for i := range a.Len() {
			if p, va, vb, ok := firstDiff(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i), depth+1); !ok {
				return p, va, vb, false
			}
		}
		return "", "", "", true
	case reflect.Map:
		if reflect.DeepEqual(a.Interface(), b.Interface()) {
			return "", "", "", true
		}
		return path, render(a), render(b), false
	}
	if reflect.DeepEqual(a.Interface(), b.Interface()) {
		return "", "", "", true
	}
	return path, render(a), render(b), false
}

// render prints a value briefly and deterministically.
func render(v reflect.Value) string {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		return "none"
	}
	if v.Kind() == reflect.Map {
		keys := v.MapKeys()
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%v:%v", k.Interface(), v.MapIndex(k).Interface())
		}
		sort.Strings(parts)
		return "{" + strings.Join(parts, " ") + "}"
	}
	s := fmt.Sprintf("%v", v.Interface())
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
