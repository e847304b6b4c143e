package store

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/scenarios"
)

// Issue is a configuration Hadoop refuses, as the editor shows it: on the
// queue it concerns, with Hadoop's message.
type Issue struct {
	// Queue is the full path of the queue concerned ("" when none is).
	Queue string
	// Property is the configuration key concerned, when one is.
	Property string
	// Message is Hadoop's message.
	Message string
}

// IssueOf reads the queue and property out of a configuration error
// (config.Error, or core's refused refresh); other errors give their text.
func IssueOf(err error) *Issue {
	if err == nil {
		return nil
	}
	var ce *config.Error
	if errors.As(err, &ce) {
		return &Issue{Queue: ce.Queue, Property: ce.Property, Message: ce.Message}
	}
	var re *core.RefreshError
	if errors.As(err, &re) {
		return &Issue{Queue: re.Queue, Property: re.Property, Message: re.Error()}
	}
	return &Issue{Message: err.Error()}
}

// CheckConfig says whether Hadoop would take conf at the current step: at
// the start, as the configuration it starts with; later, as a
// `-refreshQueues`. It changes nothing.
func (s *Store) CheckConfig(conf map[string]string) error {
	if s.step == 0 {
		profile, err := config.ParseProfile(orDefault(s.doc.Profile, scenarios.ProfileHadoop3))
		if err != nil {
			return err
		}
		_, err = config.Parse(config.FromMap(conf), profile)
		return err
	}
	return s.cur.Scheduler().Clone().Refresh(config.FromMap(conf))
}

// SetConfig makes conf the configuration from the current step on, keeping
// the later steps (they replay with it: "fork from here"). At the start it
// replaces the scenario's configuration; later it becomes a `refresh` step
// after the current one (or amends the refresh the viewer stands on). A
// configuration Hadoop refuses is refused with Hadoop's message.
func (s *Store) SetConfig(conf map[string]string) error {
	if err := s.CheckConfig(conf); err != nil {
		return s.refuse(err)
	}
	cur := s.cur.Scheduler().Conf().Map()
	set, unset := diffConf(cur, conf)
	if len(set) == 0 && len(unset) == 0 {
		return s.ok()
	}
	d := s.edit()
	if s.step == 0 {
		d.Config, d.ConfigXML = maps.Clone(conf), ""
		return s.commit(d, -1, 0, nil)
	}
	if prev := d.Steps[s.step-1]; prev.Refresh != nil && prev.Refresh.ReplaceConfig == nil && len(prev.Error) == 0 && len(prev.ErrorAny) == 0 {
		r := &scenarios.Refresh{Set: maps.Clone(prev.Refresh.Set), Unset: slices.Clone(prev.Refresh.Unset)}
		if r.Set == nil {
			r.Set = map[string]string{}
		}
		for k, v := range set {
			r.Set[k] = v
			r.Unset = slices.DeleteFunc(r.Unset, func(u string) bool { return u == k })
		}
		for _, k := range unset {
			delete(r.Set, k)
			if !slices.Contains(r.Unset, k) {
				r.Unset = append(r.Unset, k)
			}
		}
		prev.Refresh = r
		d.Steps[s.step-1] = prev
		return s.commit(d, s.step-1, s.step, stepMustSucceed)
	}
	st := scenarios.Step{Refresh: &scenarios.Refresh{Set: set, Unset: unset}}
	d.Steps = slices.Insert(d.Steps, s.step, st)
	return s.commit(d, s.step, s.step+1, stepMustSucceed)
}

// diffConf is what changes a into b: keys to set and keys to unset.
func diffConf(a, b map[string]string) (map[string]string, []string) {
	set := map[string]string{}
	var unset []string
	for k, v := range b {
		if old, ok := a[k]; !ok || old != v {
			set[k] = v
		}
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			unset = append(unset, k)
		}
	}
	slices.Sort(unset)
	if len(set) == 0 {
		set = nil
	}
	return set, unset
}

// Queue tree editing: pure functions from a configuration to a new one.
// None changes its argument.

// queuesKey is the property listing a queue's children.
func queuesKey(path string) string { return config.QueueKey(path, config.SuffixQueues) }

