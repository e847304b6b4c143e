package scenarios

import "slices"

// decodeOnePass reads a JSON scenario straight into a Scenario, without
// the tree of values the decoder walks (saved work at scale is a million
// values, most of them in its steps): it reads the maps it knows (the top
// level, steps, submits, asks, node specs) key by key, and each key's value
// into a small tree whose memory the next one reuses, then decodes it with
// the decoder's own rule for that key (scenarioField, stepField,
// submitField, askField, nodeField), so that the two paths share every
// rule. ok is false at anything it is not sure of: a document that is not
// JSON, a map it does not read (an unknown key, a repeated one, escapes in
// a key, a missing required key), any error of a rule, the limits on
// values and nesting. decode then reads the document again by the tree,
// for the same scenario or the error with its path and line.
// TestOnePassIsTheTree and FuzzOnePassIsTheTree keep the two the same.
func decodeOnePass(name string, data []byte) (sc *Scenario, ok bool) {
	return readOnePass(name, data, maxValues)
}

// readOnePass is decodeOnePass for documents of at most limit values (keys
// included, as fastJSON counts them).
func readOnePass(name string, data []byte, limit int) (sc *Scenario, ok bool) {
	r := &onePass{d: decoder{file: name, errPaths: errPaths{quiet: true}}}
	r.p = fastParser{data: data, line: 1, limit: limit, arena: &r.arena}
	sc = &Scenario{File: name}
	if !r.enter(0, '{') || !r.object(topKeySet, func(key string) bool {
		switch {
		case key == "steps" && r.at('['):
			sc.Steps, ok = r.steps(1)
			return ok
		case key == "nodes" && r.at('['):
			sc.Nodes, ok = r.nodes(1)
			return ok
		}
		v, ok := r.scratch(1)
		return ok && r.d.scenarioField(sc, key, &v) == nil
	}) {
		return nil, false
	}
	r.p.space()
	if r.p.pos != len(r.p.data) {
		return nil, false
	}
	finishScenario(sc)
	return sc, true
}

// onePass is decodeOnePass's state: the JSON reader (its position, line
// and count of values), the quiet decoder whose rules it applies, and the
// arena of its small trees.
type onePass struct {
	p     fastParser
	d     decoder
	arena scratch
}

// at passes over whitespace and says whether c is next.
func (r *onePass) at(c byte) bool {
	r.p.space()
	return r.p.pos < len(r.p.data) && r.p.data[r.p.pos] == c
}

// enter counts the map or list (c, its opening bracket) next at nesting
// depth as one value, as fastJSON does, leaving the reader on its bracket;
// false when something else is next or past the limits.
func (r *onePass) enter(depth int, c byte) bool {
	if !r.at(c) || depth > maxDepth {
		return false
	}
	r.p.total++
	return r.p.total <= r.p.limit
}

// scratch reads the value next at nesting depth into a small tree whose
// root is returned (a copy, on the caller's stack: the scalars most keys
// hold are written to no memory the collector watches) and whose other
// values hold until the next call; ok is false when it is not JSON or
// past the limits.
func (r *onePass) scratch(depth int) (v value, ok bool) {
	r.arena.reset()
	r.p.read(&v, depth)
	return v, !r.p.bad
}

// keySet is the keys a map may have (at most 64) and, by their indexes'
// bits, those it must have.
type keySet struct {
	keys     []string
	required uint64
}

// newKeySet returns the set of keys with required among them.
func newKeySet(keys, required []string) keySet {
	if len(keys) > 64 {
		panic("scenarios: a keySet holds at most 64 keys")
	}
	s := keySet{keys: keys}
	for _, k := range required {
		i := slices.Index(keys, k)
		if i < 0 {
			panic("scenarios: required key " + k + " is not a key")
		}
		s.required |= 1 << i
	}
	return s
}

// The maps the one-pass reader reads key by key.
var (
	topKeySet      = newKeySet(topKeys, nil)
	stepKeySet     = newKeySet(stepKeys, nil)
	submitKeySet   = newKeySet(submitKeys, submitRequired)
	askKeySet      = newKeySet(askKeys, askRequired)
	nodeKeySet     = newKeySet(nodeKeys, nodeRequired)
	resourceKeySet = newKeySet(resourceKeys, resourceRequired)
)

