package scenarios

import (
	"math"
	"strings"
)

// topKeySet is the keys of a scenario.
var topKeySet = keySet{keys: []string{
	"version", "name", "description", "source", "notes", "assumptions", "profile", "config",
	"config_xml", "groups", "node_labels", "nodes", "config_error", "steps",
}}

// scenario decodes the top level.
func (d *decoder) scenario(v *value) (*Scenario, error) {
	if v.kind != vMap {
		return nil, d.errAt(v, "", "a scenario must be a map (version, name, config, nodes, steps...), not %s", v.describe())
	}
	fs, err := d.fields(v, "", topKeySet.keys)
	if err != nil {
		return nil, err
	}
	sc := &Scenario{File: d.file}
	for _, f := range fs {
		if err := d.scenarioField(sc, f.key, f.val); err != nil {
			return nil, err
		}
	}
	finishScenario(sc)
	return sc, nil
}

// scenarioField decodes the top-level key (one of topKeySet) of sc from val:
// each key's rule, which the one-pass reader (onepass.go) shares.
func (d *decoder) scenarioField(sc *Scenario, key string, val *value) error {
	var err error
	switch key {
	case "version":
		var n int64
		n, err = d.integer(val, key, math.MinInt32, math.MaxInt32)
		sc.Version = int(n)
	case "name":
		sc.Name, err = d.str(val, key)
	case "description":
		sc.Description, err = d.str(val, key)
	case "source":
		sc.Source, err = d.str(val, key)
	case "notes":
		sc.Notes, err = d.str(val, key)
	case "assumptions":
		sc.Assumptions, err = d.texts(val, key)
	case "profile":
		sc.Profile, err = d.str(val, key)
	case "config":
		sc.Config, err = d.configMap(val, key)
	case "config_xml":
		sc.ConfigXML, err = d.str(val, key)
	case "groups":
		sc.Groups, err = d.groups(val, key)
	case "node_labels":
		sc.NodeLabels, err = d.nodeLabels(val, key)
	case "nodes":
		sc.Nodes, err = d.nodes(val, key)
	case "config_error":
		sc.ConfigError, err = d.texts(val, key)
	case "steps":
		sc.Steps, err = d.steps(val, key)
	}
	return err
}

// finishScenario gives a decoded scenario the defaults of what it left
// out: version 1.
func finishScenario(sc *Scenario) {
	if sc.Version == 0 {
		sc.Version = FormatVersion
	}
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

// nodeKeySet is the keys of a node spec, the first required.
var nodeKeySet = keySet{[]string{"name", "rack", "memory_mb", "vcores", "count", "label"}, 1}

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
	fs, err := d.fields(v, path, nodeKeySet.keys)
	if err != nil {
		return nil, err
	}
	if err := d.require(v, path, fs, nodeKeySet.must()...); err != nil {
		return nil, err
	}
	n := &NodeSpec{Line: v.line}
	for _, f := range fs {
		if err := d.nodeField(n, f.key, f.val, d.sub(path, f.key)); err != nil {
			return nil, err
		}
	}
	return n, nil
}

// nodeField decodes the key (one of nodeKeySet) of node spec n from val, at
// path p: shared with the one-pass reader.
func (d *decoder) nodeField(n *NodeSpec, key string, val *value, p string) error {
	var err error
	switch key {
	case "name":
		n.Name, err = d.str(val, p)
	case "rack":
		n.Rack, err = d.str(val, p)
	case "memory_mb":
		n.MemoryMB, err = d.integer(val, p, 0, math.MaxInt64/4)
	case "vcores":
		n.VCores, err = d.integer(val, p, 0, math.MaxInt64/4)
	case "count":
		n.Count, err = d.intIn(val, p, 1)
	case "label":
		n.Label, err = d.str(val, p)
	}
	return err
}

// res reads an input resource; memory_mb is required.
func (d *decoder) res(v *value, path string) (Res, error) {
	mem, vcores, _, err := d.resource(v, path, 0)
	return Res{MemoryMB: mem, VCores: vcores}, err
}

// resourceKeySet is the keys of a resource, the first required.
var resourceKeySet = keySet{[]string{"memory_mb", "vcores"}, 1}

// resource reads {memory_mb, vcores}: memory_mb required, each value in
// [lowest, MaxInt64/4]; hasVCores says whether vcores was given.
func (d *decoder) resource(v *value, path string, lowest int64) (mem, vcores int64, hasVCores bool, err error) {
	fs, err := d.fields(v, path, resourceKeySet.keys)
	if err != nil {
		return 0, 0, false, err
	}
	if err := d.require(v, path, fs, resourceKeySet.must()...); err != nil {
		return 0, 0, false, err
	}
	var r resourceRead
	for _, f := range fs {
		if err := d.resourceField(&r, f.key, f.val, d.sub(path, f.key), lowest); err != nil {
			return 0, 0, false, err
		}
	}
	return r.mem, r.vcores, r.hasVCores, nil
}

// resourceRead is a resource as it is read.
type resourceRead struct {
	mem, vcores int64
	hasVCores   bool
}

// resourceField decodes the key (one of resourceKeySet) of resource r from
// val, at path p, in [lowest, MaxInt64/4]: shared with the one-pass
// reader.
func (d *decoder) resourceField(r *resourceRead, key string, val *value, p string, lowest int64) error {
	n, err := d.integer(val, p, lowest, math.MaxInt64/4)
	if err != nil {
		return err
	}
	if key == "memory_mb" {
		r.mem = n
	} else {
		r.vcores, r.hasVCores = n, true
	}
	return nil
}
