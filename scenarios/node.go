package scenarios

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"yarnplay/core/config"
)

// A document is read into a small tree of values with line numbers (from
// YAML through yaml.Node, from JSON through a streaming tokenizer that never
// builds yaml.Node trees), then decoded strictly into a Scenario. The tree
// is bounded: at most maxValues values (aliases counted at every use) and
// maxDepth levels.

type vkind uint8

const (
	vNull vkind = iota
	vScalar
	vMap
	vSeq
)

// value is one node of a document.
type value struct {
	kind vkind
	// tag of a scalar: "str", "int", "float" or "bool".
	tag string
	// text of a scalar.
	text string
	line int
	// content: for a map, key, value, key, value...; for a list, its items.
	content []*value
	// size counts the values of this subtree (itself included).
	size int
}

// String names a kind for messages.
func (k vkind) String() string {
	switch k {
	case vNull:
		return "null"
	case vScalar:
		return "a scalar"
	case vMap:
		return "a map"
	default:
		return "a list"
	}
}

// describe names what a value is, for "must be X, not Y" messages.
func (v *value) describe() string {
	if v.kind != vScalar {
		return v.kind.String()
	}
	switch v.tag {
	case "str":
		return "a string"
	case "int", "float":
		return "a number"
	case "bool":
		return "a boolean"
	}
	return "a " + v.tag
}

// Limits on documents.
const (
	// MaxFileBytes is the largest scenario file (and inflated link) read.
	MaxFileBytes = 4 << 20
	// MaxSavedBytes is the largest scenario of work the playground kept
	// for itself (DecodeSavedLink): MaxSteps steps of submissions or asks
	// take about 20 MB of canonical JSON.
	MaxSavedBytes = 32 << 20
	// MaxSteps is the largest number of steps: a link to the last of
	// 30,000 ticks opened in 3.6 s in headless Chromium, in one 3 s task
	// (100,000 took 9.8 s, in one 5 s task; 1.8 s natively). Benchmark
	// 1's playground scenario has 20,200.
	MaxSteps = 25_000
	// MaxNodes is the largest number of nodes, after expansion of counts,
	// over the initial nodes and every add_node step.
	MaxNodes = 10_000
	// MaxQueues is the largest number of queues a configuration may define,
	// root included: the page draws every queue in its capacities table
	// (1,000 queues render in about 0.5 s natively, 4 MB of HTML, and
	// opened in 5.3 s in headless Chromium; 20,000 froze a tab 38 s).
	// Benchmark 5's tree (1,000 leaves, 1,111 queues) is the scale the
	// playground is measured at, so it must open. config.Parse allows
	// config.MaxQueues.
	MaxQueues = 1_200
	// MaxQueueDepth is the deepest a queue may be below root (root.a is 1
	// level deep); config.Parse refuses deeper trees too.
	MaxQueueDepth = config.MaxQueueDepth
	// MaxStepHeartbeats bounds the node heartbeats of one step (a heartbeat
	// step with its times, or a tick times the nodes present): a step's
	// decision record is kept whole, a few events per heartbeat.
	MaxStepHeartbeats = 100_000
	// MaxNodeResource bounds a node's memory_mb and vcores (2^40): with
	// MaxNodes nodes the cluster's total stays far from overflowing.
	MaxNodeResource = 1 << 40
	// MaxAskedContainers bounds the containers all the asks of all request
	// steps add up to: it bounds the allocations a run can make and keeps
	// pending resources (count times size) from overflowing.
	MaxAskedContainers = 1_000_000
	// MaxHeartbeats bounds the node heartbeats a run makes: heartbeat steps
	// (times included) plus, for each tick, the nodes present. A link to
	// the last step plays them all as it opens: a million take about 0.6 s
	// natively (10 million took 6 s, 20 to 30 s in the page).
	MaxHeartbeats = 1_000_000
	// maxValues bounds the values of a document (aliases counted each time
	// they are used).
	maxValues = 1_000_000
	// maxDepth bounds nesting.
	maxDepth = 64
)

var errTooManyValues = fmt.Errorf("the document has more than %d values (maps, lists and scalars); the limit keeps loading bounded", maxValues)