// object reads a map from its opening brace (enter): its keys must be
// among the set's, none twice and all of the required there. For each
// key, field reads the key's value (the reader standing before it) and
// says whether it could.
func (r *onePass) object(set keySet, field func(key string) bool) bool {
	p := &r.p
	p.pos++
	var seen uint64
	if !r.at('}') {
		next := 0
		for {
			p.space()
			i := r.key(set.keys, next)
			if i < 0 || seen&(1<<i) != 0 {
				return false
			}
			seen |= 1 << i
			if !field(set.keys[i]) {
				return false
			}
			p.space()
			if p.pos >= len(p.data) || p.data[p.pos] != ',' && p.data[p.pos] != '}' {
				return false
			}
			if p.data[p.pos] == '}' {
				break
			}
			p.pos++
			next = i + 1
		}
	}
	p.pos++
	return seen&set.required == set.required
}

// key reads a key and its colon, and returns its index in keys, looked for
// from next on (keys mostly come in their order); -1 for any other key,
// one with escapes, or what is not a key.
func (r *onePass) key(keys []string, next int) int {
	p := &r.p
	if p.pos >= len(p.data) || p.data[p.pos] != '"' {
		return -1
	}
	start := p.pos + 1
	end := start
	for end < len(p.data) && p.data[end] != '"' {
		if c := p.data[end]; c == '\\' || c < 0x20 {
			return -1
		}
		end++
	}
	if end == len(p.data) {
		return -1
	}
	k := p.data[start:end]
	p.pos = end + 1
	p.total++
	if p.total > p.limit || !r.at(':') {
		return -1
	}
	p.pos++
	for j := range keys {
		if i := (next + j) % len(keys); string(k) == keys[i] {
			return i
		}
	}
	return -1
}

// list reads a list from its opening bracket (enter), calling item for each
// item (the reader standing before it), which says whether it could.
func (r *onePass) list(item func() bool) bool {
	p := &r.p
	p.pos++
	if r.at(']') {
		p.pos++
		return true
	}
	for {
		if !item() {
			return false
		}
		p.space()
		if p.pos >= len(p.data) {
			return false
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return true
		default:
			return false
		}
	}
}

// steps reads the list of steps next at nesting depth, as decoder.steps,
// into a list of their number (countItems).
func (r *onePass) steps(depth int) ([]Step, bool) {
	if !r.enter(depth, '[') {
		return nil, false
	}
	n := countItems(r.p.data, r.p.pos)
	if n > MaxSteps {
		return nil, false
	}
	out := make([]Step, n)
	i := 0
	if !r.list(func() bool {
		i++
		return i <= n && r.step(depth+1, &out[i-1])
	}) || i != n {
		return nil, false
	}
	return out, true
}

// countItems counts the items of the list that opens at data[at] by its
// commas, passing over strings and what it holds: the number of items of a
// well-formed list, which the reader, reading them, holds it to. Saved work
// at scale holds tens of thousands of steps, of some 230 bytes each: a
// list grown as they are read would copy them several times.
func countItems(data []byte, at int) int {
	i := at + 1
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n') {
		i++
	}
	if i < len(data) && data[i] == ']' {
		return 0
	}
	depth, commas := 1, 0
	for ; i < len(data); i++ {
		c := data[i]
		if !countStops[c] {
			continue
		}
		switch c {
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			depth++
		case ']', '}':
			if depth--; depth == 0 {
				return commas + 1
			}
		case ',':
			if depth == 1 {
				commas++
			}
		}
	}
	return commas + 1
}

// countStops are the bytes countItems looks at.
var countStops = [256]bool{'"': true, '[': true, '{': true, ']': true, '}': true, ',': true}

// step reads a step next at nesting depth into st, as decoder.step: a
// submit or a request key by key, any other kind or key by stepField.
func (r *onePass) step(depth int, st *Step) bool {
	if !r.enter(depth, '{') {
		return false
	}
	st.Line = r.p.line
	return r.object(stepKeySet, func(key string) bool {
		switch {
		case key == KindSubmit && r.at('{'):
			st.Submit = r.submit(depth + 1)
			return st.Submit != nil
		case key == KindRequest && (r.at('{') || r.at('[')):
			st.Request = r.request(depth + 1)
			return st.Request != nil
		}
		v, ok := r.scratch(depth + 1)
		return ok && r.d.stepField(st, key, &v, "") == nil
	}) && r.d.oneKind(nil, "", st) == nil
}

