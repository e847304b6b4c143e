package scenarios

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// decoder turns a document's values into a Scenario, strictly: an unknown
// key, a value of the wrong type or a missing required key is an error
// naming its path and line.
type decoder struct {
	file string
	// errPaths quiet leaves the paths out; a quiet decode that fails is
	// done again with them (decode).
	errPaths
}

func (d *decoder) errAt(v *value, path, format string, args ...any) error {
	line := 0
	if v != nil {
		line = v.line
	}
	return &Error{File: d.file, Path: path, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// keySet is the keys a map may have (at most 64: the one-pass reader
// keeps those it has seen as bits), the first required of which it must
// have.
type keySet struct {
	keys     []string
	required int
}

// must returns the keys a map must have.
func (s keySet) must() []string { return s.keys[:s.required] }

// field is one key of a map.
type field struct {
	key string
	at  *value // the key, for its line
	val *value
}

// fields returns the entries of a map in document order, refusing a value
// that is not a map, a repeated key, and (when allowed is not nil) a key
// not in allowed.
func (d *decoder) fields(v *value, path string, allowed []string) ([]field, error) {
	if v.kind != vMap {
		return nil, d.errAt(v, path, "must be a map, not %s", v.describe())
	}
	out := make([]field, 0, len(v.content)/2)
	// A map of a few keys (a submit's, an ask's: tens of thousands in
	// saved work at scale) is looked through for a repeated key; a set
	// hashes every key, which WebAssembly does slowly.
	var seen map[string]bool
	if len(v.content)/2 > fewKeys {
		seen = make(map[string]bool, len(v.content)/2)
	}
	for i := 0; i+1 < len(v.content); i += 2 {
		k := v.content[i]
		if k.kind != vScalar {
			return nil, d.errAt(k, path, "a key must be a string, not %s", k.describe())
		}
		if seen != nil && seen[k.text] || seen == nil && slices.ContainsFunc(out, func(f field) bool { return f.key == k.text }) {
			return nil, d.errAt(k, path, "key %q appears twice", k.text)
		}
		if seen != nil {
			seen[k.text] = true
		}
		if allowed != nil && !contains(allowed, k.text) {
			return nil, d.errAt(k, path, "unknown key %q%s", k.text, suggest(k.text, allowed))
		}
		out = append(out, field{key: k.text, at: k, val: v.content[i+1]})
	}
	return out, nil
}

// require reports the first of keys missing from fs.
func (d *decoder) require(v *value, path string, fs []field, keys ...string) error {
	for _, k := range keys {
		found := false
		for _, f := range fs {
			if f.key == k {
				found = true
				break
			}
		}
		if !found {
			return d.errAt(v, path, "missing key %q", k)
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// fewKeys is the most keys of a map that fields looks through for a
// repeated one without a set.
const fewKeys = 16

// sub appends a key to a path.
func sub(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// index appends a list index to a path.
func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// errPaths builds the paths of errors' messages (sub, index, stepPath),
// or nothing while it is quiet: the decoder and the validator read and
// check saved work quietly first, where paths would be built for hundreds
// of thousands of values only to be thrown away, and again with the paths
// when that fails, for the same errors with their paths.
type errPaths struct{ quiet bool }

func (e errPaths) sub(path, key string) string {
	if e.quiet {
		return ""
	}
	return sub(path, key)
}

func (e errPaths) index(path string, i int) string {
	if e.quiet {
		return ""
	}
	return index(path, i)
}

func (e errPaths) stepPath(i int) string {
	if e.quiet {
		return ""
	}
	return stepPath(i)
}

// str reads a scalar as text. Numbers and booleans are accepted and keep
// their text, so `user: 1234` and `queue: default` both read as strings.
func (d *decoder) str(v *value, path string) (string, error) {
	if v.kind != vScalar {
		return "", d.errAt(v, path, "must be a string, not %s", v.describe())
	}
	return v.text, nil
}

// integer reads a whole number in [lo, hi].
func (d *decoder) integer(v *value, path string, lo, hi int64) (int64, error) {
	if v.kind != vScalar || (v.tag != "int" && v.tag != "float") {
		return 0, d.errAt(v, path, "must be a whole number, not %s", v.describe())
	}
	text := strings.ReplaceAll(v.text, "_", "")
	n, err := parseInt(text)
	if err != nil {
		f, ferr := strconv.ParseFloat(text, 64)
		if ferr != nil || f != math.Trunc(f) || math.Abs(f) > 1<<62 {
			return 0, d.errAt(v, path, "must be a whole number, not %s", v.text)
		}
		n = int64(f)
	}
	if n < lo {
		return 0, d.errAt(v, path, "must be at least %d, not %d", lo, n)
	}
	if n > hi {
		return 0, d.errAt(v, path, "must be at most %d, not %d", hi, n)
	}
	return n, nil
}

// maxInt is the largest count, priority or number a scenario may give where
// the core takes an int.
const maxInt = math.MaxInt32

func (d *decoder) intIn(v *value, path string, lo int64) (int, error) {
	n, err := d.integer(v, path, lo, maxInt)
	return int(n), err
}

// number reads a number (whole or not).
func (d *decoder) number(v *value, path string) (float64, error) {
	if v.kind != vScalar || (v.tag != "int" && v.tag != "float") {
		return 0, d.errAt(v, path, "must be a number, not %s", v.describe())
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(v.text, "_", ""), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, d.errAt(v, path, "must be a number, not %s", v.text)
	}
	return f, nil
}

// boolean reads true or false.
func (d *decoder) boolean(v *value, path string) (bool, error) {
	if v.kind != vScalar || v.tag != "bool" {
		return false, d.errAt(v, path, "must be true or false, not %s", v.describe())
	}
	return strconv.ParseBool(strings.ToLower(v.text))
}

// texts reads one string or a list of strings, none empty.
func (d *decoder) texts(v *value, path string) ([]string, error) {
	if v.kind == vScalar {
		s, _ := d.str(v, path)
		if s == "" {
			return nil, d.errAt(v, path, "must not be empty")
		}
		return []string{s}, nil
	}
	if v.kind != vSeq {
		return nil, d.errAt(v, path, "must be a string or a list of strings, not %s", v.describe())
	}
	if len(v.content) == 0 {
		return nil, d.errAt(v, path, "must not be an empty list")
	}
	out := make([]string, 0, len(v.content))
	for i, it := range v.content {
		s, err := d.str(it, d.index(path, i))
		if err != nil {
			return nil, err
		}
		if s == "" {
			return nil, d.errAt(it, d.index(path, i), "must not be empty")
		}
		out = append(out, s)
	}
	return out, nil
}

// stringList reads a list of strings (or one string, a list of one); an
// empty list reads as nil.
func (d *decoder) stringList(v *value, path string) ([]string, error) {
	if v.kind == vSeq && len(v.content) == 0 {
		return nil, nil
	}
	if v.kind == vScalar {
		return []string{v.text}, nil
	}
	if v.kind != vSeq {
		return nil, d.errAt(v, path, "must be a list of strings, not %s", v.describe())
	}
	out := make([]string, 0, len(v.content))
	for i, it := range v.content {
		s, err := d.str(it, d.index(path, i))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// configMap reads Hadoop properties: keys to texts. A number or boolean
// value keeps its text (`capacity: 60` is "60"); null is refused.
func (d *decoder) configMap(v *value, path string) (map[string]string, error) {
	fs, err := d.fields(v, path, nil)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(fs))
	for _, f := range fs {
		if f.key == "" {
			return nil, d.errAt(f.at, path, "a property name must not be empty")
		}
		if f.val.kind == vNull {
			return nil, d.errAt(f.val, d.sub(path, f.key), `has no value; write "" for an empty one`)
		}
		s, err := d.str(f.val, d.sub(path, f.key))
		if err != nil {
			return nil, err
		}
		out[f.key] = s
	}
	return out, nil
}

// generic converts a value to plain Go data (map[string]any, []any,
// int64, float64, string, bool, nil) as encoding/json would produce.
func (d *decoder) generic(v *value, path string) (any, error) {
	switch v.kind {
	case vNull:
		return nil, nil
	case vScalar:
		switch v.tag {
		case "int":
			if n, err := parseInt(strings.ReplaceAll(v.text, "_", "")); err == nil {
				return n, nil
			}
			return d.number(v, path)
		case "float":
			return d.number(v, path)
		case "bool":
			return d.boolean(v, path)
		}
		return v.text, nil
	case vSeq:
		out := make([]any, 0, len(v.content))
		for i, it := range v.content {
			g, err := d.generic(it, d.index(path, i))
			if err != nil {
				return nil, err
			}
			out = append(out, g)
		}
		return out, nil
	}
	fs, err := d.fields(v, path, nil)
	if err != nil {
		return nil, err
	}
	out := make(map[string]any, len(fs))
	for _, f := range fs {
		g, err := d.generic(f.val, d.sub(path, f.key))
		if err != nil {
			return nil, err
		}
		out[f.key] = g
	}
	return out, nil
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// parseInt reads a decimal integer (so 010 is ten), or 0x/0o/0b forms.
func parseInt(text string) (int64, error) {
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return strconv.ParseInt(text, 0, 64)
	}
	return n, nil
}

// parsePriority reads a request priority written as a map key ("1").
func parsePriority(key string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(key))
	if err != nil || n < 0 {
		return 0, fmt.Errorf("not a request priority: %q", key)
	}
	return n, nil
}