// readDocument parses data as JSON when it looks like JSON and is valid
// JSON, and as YAML otherwise.
func readDocument(data []byte) (*value, error) {
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		v, err := readJSON(data, maxValues)
		if err == nil {
			return v, nil
		}
		var se *syntaxError
		if !errors.As(err, &se) {
			return nil, err
		}
		// Perhaps YAML in flow style: try that, but report the JSON error
		// if YAML fails too.
		if yv, yerr := readYAML(data); yerr == nil {
			return yv, nil
		}
		return nil, err
	}
	return readYAML(data)
}

// syntaxError is a document that is not well-formed.
type syntaxError struct {
	line int
	msg  string
}

// Error renders the problem with its line.
func (e *syntaxError) Error() string {
	if e.line > 0 {
		return fmt.Sprintf("%s (line %d)", e.msg, e.line)
	}
	return e.msg
}

// yamlErrorLine reads the first line of a yaml.v3 error, "yaml: line 3:
// did not find expected key" or "yaml: control characters are not
// allowed", into its line number as written ("" when it gives none) and
// its message; ok is false for any other text. It stands for the regular
// expression ^yaml: (?:line (\d+): )?(.*)$ (node_test.go holds it to it):
// package regexp would add some 240 KB of code to app.wasm.
func yamlErrorLine(first string) (line, msg string, ok bool) {
	rest, found := strings.CutPrefix(first, "yaml: ")
	if !found || strings.Contains(rest, "\n") {
		return "", "", false
	}
	if after, found := strings.CutPrefix(rest, "line "); found {
		digits := len(after) - len(strings.TrimLeft(after, "0123456789"))
		if digits > 0 && strings.HasPrefix(after[digits:], ": ") {
			return after[:digits], after[digits+2:], true
		}
	}
	return "", rest, true
}

// readYAML parses YAML after estimating its number of values, so that
// yaml.v3 never builds a tree bigger than the limit allows.
func readYAML(data []byte) (*value, error) {
	if estimateYAMLValues(data) > maxValues {
		return nil, errTooManyValues
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		msg := err.Error()
		line := 0
		if n, text, ok := yamlErrorLine(strings.SplitN(msg, "\n", 2)[0]); ok {
			line, _ = strconv.Atoi(n)
			msg = text
		}
		return nil, &syntaxError{line: line, msg: "invalid YAML: " + msg}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, &syntaxError{msg: "the file is empty"}
	}
	c := &yamlConverter{memo: map[*yaml.Node]*value{}}
	return c.convert(doc.Content[0], 0)
}

// estimateYAMLValues over-estimates the number of values a YAML text holds:
// every value but the first follows one of these separators.
func estimateYAMLValues(data []byte) int {
	n := 1
	for _, b := range data {
		switch b {
		case ',', ':', '-', '\n', '[', '{', '*':
			n++
		}
	}
	return n
}

type yamlConverter struct {
	memo  map[*yaml.Node]*value
	total int
}

func (c *yamlConverter) convert(n *yaml.Node, depth int) (*value, error) {
	if depth > maxDepth {
		return nil, &syntaxError{line: n.Line, msg: fmt.Sprintf("nesting deeper than %d levels", maxDepth)}
	}
	if n.Kind == yaml.AliasNode {
		if n.Alias == nil {
			return nil, &syntaxError{line: n.Line, msg: "unknown alias"}
		}
		target, err := c.convert(n.Alias, depth)
		if err != nil {
			return nil, err
		}
		c.total += target.size
		if c.total > maxValues {
			return nil, errTooManyValues
		}
		return target, nil
	}
	if v, ok := c.memo[n]; ok {
		return v, nil
	}
	c.total++
	if c.total > maxValues {
		return nil, errTooManyValues
	}
	v := &value{line: n.Line, size: 1}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			v.kind = vNull
			break
		}
		return c.convert(n.Content[0], depth)
	case yaml.ScalarNode:
		tag := strings.TrimPrefix(n.ShortTag(), "!!")
		switch tag {
		case "null":
			v.kind = vNull
		case "str", "int", "float", "bool":
			v.kind, v.tag, v.text = vScalar, tag, n.Value
		case "binary", "timestamp":
			v.kind, v.tag, v.text = vScalar, "str", n.Value
		default:
			return nil, &syntaxError{line: n.Line, msg: fmt.Sprintf("unsupported tag %q", n.Tag)}
		}
	case yaml.MappingNode, yaml.SequenceNode:
		v.kind = vSeq
		if n.Kind == yaml.MappingNode {
			v.kind = vMap
		}
		v.content = make([]*value, 0, len(n.Content))
		for _, cn := range n.Content {
			cv, err := c.convert(cn, depth+1)
			if err != nil {
				return nil, err
			}
			v.content = append(v.content, cv)
			v.size += cv.size
		}
	default:
		return nil, &syntaxError{line: n.Line, msg: "unsupported YAML node"}
	}
	c.memo[n] = v
	return v, nil
}