// submit reads a submit's map next at nesting depth, as decoder.submit;
// its AM's resource, when a map, as decoder.res (onePass.res).
func (r *onePass) submit(depth int) *Submit {
	s := &Submit{}
	if !r.enter(depth, '{') || !r.object(submitKeySet, func(key string) bool {
		if key == "am" && r.at('{') {
			am, ok := r.res(depth + 1)
			s.AM = &am
			return ok
		}
		v, ok := r.scratch(depth + 1)
		return ok && r.d.submitField(s, key, &v, "") == nil
	}) {
		return nil
	}
	return s
}

// res reads an input resource's map next at nesting depth, as decoder.res
// does (the decoder's rule for each of its keys, resourceField), without a
// tree: saved work at scale holds tens of thousands (an AM's, an ask's).
func (r *onePass) res(depth int) (Res, bool) {
	var rr resourceRead
	ok := r.enter(depth, '{') && r.object(resourceKeySet, func(key string) bool {
		v, ok := r.scratch(depth + 1)
		return ok && r.d.resourceField(&rr, key, &v, "", 0) == nil
	})
	return Res{MemoryMB: rr.mem, VCores: rr.vcores}, ok
}

// request reads a request's ask or non-empty list of asks next at nesting
// depth, as decoder.request; nil when it gives up.
func (r *onePass) request(depth int) Asks {
	if r.at('{') {
		a, ok := r.ask(depth)
		if !ok {
			return nil
		}
		return Asks{a}
	}
	if !r.enter(depth, '[') {
		return nil
	}
	n := countItems(r.p.data, r.p.pos)
	if n == 0 {
		return nil
	}
	out := make(Asks, n)
	i := 0
	if !r.list(func() bool {
		i++
		if i > n {
			return false
		}
		var ok bool
		out[i-1], ok = r.ask(depth + 1)
		return ok
	}) || i != n {
		return nil
	}
	return out
}

// ask reads an ask's map next at nesting depth, as decoder.ask; its
// resource as onePass.res.
func (r *onePass) ask(depth int) (Ask, bool) {
	var a Ask
	ok := r.enter(depth, '{') && r.object(askKeySet, func(key string) bool {
		if key == "resource" && r.at('{') {
			var ok bool
			a.Resource, ok = r.res(depth + 1)
			return ok
		}
		v, ok := r.scratch(depth + 1)
		return ok && r.d.askField(&a, key, &v, "") == nil
	})
	return a, ok
}

// nodes reads the list of node specs next at nesting depth, as
// decoder.nodes and decoder.nodeSpec.
func (r *onePass) nodes(depth int) ([]NodeSpec, bool) {
	if !r.enter(depth, '[') {
		return nil, false
	}
	out := make([]NodeSpec, 0)
	if !r.list(func() bool {
		if !r.enter(depth+1, '{') {
			return false
		}
		n := NodeSpec{Line: r.p.line}
		ok := r.object(nodeKeySet, func(key string) bool {
			v, ok := r.scratch(depth + 2)
			return ok && r.d.nodeField(&n, key, &v, "") == nil
		})
		out = append(out, n)
		return ok
	}) {
		return nil, false
	}
	return append(make([]NodeSpec, 0, len(out)), out...), true
}

// scratch holds the values and lists of the one-pass reader's small trees:
// one tree at a time, reset for the next, so that a document of a million
// values allocates only as much as its largest value read this way.
type scratch struct {
	vals   [][]value
	vi, vn int // the chunk of vals in use, and the values taken from it
	lists  [][]*value
	li, ln int // the same for lists
}

// reset makes the arena's memory free for the next tree.
func (s *scratch) reset() { s.vi, s.vn, s.li, s.ln = 0, 0, 0, 0 }

// value returns a zero value from the arena.
func (s *scratch) value() *value {
	for {
		if s.vi == len(s.vals) {
			s.vals = append(s.vals, make([]value, slabValues))
		}
		if c := s.vals[s.vi]; s.vn < len(c) {
			v := &c[s.vn]
			s.vn++
			*v = value{}
			return v
		}
		s.vi, s.vn = s.vi+1, 0
	}
}

// list returns a list of n values from the arena, to fill.
func (s *scratch) list(n int) []*value {
	for {
		if s.li == len(s.lists) {
			s.lists = append(s.lists, make([]*value, max(slabValues, n)))
		}
		if c := s.lists[s.li]; s.ln+n <= len(c) {
			l := c[s.ln : s.ln+n : s.ln+n]
			s.ln += n
			return l
		}
		s.li, s.ln = s.li+1, 0
	}
}
