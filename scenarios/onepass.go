package scenarios

import "bytes"

// decodeOnePass reads a JSON scenario straight into a Scenario, without
// the tree of values the decoder walks (saved work at scale is a million
// values, most of them in its steps): it reads the maps it knows (the top
// level, steps, submits, asks, resources) key by key, and each key's value
// (a scalar, mostly) into a small tree, then decodes it with the
// decoder's own rule for that key (scenarioField, stepField, submitField,
// askField, resourceField), so that the two paths share every rule. ok is
// false at anything it is not sure of: a document that is not JSON, a map
// it does not read (an unknown key, a repeated one, escapes in a key, a
// missing required key), any error of a rule, the limits on values and
// nesting. decode then reads the document again by the tree,
// for the same scenario or the error with its path and line.
// TestOnePassIsTheTree and FuzzOnePassIsTheTree keep the two the same.
func decodeOnePass(name string, data []byte) (sc *Scenario, ok bool) {
	return readOnePass(name, data, maxValues)
}

// readOnePass is decodeOnePass for documents of at most limit values (keys
// included, as fastJSON counts them).
func readOnePass(name string, data []byte, limit int) (*Scenario, bool) {
	sc, _, ok := readOnePassHead(name, data, limit, -1)
	return sc, ok
}

// readOnePassHead is readOnePass of the first head steps alone (every
// step when head is negative): it passes over the steps after them
// (passList), neither reading nor counting their values, and returns how
// many it passed over.
func readOnePassHead(name string, data []byte, limit, head int) (*Scenario, int, bool) {
	r := &onePass{d: decoder{file: name, errPaths: errPaths{quiet: true}}}
	r.p = fastParser{data: data, line: 1, limit: limit}
	sc := &Scenario{File: name}
	if !r.enter(0, '{') {
		return nil, 0, false
	}
	var m walk
	rest := 0
	for r.nextKey(&m, topKeySet) {
		var ok bool
		switch {
		case m.key == "steps" && r.at('['):
			sc.Steps, rest, ok = r.stepsHead(1, head)
		default:
			v, read := r.scratch(1)
			ok = read && r.d.scenarioField(sc, m.key, &v) == nil
		}
		if !ok {
			return nil, 0, false
		}
	}
	r.p.space()
	if !m.ok || r.p.pos != len(r.p.data) {
		return nil, 0, false
	}
	finishScenario(sc)
	return sc, rest, true
}