// Children returns a queue's children's names, in order, from conf.
func Children(conf map[string]string, path string) []string {
	var out []string
	for _, n := range strings.Split(conf[queuesKey(path)], ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

func parentOf(path string) (string, string) {
	i := strings.LastIndexByte(path, '.')
	if i < 0 {
		return "", path
	}
	return path[:i], path[i+1:]
}

func setChildren(conf map[string]string, path string, names []string) {
	if len(names) == 0 {
		delete(conf, queuesKey(path))
		return
	}
	conf[queuesKey(path)] = strings.Join(names, ",")
}

// validName refuses names Hadoop cannot have as a queue name.
func validName(name string) error {
	switch {
	case name == "":
		return errors.New("a queue needs a name")
	case strings.ContainsAny(name, ". ,\t\n"):
		return fmt.Errorf("queue name %q: a name cannot contain dots, commas or spaces", name)
	}
	return nil
}

// AddQueue adds a child queue under parent. The first child of a leaf gets
// capacity 100; a later child gets 0, so the siblings still sum to 100.
func AddQueue(conf map[string]string, parent, name string) (map[string]string, error) {
	name = strings.TrimSpace(name)
	if err := validName(name); err != nil {
		return nil, err
	}
	kids := Children(conf, parent)
	if slices.Contains(kids, name) {
		return nil, fmt.Errorf("queue %s already has a child named %s", parent, name)
	}
	out := maps.Clone(conf)
	capacity := "0"
	if len(kids) == 0 {
		capacity = "100"
	}
	setChildren(out, parent, append(kids, name))
	out[config.QueueKey(parent+"."+name, config.SuffixCapacity)] = capacity
	return out, nil
}

// RenameQueue renames a queue; its subtree's properties follow it.
func RenameQueue(conf map[string]string, path, name string) (map[string]string, error) {
	name = strings.TrimSpace(name)
	if err := validName(name); err != nil {
		return nil, err
	}
	parent, old := parentOf(path)
	if parent == "" {
		return nil, errors.New("the root queue cannot be renamed")
	}
	if name == old {
		return maps.Clone(conf), nil
	}
	kids := Children(conf, parent)
	if slices.Contains(kids, name) {
		return nil, fmt.Errorf("queue %s already has a child named %s", parent, name)
	}
	i := slices.Index(kids, old)
	if i < 0 {
		return nil, fmt.Errorf("no queue %s", path)
	}
	kids[i] = name
	from, to := config.Prefix+path+".", config.Prefix+parent+"."+name+"."
	out := make(map[string]string, len(conf))
	for k, v := range conf {
		if rest, ok := strings.CutPrefix(k, from); ok {
			k = to + rest
		}
		out[k] = v
	}
	setChildren(out, parent, kids)
	return out, nil
}

// RemoveQueue removes a queue and its subtree. A parent left without
// children becomes a leaf.
func RemoveQueue(conf map[string]string, path string) (map[string]string, error) {
	parent, name := parentOf(path)
	if parent == "" {
		return nil, errors.New("the root queue cannot be removed")
	}
	kids := Children(conf, parent)
	i := slices.Index(kids, name)
	if i < 0 {
		return nil, fmt.Errorf("no queue %s", path)
	}
	out := maps.Clone(conf)
	prefix := config.Prefix + path + "."
	for k := range out {
		if strings.HasPrefix(k, prefix) {
			delete(out, k)
		}
	}
	setChildren(out, parent, slices.Delete(kids, i, i+1))
	return out, nil
}

// MoveQueue moves a queue among its siblings by delta places (-1: up).
func MoveQueue(conf map[string]string, path string, delta int) (map[string]string, error) {
	parent, name := parentOf(path)
	kids := Children(conf, parent)
	i := slices.Index(kids, name)
	if parent == "" || i < 0 {
		return nil, fmt.Errorf("no queue %s to move", path)
	}
	j := min(max(i+delta, 0), len(kids)-1)
	kids = slices.Delete(kids, i, i+1)
	kids = slices.Insert(kids, j, name)
	out := maps.Clone(conf)
	setChildren(out, parent, kids)
	return out, nil
}

// SetQueueProperty sets a queue's property (a config.Suffix* name); an
// empty value removes it, so the default applies.
func SetQueueProperty(conf map[string]string, path, suffix, value string) map[string]string {
	out := maps.Clone(conf)
	key := config.QueueKey(path, suffix)
	keep := strings.HasPrefix(suffix, "acl_") || suffix == config.SuffixAccessibleNodeLabels && value != "" // " ": the default partition only
	if strings.TrimSpace(value) == "" && !keep {
		delete(out, key)
	} else {
		out[key] = value
	}
	return out
}

// CapacitySum is the sum of the configured percentage capacities of a
// queue's children, in percent, and what remains to 100; ok is false when
// a capacity is not a number. Absolute capacities ("[memory=…,vcores=…]")
// and weights ("2w") are left out: AbsoluteChildren and Weights count
// them.
func CapacitySum(conf map[string]string, parent string) (sum, remaining float64, ok bool) {
	ok = true
	for _, c := range Children(conf, parent) {
		raw := conf[config.QueueKey(parent+"."+c, config.SuffixCapacity)]
		v := strings.TrimSpace(raw)
		if v == "" || config.IsAbsoluteResource(raw) || config.IsWeight(raw) {
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			ok = false
			continue
		}
		sum += f
	}
	return sum, 100 - sum, ok
}

// AbsoluteChildren counts the children of a queue whose capacity is an
// absolute resource ("[memory=…,vcores=…]", Hadoop 3.1+), of all its
// children.
func AbsoluteChildren(conf map[string]string, parent string) (absolute, children int) {
	kids := Children(conf, parent)
	for _, c := range kids {
		if config.IsAbsoluteResource(conf[config.QueueKey(parent+"."+c, config.SuffixCapacity)]) {
			absolute++
		}
	}
	return absolute, len(kids)
}

// WeightShare is a child queue whose capacity is a weight: its name, the
// value as written ("2w") and its share of the parent.
type WeightShare struct {
	Name, Value string
	Share       float64
}

// Weights lists the children of a queue whose capacity is a weight ("2w",
// Hadoop 3.4), each with its share of the parent: its weight over the sum
// of the weights (0 when they sum to 0); children counts all the
// children, and ok is false when a weight is not a number.
func Weights(conf map[string]string, parent string) (ws []WeightShare, children int, ok bool) {
	ok = true
	kids := Children(conf, parent)
	var sum float64
	var values []float64
	for _, c := range kids {
		raw := conf[config.QueueKey(parent+"."+c, config.SuffixCapacity)]
		if !config.IsWeight(raw) {
			continue
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(raw[:strings.Index(raw, "w")]), 64)
		if err != nil || f < 0 {
			ok = false
			continue
		}
		ws = append(ws, WeightShare{Name: c, Value: strings.TrimSpace(raw)})
		values = append(values, f)
		sum += f
	}
	if sum > 0 {
		for i := range ws {
			ws[i].Share = values[i] / sum
		}
	}
	return ws, len(kids), ok
}