// readJSON parses JSON, keeping line numbers, refusing more than limit
// values: fastJSON's single pass when it reads the document, else
// streamJSON, which says what is wrong.
func readJSON(data []byte, limit int) (*value, error) {
	if v, ok := fastJSON(data, limit); ok {
		return v, nil
	}
	return streamJSON(data, limit)
}

// streamJSON parses JSON with encoding/json's streaming tokenizer, keeping
// line numbers, refusing more than limit values.
func streamJSON(data []byte, limit int) (*value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	r := &jsonReader{dec: dec, lines: lineStarts(data), limit: limit}
	v, err := r.read(0)
	if err != nil {
		return nil, r.wrap(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &syntaxError{line: r.lineAt(dec.InputOffset()), msg: "invalid JSON: more than one value in the file"}
	}
	return v, nil
}

type jsonReader struct {
	dec          *json.Decoder
	lines        []int
	total, limit int
}

func lineStarts(data []byte) []int {
	starts := []int{0}
	for i, b := range data {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineAt returns the 1-based line of a byte offset.
func (r *jsonReader) lineAt(off int64) int {
	return sort.Search(len(r.lines), func(i int) bool { return int64(r.lines[i]) > off })
}

func (r *jsonReader) wrap(err error) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return &syntaxError{line: r.lineAt(se.Offset - 1), msg: "invalid JSON: " + se.Error()}
	case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
		return &syntaxError{line: len(r.lines), msg: "invalid JSON: unexpected end of file"}
	}
	return err
}

func (r *jsonReader) read(depth int) (*value, error) {
	if depth > maxDepth {
		return nil, &syntaxError{line: r.lineAt(r.dec.InputOffset()), msg: fmt.Sprintf("nesting deeper than %d levels", maxDepth)}
	}
	tok, err := r.dec.Token()
	if err != nil {
		return nil, err
	}
	r.total++
	if r.total > r.limit {
		return nil, errTooManyValues
	}
	v := &value{line: r.lineAt(r.dec.InputOffset() - 1), size: 1}
	switch t := tok.(type) {
	case nil:
		v.kind = vNull
	case bool:
		v.kind, v.tag, v.text = vScalar, "bool", strconv.FormatBool(t)
	case string:
		v.kind, v.tag, v.text = vScalar, "str", t
	case json.Number:
		v.kind, v.tag, v.text = vScalar, "int", string(t)
		if strings.ContainsAny(string(t), ".eE") {
			v.tag = "float"
		}
	case json.Delim:
		isMap := t == '{'
		v.kind = vSeq
		if isMap {
			v.kind = vMap
		}
		for r.dec.More() {
			if isMap {
				ktok, err := r.dec.Token()
				if err != nil {
					return nil, err
				}
				r.total++
				key := &value{kind: vScalar, tag: "str", text: ktok.(string), line: r.lineAt(r.dec.InputOffset() - 1), size: 1}
				v.content = append(v.content, key)
				v.size++
			}
			cv, err := r.read(depth + 1)
			if err != nil {
				return nil, err
			}
			v.content = append(v.content, cv)
			v.size += cv.size
		}
		if _, err := r.dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
	}
	return v, nil
}
