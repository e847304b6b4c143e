package scenarios

import (
	"encoding/json"
	"unicode/utf8"
)

// fastJSON reads valid JSON into the tree readJSON's streaming reader
// builds, in one pass over the bytes: encoding/json's Decoder, which that
// reader uses for its messages, builds an error string after every scalar
// it decodes from a stream (stateEndTop), and saved work at scale holds
// hundreds of thousands of them. ok is false at anything it does not read
// exactly as that reader would (invalid JSON, escapes it leaves to
// encoding/json that do not unquote, the limits): readJSON then reads the
// document again the slow way, for the same result or message.
// FuzzFastJSONIsTheStreamingReader keeps the two the same.
func fastJSON(data []byte, limit int) (v *value, ok bool) {
	p := &fastParser{data: data, line: 1, limit: limit}
	v = p.value(0)
	if p.bad {
		return nil, false
	}
	p.space()
	if p.pos != len(p.data) {
		return nil, false
	}
	return v, true
}

// fastParser is fastJSON's state: the position, its line, the values read
// so far, and whether it gave up.
type fastParser struct {
	data         []byte
	pos, line    int
	total, limit int
	bad          bool
	// Saved work at scale is some two million values, most of them keys
	// and short scalars that repeat (a submit's keys, its queue, user and
	// sizes): the parser takes values from slabs, builds each container's
	// list once at its size from a stack of the values read, and keeps one
	// copy of each short string, instead of allocating each of them.
	slab  []value
	stack []*value
	strs  []string
}

// Bounds of the parser's memory (fastParser).
const (
	slabValues  = 1024 // values a slab holds
	internMax   = 24   // the longest string kept once
	internSlots = 4096 // the short strings kept, by a hash of their bytes
)

// newValue returns a zero value from the slab.
func (p *fastParser) newValue() *value {
	if len(p.slab) == 0 {
		p.slab = make([]value, slabValues)
	}
	v := &p.slab[0]
	p.slab = p.slab[1:]
	return v
}

// text returns the string of data[from:to], one copy of it when short:
// the copy in its slot of strs (a slot keeps the last string hashed to
// it), not a map, which hashes more slowly in WebAssembly.
func (p *fastParser) text(from, to int) string {
	b := p.data[from:to]
	if len(b) > internMax {
		return string(b)
	}
	if p.strs == nil {
		p.strs = make([]string, internSlots)
	}
	h := uint32(2166136261) // FNV-1a
	for _, c := range b {
		h = (h ^ uint32(c)) * 16777619
	}
	slot := &p.strs[h%internSlots]
	if *slot != string(b) {
		*slot = string(b)
	}
	return *slot
}

// space passes over JSON's whitespace, counting lines.
func (p *fastParser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case '\n':
			p.line++
		case ' ', '\t', '\r':
		default:
			return
		}
		p.pos++
	}
}

// value reads one value at nesting depth.
func (p *fastParser) value(depth int) *value {
	v := p.newValue()
	if p.read(v, depth); p.bad {
		return nil
	}
	return v
}

// read reads one value at nesting depth into v, a zero value.
func (p *fastParser) read(v *value, depth int) {
	p.space()
	if depth > maxDepth || p.pos >= len(p.data) {
		p.bad = true
		return
	}
	p.total++
	if p.total > p.limit {
		p.bad = true
		return
	}
	v.line, v.size = p.line, 1
	switch c := p.data[p.pos]; {
	case c == '{' || c == '[':
		p.container(v, c == '{', depth)
	case c == '"':
		v.kind, v.tag, v.text = vScalar, "str", p.str()
	case c == '-' || c >= '0' && c <= '9':
		v.kind = vScalar
		v.tag, v.text = p.number()
	case p.literal("true"):
		v.kind, v.tag, v.text = vScalar, "bool", "true"
	case p.literal("false"):
		v.kind, v.tag, v.text = vScalar, "bool", "false"
	case p.literal("null"):
		v.kind = vNull
	default:
		p.bad = true
	}
}

// container reads an object or an array into v, from its opening bracket.
func (p *fastParser) container(v *value, isMap bool, depth int) {
	v.kind = vSeq
	closing := byte(']')
	if isMap {
		v.kind, closing = vMap, '}'
	}
	p.pos++
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == closing {
		p.pos++
		return
	}
	// The values read go on the stack, and into v's list at its close.
	mark := len(p.stack)
	defer func() {
		if !p.bad {
			v.content = make([]*value, len(p.stack)-mark)
			copy(v.content, p.stack[mark:])
		}
		clear(p.stack[mark:])
		p.stack = p.stack[:mark]
	}()
	for !p.bad {
		if isMap {
			p.space()
			if p.pos >= len(p.data) || p.data[p.pos] != '"' {
				p.bad = true
				return
			}
			p.total++
			line := p.line
			key := p.newValue()
			*key = value{kind: vScalar, tag: "str", text: p.str(), line: line, size: 1}
			p.space()
			if p.bad || p.pos >= len(p.data) || p.data[p.pos] != ':' {
				p.bad = true
				return
			}
			p.pos++
			p.stack = append(p.stack, key)
			v.size++
		}
		cv := p.value(depth + 1)
		if p.bad {
			return
		}
		p.stack = append(p.stack, cv)
		v.size += cv.size
		p.space()
		if p.pos >= len(p.data) {
			p.bad = true
			return
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case closing:
			p.pos++
			return
		default:
			p.bad = true
		}
	}
}

// literal reads true, false or null if it is next.
func (p *fastParser) literal(word string) bool {
	if len(p.data)-p.pos < len(word) || string(p.data[p.pos:p.pos+len(word)]) != word {
		return false
	}
	p.pos += len(word)
	return true
}

// str reads a string from its opening quote. One with escapes or bytes
// that are not UTF-8 is unquoted by encoding/json, as the streaming reader
// does.
func (p *fastParser) str() string {
	start := p.pos
	p.pos++
	plain := true
	for p.pos < len(p.data) {
		switch c := p.data[p.pos]; {
		case c == '"':
			p.pos++
			if plain {
				return p.text(start+1, p.pos-1)
			}
			var s string
			if json.Unmarshal(p.data[start:p.pos], &s) != nil {
				p.bad = true
			}
			return s
		case c == '\\':
			plain = false
			p.pos += 2
			continue
		case c < 0x20:
			p.bad = true
			return ""
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(p.data[p.pos:])
			if r == utf8.RuneError && n == 1 {
				plain = false
			}
			p.pos += n
			continue
		}
		p.pos++
	}
	p.bad = true
	return ""
}

// number reads a number as JSON writes it, and its tag: "int", or
// "float" with a fraction or an exponent.
func (p *fastParser) number() (tag, text string) {
	start, tag := p.pos, "int"
	digits := func() int {
		n := 0
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.data[p.pos] == '-' {
		p.pos++
	}
	switch {
	case p.pos < len(p.data) && p.data[p.pos] == '0':
		p.pos++
	case digits() == 0:
		p.bad = true
		return "", ""
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		tag = "float"
		if digits() == 0 {
			p.bad = true
			return "", ""
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		tag = "float"
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			p.bad = true
			return "", ""
		}
	}
	return tag, p.text(start, p.pos)
}
