// Package wasmjump rewrites the jumps of Go's WebAssembly functions as
// direct branches.
//
// Go's compiler lays each function out as one loop around a jump table:
//
//	loop
//	  block ... block            one block per resume point
//	    local.get 0              PC_B: the resume point to run
//	    br_table ...
//	  end  code of resume point 0
//	  end  code of resume point 1 ...
//
// and compiles every jump to another basic block (every basic block is a
// resume point) as
//
//	i32.const K; local.set 0; br <the loop>
//
// so that it runs through the table: back to the loop's head, then an
// indirect jump. A browser's compiler keeps that indirect jump (one for the
// whole function, which the processor's predictor must guess from its
// history), with the loop's interrupt check before it. Go's issue 65440
// shows what it costs a loop; the heartbeat takes hundreds of such jumps.
//
// When the jump goes forward, the code of resume point K is just past the
// end of a block that encloses the jump, and `br` to that block lands
// there. Thread rewrites each such jump as that branch, and a jump that is
// alone in an `if` as a `br_if`. Backward jumps (the loops' back edges) stay
// as they are. Leaving PC_B unset is safe: the table is its only reader
// (calls write the resume point they return to on Go's stack, as a
// constant, and use PC_B only as scratch, written just before it is read),
// and every jump through the table still sets it. Thread checks both in
// each function it rewrites, and leaves any function of another shape as
// it is.
//
// A call enters its function with PC_B 0 (another value only resumes it
// after Go's runtime unwound the stack), and the table sends it to resume
// point 0, through the same indirect jump. Thread puts a way in ahead of
// the table, `local.get 0; i32.eqz; br_if` to where the table sends 0.
//
// A loop's back edge goes backward, to a block that has ended. Where the
// loop makes no call Go's runtime could resume, Thread gives it a
// WebAssembly loop of its own and makes its back edges branches to it
// (loops.go).
package wasmjump

import (
	"bytes"
	"errors"
	"fmt"
)

// Stats says what Thread found and changed.
type Stats struct {
	// Functions is how many function bodies the module has; Dispatched how
	// many have Go's jump table, Threaded how many of those were rewritten.
	Functions, Dispatched, Threaded int
	// Jumps is how many jumps through a jump table there were; Direct how
	// many became a br, Conditional a br_if.
	Jumps, Direct, Conditional int
	// Entries is how many functions got a direct way in for a call (PC_B
	// 0) ahead of their table.
	Entries int
	// Loops is how many loops without a call got a WebAssembly loop of
	// their own, their back edges branches to it (see loops.go).
	Loops int
	// CodeBefore and CodeAfter are the code section's sizes in bytes.
	CodeBefore, CodeAfter int
}

// Thread returns the module with the jumps of its Go functions made direct
// where they can be (see the package's documentation), and what it
// changed. An error means the bytes are not a WebAssembly module it can
// read; the input is never modified.
func Thread(module []byte) ([]byte, Stats, error) {
	var st Stats
	if len(module) < 8 || !bytes.Equal(module[:4], []byte("\x00asm")) {
		return nil, st, errors.New("not a WebAssembly module: it does not start with \\0asm")
	}
	if !bytes.Equal(module[4:8], []byte{1, 0, 0, 0}) {
		return nil, st, fmt.Errorf("WebAssembly version %v: only version 1 is known", module[4:8])
	}
	out := make([]byte, 0, len(module))
	out = append(out, module[:8]...)
	r := reader{b: module, i: 8}
	var sig signatures
	for r.i < len(r.b) {
		start := r.i
		id := r.byte()
		size := r.u32()
		if r.err != nil || uint64(size) > uint64(len(r.b)-r.i) {
			return nil, st, fmt.Errorf("section at byte %d: %w", start, errTruncated)
		}
		body := r.b[r.i : r.i+int(size)]
		r.i += int(size)
		if id != codeSection {
			sig.read(id, body)
			out = append(out, module[start:r.i]...)
			continue
		}
		code, err := threadCode(body, &sig, &st)
		if err != nil {
			return nil, st, fmt.Errorf("code section at byte %d: %w", start, err)
		}
		st.CodeBefore, st.CodeAfter = len(body), len(code)
		out = append(out, id)
		out = appendU32(out, uint32(len(code)))
		out = append(out, code...)
	}
	return out, st, nil
}