// onePass is decodeOnePass's state: the JSON reader (its position, line
// and count of values) and the quiet decoder whose rules it applies.
type onePass struct {
	p fastParser
	d decoder
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
// hold are written to no memory the collector watches); ok is false when
// it is not JSON or past the limits.
func (r *onePass) scratch(depth int) (v value, ok bool) {
	r.p.read(&v, depth)
	return v, !r.p.bad
}

// stepKeySet is the keys of a step, for the one-pass reader.
var stepKeySet = keySet{keys: stepKeys}

// walk is where the one-pass reader is in a map or a list: the entries
// read, a map's keys seen (by their indexes' bits) and its last one's
// index, the key just read, and whether the map or list ended well.
type walk struct {
	n    int
	seen uint64
	last int
	key  string
	ok   bool
}

// nextEntry moves into the next entry of a map or list (closing is its
// closing bracket), the reader standing on its opening bracket (enter) at
// first, then after an entry. At the closing bracket, it passes it and
// returns false with w.ok true; at anything else, false with w.ok false.
func (r *onePass) nextEntry(w *walk, closing byte) bool {
	p := &r.p
	if w.n == 0 {
		p.pos++
	}
	if r.at(closing) {
		p.pos++
		w.ok = true
		return false
	}
	if w.n > 0 {
		if !r.at(',') {
			return false
		}
		p.pos++
	}
	w.n++
	p.space()
	return true
}

// nextKey moves to the next key of a map as nextEntry, and reads it and
// its colon into w.key (the reader then stands before its value): keys
// must be among the set's, none twice; w.ok is false at the end when a
// required key is missing.
func (r *onePass) nextKey(w *walk, set keySet) bool {
	if !r.nextEntry(w, '}') {
		w.ok = w.ok && w.seen&(1<<set.required-1) == 1<<set.required-1
		return false
	}
	next := 0
	if w.n > 1 {
		next = w.last + 1
	}
	i := r.key(set.keys, next)
	if i < 0 || w.seen&(1<<i) != 0 {
		return false
	}
	w.seen |= 1 << i
	w.last, w.key = i, set.keys[i]
	return true
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

// stepsHead reads the list of steps next at nesting depth, as
// decoder.steps, into a list of their number (countMaps); with head
// zero or more, the first head of them, passing over the others
// (passList), whose number it returns.
func (r *onePass) stepsHead(depth, head int) ([]Step, int, bool) {
	if !r.enter(depth, '[') {
		return nil, 0, false
	}
	n := head
	if head < 0 {
		if n = r.maps(MaxSteps); n < 0 {
			return nil, 0, false
		}
	}
	out := make([]Step, 0, n)
	var l walk
	for r.nextEntry(&l, ']') {
		if l.n > n {
			if head < 0 {
				return nil, 0, false // more than counted
			}
			rest, ok := r.passList()
			return out, rest, ok && len(out)+rest <= MaxSteps
		}
		out = append(out, Step{})
		if !r.step(depth+1, &out[l.n-1]) {
			return nil, 0, false
		}
	}
	return out, 0, l.ok && (head >= 0 || l.n == n)
}

// passList passes over the rest of the list the reader stands in, its
// closing bracket included (passItems), and returns how many maps it
// passed over; false when the document ends first.
func (r *onePass) passList() (int, bool) {
	p := &r.p
	maps, end := passItems(p.data, p.pos, 1)
	if end < 0 {
		return 0, false
	}
	p.line += bytes.Count(p.data[p.pos:end], []byte{'\n'})
	p.pos = end
	return maps, true
}

// countMaps counts the maps directly in the list that opens at data[at],
// passing over strings and what the maps hold: the number of items of a
// list of maps (steps, asks), which the reader, reading them, holds it to
// (a list that holds anything else is the tree's). Saved work at scale
// holds tens of thousands of steps, of some 230 bytes each: a list grown
// as they are read would copy them several times.
func countMaps(data []byte, at int) int {
	maps, _ := passItems(data, at, 0)
	return maps
}

// passItems passes over a list, from data[at] at nesting depth depth in
// it (0 at its opening bracket, 1 at one of its items), over strings and
// what its items hold, and returns the maps directly in it and the offset
// just past its closing bracket (-1 when the document ends first).
func passItems(data []byte, at, depth int) (maps, end int) {
	for i := at; i < len(data); i++ {
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
		case '{':
			if depth == 1 {
				maps++
			}
			depth++
		case '[':
			depth++
		default: // ']', '}'
			if depth--; depth == 0 {
				return maps, i + 1
			}
		}
	}
	return maps, -1
}

// countStops are the bytes countMaps looks at.
var countStops = [256]bool{'"': true, '[': true, '{': true, ']': true, '}': true}

// maps returns the number of maps in the list the reader stands on
// (countMaps), or -1 when they are more than most, or than the values
// left under the limit (the tree refuses the document then).
func (r *onePass) maps(most int) int {
	n := countMaps(r.p.data, r.p.pos)
	if n > most || n > r.p.limit-r.p.total {
		return -1
	}
	return n
}

// step reads a step next at nesting depth into st, as decoder.step: a
// submit or a request key by key, any other kind or key by stepField.
func (r *onePass) step(depth int, st *Step) bool {
	if !r.enter(depth, '{') {
		return false
	}
	st.Line = r.p.line
	var m walk
	for r.nextKey(&m, stepKeySet) {
		switch {
		case m.key == KindSubmit && r.at('{'):
			if st.Submit = r.submit(depth + 1); st.Submit == nil {
				return false
			}
		case m.key == KindRequest && (r.at('{') || r.at('[')):
			if st.Request = r.request(depth + 1); st.Request == nil {
				return false
			}
		default:
			if v, ok := r.scratch(depth + 1); !ok || r.d.stepField(st, m.key, &v, "") != nil {
				return false
			}
		}
	}
	return m.ok && r.d.oneKind(nil, "", st) == nil
}

// submit reads a submit's map next at nesting depth, as decoder.submit;
// its AM's resource, when a map, as decoder.res (onePass.res).
func (r *onePass) submit(depth int) *Submit {
	if !r.enter(depth, '{') {
		return nil
	}
	s := &Submit{}
	var m walk
	for r.nextKey(&m, submitKeySet) {
		if m.key == "am" && r.at('{') {
			am, ok := r.res(depth + 1)
			if !ok {
				return nil
			}
			s.AM = &am
		} else if v, ok := r.scratch(depth + 1); !ok || r.d.submitField(s, m.key, &v, "") != nil {
			return nil
		}
	}
	if !m.ok {
		return nil
	}
	return s
}

// res reads an input resource's map next at nesting depth, as decoder.res
// does (the decoder's rule for each of its keys, resourceField), without a
// tree: saved work at scale holds tens of thousands (an AM's, an ask's).
func (r *onePass) res(depth int) (Res, bool) {
	if !r.enter(depth, '{') {
		return Res{}, false
	}
	var rr resourceRead
	var m walk
	for r.nextKey(&m, resourceKeySet) {
		if v, ok := r.scratch(depth + 1); !ok || r.d.resourceField(&rr, m.key, &v, "", 0) != nil {
			return Res{}, false
		}
	}
	return Res{MemoryMB: rr.mem, VCores: rr.vcores}, m.ok
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
	n := r.maps(maxValues)
	if n <= 0 {
		return nil // none: an error the tree reports
	}
	out := make(Asks, n)
	var l walk
	for r.nextEntry(&l, ']') {
		var ok bool
		if l.n > n {
			return nil
		}
		if out[l.n-1], ok = r.ask(depth + 1); !ok {
			return nil
		}
	}
	if !l.ok || l.n != n {
		return nil
	}
	return out
}

// ask reads an ask's map next at nesting depth, as decoder.ask; its
// resource, when a map, as onePass.res.
func (r *onePass) ask(depth int) (a Ask, ok bool) {
	if !r.enter(depth, '{') {
		return a, false
	}
	var m walk
	for r.nextKey(&m, askKeySet) {
		if m.key == "resource" && r.at('{') {
			if a.Resource, ok = r.res(depth + 1); !ok {
				return a, false
			}
		} else if v, read := r.scratch(depth + 1); !read || r.d.askField(&a, m.key, &v, "") != nil {
			return a, false
		}
	}
	return a, m.ok
}
