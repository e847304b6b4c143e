package scenarios

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"go.yaml.in/yaml/v3"
)

// CanonicalJSON encodes the scenario as compact JSON in a stable form: keys
// in the format's order (top level and steps) or sorted (maps of names),
// empty and left-out values omitted, the shortest form of each value (one
// text as a string, one ask as a map, one heartbeat as the node's name).
// Equal scenarios encode to equal bytes; links and exports are built on it.
func (sc *Scenario) CanonicalJSON() ([]byte, error) {
	c := *sc
	if c.Version == 0 {
		c.Version = FormatVersion
	}
	return marshalJSON(&c)
}

// marshalJSON is json.Marshal without HTML escaping (`<` stays `<`).
func marshalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// yamlHeader heads an exported file.
const yamlHeader = "yarnplay scenario (format: scenarios/README.md in the yarnplay repository)"

// YAML exports the scenario as a YAML file that Parse reads back to the
// same scenario (equal CanonicalJSON): block style, with resources, node
// specs and short lists in flow style and multi-line texts as literal
// blocks.
func (sc *Scenario) YAML() ([]byte, error) {
	data, err := sc.CanonicalJSON()
	if err != nil {
		return nil, err
	}
	// Build the YAML tree from the JSON directly: a YAML parser would refuse
	// control characters that JSON strings may hold, and the encoder escapes.
	v, err := readJSON(data, math.MaxInt)
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	root := yamlNode(v)
	restyle(root, "")
	root.HeadComment = yamlHeader
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	return b.Bytes(), nil
}

// yamlNode converts a value tree to yaml.Node.
func yamlNode(v *value) *yaml.Node {
	switch v.kind {
	case vNull:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	case vScalar:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!" + v.tag, Value: v.text}
	}
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	if v.kind == vMap {
		n.Kind, n.Tag = yaml.MappingNode, "!!map"
	}
	n.Content = make([]*yaml.Node, len(v.content))
	for i, c := range v.content {
		n.Content[i] = yamlNode(c)
	}
	return n
}

// flowParents are keys whose map values read best on one line.
var flowParents = map[string]bool{
	"nodes": true, "add_node": true, "acl": true, "last_step_allocations": true,
	"heartbeat": true, "remove_node": true, "preemption_round": true,
	"finish_container": true, "kill_app": true, "submit": true, "request": true,
	"apps": true, "containers": true, "asks": true, // a restore's items, one a line
}

// blockParents are keys whose map values stay in block style.
var blockParents = map[string]bool{"steps": true, "config": true, "replace_config": true}

// restyle sets block style everywhere but in small values (resources, node
// specs, lists of plain texts), and literal style for multi-line texts.
// parent is the key the node is the value of (or an item of).
func restyle(n *yaml.Node, parent string) {
	n.Style = 0
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!str" && strings.Contains(n.Value, "\n") {
			n.Style = yaml.LiteralStyle
		}
	case yaml.MappingNode:
		if !blockParents[parent] && (isSmallMap(n) || flowParents[parent]) {
			n.Style = yaml.FlowStyle
			for _, c := range n.Content {
				flatten(c)
			}
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			n.Content[i].Style = 0
			restyle(n.Content[i+1], n.Content[i].Value)
		}
	case yaml.SequenceNode:
		allScalar := true
		for _, c := range n.Content {
			if c.Kind != yaml.ScalarNode || strings.Contains(c.Value, "\n") {
				allScalar = false
			}
		}
		if allScalar && len(n.Content) <= 16 {
			n.Style = yaml.FlowStyle
			for _, c := range n.Content {
				c.Style = 0
			}
			return
		}
		for _, c := range n.Content {
			restyle(c, parent)
		}
	}
}

// isSmallMap reports a map of at most four one-line scalar values.
func isSmallMap(n *yaml.Node) bool {
	if len(n.Content) > 8 {
		return false
	}
	for i := 1; i < len(n.Content); i += 2 {
		if c := n.Content[i]; c.Kind != yaml.ScalarNode || strings.Contains(c.Value, "\n") {
			return false
		}
	}
	return true
}

// flatten puts a value and everything in it in flow style (multi-line
// texts stay quoted, as flow style requires).
func flatten(n *yaml.Node) {
	n.Style = 0
	if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
		n.Style = yaml.FlowStyle
	}
	if n.Kind == yaml.ScalarNode && strings.Contains(n.Value, "\n") {
		n.Style = yaml.DoubleQuotedStyle
	}
	for _, c := range n.Content {
		flatten(c)
	}
}