const codeSection = 10

var errTruncated = errors.New("truncated")

// threadCode rewrites the code section's function bodies.
func threadCode(sec []byte, sig *signatures, st *Stats) ([]byte, error) {
	r := reader{b: sec}
	n := r.u32()
	out := appendU32(make([]byte, 0, len(sec)), n)
	var t threader
	var l looper
	for f := uint32(0); f < n; f++ {
		size := r.u32()
		if r.err != nil || uint64(size) > uint64(len(r.b)-r.i) {
			return nil, fmt.Errorf("function body %d: %w", f, errTruncated)
		}
		body := r.b[r.i : r.i+int(size)]
		r.i += int(size)
		st.Functions++
		nb, goShaped, err := t.body(body, st)
		if err != nil {
			return nil, fmt.Errorf("function body %d: %w", f, err)
		}
		if goShaped {
			// Loops drop PC_B's writes too: only where the table reads it.
			var loops int
			if nb, loops, err = l.body(nb, sig.params(f)); err != nil {
				return nil, fmt.Errorf("function body %d: %w", f, err)
			}
			st.Loops += loops
		}
		out = appendU32(out, uint32(len(nb)))
		out = append(out, nb...)
	}
	if r.err != nil {
		return nil, r.err
	}
	if r.i != len(r.b) {
		return nil, fmt.Errorf("%d bytes after the last function body", len(r.b)-r.i)
	}
	return out, nil
}

// signatures are the parameter counts of a module's defined functions (in
// the order of their bodies), from its type and function sections: loops
// needs them to add a local. A section it cannot read leaves them unknown.
type signatures struct {
	types []int    // by type index: the parameters
	funcs []uint32 // by defined function: its type index
	bad   bool
}

func (s *signatures) read(id byte, sec []byte) {
	r := reader{b: sec}
	switch id {
	case 1: // types
		for n, i := r.u32(), uint32(0); i < n && r.err == nil; i++ {
			if r.byte() != 0x60 {
				s.bad = true
				return
			}
			params := r.u32()
			r.skip(int(min(params, uint32(len(sec)))))
			results := r.u32()
			r.skip(int(min(results, uint32(len(sec)))))
			s.types = append(s.types, int(params))
		}
	case 3: // functions
		for n, i := r.u32(), uint32(0); i < n && r.err == nil; i++ {
			s.funcs = append(s.funcs, r.u32())
		}
	default:
		return
	}
	if r.err != nil {
		s.bad = true
	}
}

// params returns the parameter count of defined function f, or -1.
func (s *signatures) params(f uint32) int {
	if s.bad || f >= uint32(len(s.funcs)) || s.funcs[f] >= uint32(len(s.types)) {
		return -1
	}
	return s.types[s.funcs[f]]
}

// inst is one decoded instruction: its opcode and its bytes in the body.
type inst struct {
	op         byte
	start, end int
	imm        int64 // a branch's depth, a local's index, an i32.const's value
	void       bool  // a block, loop or if without parameters or results
}

// label is an open block, loop or if.
type label struct {
	id  int
	pos int // its instruction's index
}

// edit replaces body[start:end] with op (br or br_if) to depth, after
// `local.get 0; i32.eqz` for a function's way in.
type edit struct {
	start, end int
	depth      int64
	op         byte
	entry      bool
	// inIf is the index of the void if the jump is alone in, or -1; br
	// the jump's.
	inIf, br int
}

// threader holds the buffers reused from one body to the next.
type threader struct {
	insts  []inst
	stack  []label
	open   []int // by label id: its index in stack while open, else -1
	table  []int // by PC_B: the id of the label the jump table goes to
	edits  []edit
	reads0 []int // the instructions that read local 0
}

// body returns the function body with its forward jumps threaded, or the
// body itself when it is not of Go's shape; goShaped reports whether it is
// (and its table the only reader of PC_B).
func (t *threader) body(b []byte, st *Stats) (_ []byte, goShaped bool, _ error) {
	r := reader{b: b}
	if readLocals(&r); r.err != nil {
		return nil, false, fmt.Errorf("locals: %w", r.err)
	}
	t.insts, t.stack, t.open, t.table, t.edits, t.reads0 = t.insts[:0], t.stack[:0], t.open[:0], t.table[:0], t.edits[:0], t.reads0[:0]
	loop, dispatch := -1, -1 // the dispatch loop's label id; the table's instruction
	jumps, ended := 0, false
	for r.i < len(r.b) {
		in, table, err := decode(&r)
		if err != nil {
			return nil, false, fmt.Errorf("instruction at byte %d: %w", in.start, err)
		}
		i := len(t.insts)
		t.insts = append(t.insts, in)
		switch in.op {
		case opBlock, opLoop, opIf:
			t.open = append(t.open, len(t.stack))
			t.stack = append(t.stack, label{id: len(t.open) - 1, pos: i})
		case opEnd:
			if len(t.stack) == 0 {
				if r.i != len(r.b) {
					return nil, false, fmt.Errorf("the body ends at byte %d of %d", in.end, len(r.b))
				}
				ended = true
				break
			}
			top := t.stack[len(t.stack)-1]
			if n := len(t.edits); n > 0 {
				// `if; i32.const; local.set 0; br; end` is one br_if.
				if e := &t.edits[n-1]; e.inIf == top.pos && e.br == i-1 && e.depth > 0 {
					e.start, e.end, e.depth, e.op = t.insts[e.inIf].start, in.end, e.depth-1, opBrIf
				}
			}
			t.open[top.id] = -1
			t.stack = t.stack[:len(t.stack)-1]
		case opLocalGet:
			if in.imm == 0 {
				t.reads0 = append(t.reads0, i)
			}
		case opBrTable:
			if dispatch >= 0 || i == 0 || t.insts[i-1].op != opLocalGet || t.insts[i-1].imm != 0 {
				break
			}
			head, _, ok := dispatchChain(i-1, func(j int) inst { return t.insts[j] })
			if !ok {
				break
			}
			dispatch, loop = i, t.labelOpenedAt(head)
			for _, d := range table {
				if d >= int64(len(t.stack)) {
					return nil, false, fmt.Errorf("br_table at byte %d: depth %d with %d labels open", in.start, d, len(t.stack))
				}
				t.table = append(t.table, t.stack[len(t.stack)-1-int(d)].id)
			}
			if !t.hasEntry(dispatch) && t.table[0] != loop {
				// A call enters with PC_B 0: a conditional branch takes it
				// to its code, ahead of the table's indirect jump.
				at := t.insts[i-1].start
				t.edits = append(t.edits, edit{start: at, end: at, depth: table[0], op: opBrIf, entry: true, inIf: -1})
			}
		case opBr:
			if loop < 0 || in.imm >= int64(len(t.stack)) || t.stack[len(t.stack)-1-int(in.imm)].id != loop {
				break
			}
			jumps++
			if i < 2 || !setsPCB(t.insts[i-2], t.insts[i-1]) {
				break
			}
			k := tableEntry(t.insts[i-2].imm, len(t.table))
			if t.table[k] == loop {
				break // the table's own loop: a jump there is through the table
			}
			pos := t.open[t.table[k]]
			if pos < 0 {
				break // backward: the target's block has ended
			}
			e := edit{start: t.insts[i-2].start, end: in.end, depth: int64(len(t.stack) - 1 - pos), op: opBr, inIf: -1, br: i}
			if i >= 3 && t.insts[i-3].op == opIf && t.insts[i-3].void && t.stack[len(t.stack)-1].pos == i-3 {
				e.inIf = i - 3
			}
			t.edits = append(t.edits, e)
		}
	}
	if r.err != nil {
		return nil, false, r.err
	}
	if !ended {
		return nil, false, errors.New("the body does not end with end")
	}
	if loop < 0 {
		return b, false, nil
	}
	st.Dispatched++
	st.Jumps += jumps
	if !t.pcbUnread(dispatch) {
		return b, false, nil
	}
	if len(t.edits) == 0 {
		return b, true, nil
	}
	st.Threaded++
	out := make([]byte, 0, len(b))
	out = append(out, b[:t.insts[0].start]...)
	at := t.insts[0].start
	for _, e := range t.edits {
		out = append(out, b[at:e.start]...)
		switch {
		case e.entry:
			st.Entries++
			out = append(out, opLocalGet, 0, opI32Eqz)
		case e.op == opBrIf:
			st.Conditional++
		default:
			st.Direct++
		}
		out = append(out, e.op)
		out = appendU32(out, uint32(e.depth))
		at = e.end
	}
	return append(out, b[at:]...), true, nil
}

// labelOpenedAt returns the id of the open label opened at instruction i.
func (t *threader) labelOpenedAt(i int) int {
	for k := len(t.stack) - 1; k >= 0; k-- {
		if t.stack[k].pos == i {
			return t.stack[k].id
		}
	}
	return -1
}

// dispatchChain reads Go's dispatch loop back from instruction i, the
// table's `local.get 0` (at returns an instruction by index): the void
// blocks that open right before it (after Thread's way in, if there is
// one), innermost first, and the void loop that opens right before them.
// ok is false for any other shape.
func dispatchChain(i int, at func(int) inst) (loop int, blocks []int, ok bool) {
	j := i - 1
	if j >= 2 && isWayIn(at(j-2), at(j-1), at(j)) {
		j -= 3
	}
	for ; j >= 0 && at(j).op == opBlock && at(j).void; j-- {
		blocks = append(blocks, j)
	}
	if j < 0 || at(j).op != opLoop || !at(j).void || len(blocks) == 0 {
		return 0, nil, false
	}
	return j, blocks, true
}

// setsPCB reports whether a and b set PC_B to a constant, as a jump through
// the table does before its br: `i32.const K; local.set 0`.
func setsPCB(a, b inst) bool {
	return a.op == opI32Const && b.op == opLocalSet && b.imm == 0
}

// tableEntry returns the entry of a table of n entries (the default last)
// that PC_B k selects.
func tableEntry(k int64, n int) int {
	if k < 0 || k >= int64(n) {
		return n - 1
	}
	return int(k)
}

// hasEntry reports whether the table at instruction dispatch has the way
// in that Thread adds: `local.get 0; i32.eqz; br_if` before its
// `local.get 0`.
func (t *threader) hasEntry(dispatch int) bool {
	i := dispatch - 4
	return i >= 0 && isWayIn(t.insts[i], t.insts[i+1], t.insts[i+2])
}

// isWayIn reports whether a, b and c are the way in Thread adds ahead of a
// table: `local.get 0; i32.eqz; br_if`.
func isWayIn(a, b, c inst) bool {
	return a.op == opLocalGet && a.imm == 0 && b.op == opI32Eqz && c.op == opBrIf
}

// readLocals reads a function body's declarations of locals, and returns
// how many groups they have, where the groups start (after their count,
// however long its encoding) and how many locals they declare in all.
func readLocals(r *reader) (groups uint32, first int, locals uint64) {
	groups = r.u32()
	first = r.i
	for g := uint32(0); g < groups && r.err == nil; g++ {
		locals += uint64(r.u32())
		r.byte()
	}
	return groups, first, locals
}

// pcbUnread reports whether local 0 (PC_B) is read only by the jump table
// at instruction dispatch (and its way in), or as scratch just after it is
// written (`local.set 0; i32.const 0; local.get 0`, an indirect call's).
func (t *threader) pcbUnread(dispatch int) bool {
	for _, i := range t.reads0 {
		if i == dispatch-1 || i == dispatch-4 && t.hasEntry(dispatch) {
			continue
		}
		scratch := i >= 2 && t.insts[i-2].op == opLocalSet && t.insts[i-2].imm == 0 && t.insts[i-1].op == opI32Const // not setsPCB: set, then const
		if !scratch {
			return false
		}
	}
	return true
}
