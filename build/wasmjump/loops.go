package wasmjump

import (
	"slices"
)

// Loops: once the forward jumps are threaded, a loop's back edge still
// goes through the table. Where the loop makes no call that Go's runtime
// could resume it after, its resume points are only jump targets, and the
// loop can be a WebAssembly loop of its own:
//
//	      block E_k ... end               header k: its block stays
//	loop Lk  block E_j ... block E_k+1    new; the blocks of the resume
//	                                      points after k, moved in
//	  code k  end  code k+1  ...  end  code j   (the back edges: br Lk)
//	end                                   new, just before E_j+1's end
//
// The code stays in its order and every resume point in it still starts
// where a block ends; only the blocks of resume points k+1 to j open inside
// the new loop instead of in the function's chain. The table's entries for
// k+1 to j go to k instead: no call returns there and no jump through the
// table goes there (loops checks both).
//
// Go lays a loop out with its test last and enters it there: the jump in
// goes forward into the middle of the range, where a WebAssembly loop
// cannot be entered. Such a jump sets a local of its own (the entry flag)
// and branches to the loop's head, where the flag, cleared as it is read,
// sends it on to its resume point. A loop entered in the middle at two
// places, or from further out than its own blocks, stays as it was, and so
// does the whole function if any branch would lose its target.

// node is an instruction of a body, its branch targets as label ids.
type node struct {
	inst
	label   int   // block, loop, if: the label it opens; end: the one it closes (-1: the body's)
	in      int   // the innermost label open at it (-1: none)
	target  int   // br, br_if: the label branched to
	targets []int // br_table's, the default last
}

// looper holds the buffers reused from one body to the next.
type looper struct {
	src   []byte // the body
	nodes []node
	stack []int
}

// loopRange is a loop to make: header segment k, back edges up to segment
// j, entered from before k at segment e (-1: only at k).
type loopRange struct{ k, j, e int }

// body returns the function body with the back edges of its call-free
// loops made branches to loops of their own, and how many it made. params
// is the function's number of parameters (its locals' indices follow).
func (l *looper) body(b []byte, params int) ([]byte, int, error) {
	if params < 0 {
		return b, 0, nil // no local can be added safely
	}
	r := reader{b: b}
	groups, first, declared := readLocals(&r)
	if r.err != nil {
		return nil, 0, r.err
	}
	locals := uint64(params) + declared
	codeStart := r.i
	l.src, l.nodes, l.stack = b, l.nodes[:0], l.stack[:0]
	ids := 0
	for r.i < len(r.b) {
		in, table, err := decode(&r)
		if err != nil {
			return nil, 0, err
		}
		n := node{inst: in, label: -1, target: -1, in: -1}
		if len(l.stack) > 0 {
			n.in = l.stack[len(l.stack)-1]
		}
		switch in.op {
		case opBlock, opLoop, opIf:
			n.label = ids
			l.stack = append(l.stack, ids)
			ids++
		case opEnd:
			if len(l.stack) > 0 {
				n.label = l.stack[len(l.stack)-1]
				l.stack = l.stack[:len(l.stack)-1]
			}
		case opBr, opBrIf:
			n.target = l.at(in.imm)
		case opBrTable:
			for _, d := range table {
				n.targets = append(n.targets, l.at(d))
			}
		}
		l.nodes = append(l.nodes, n)
	}
	d, ok := l.dispatch()
	if !ok || locals >= 1<<31 {
		return b, 0, nil
	}
	ranges := l.ranges(&d)
	if len(ranges) == 0 {
		return b, 0, nil
	}
	// The locals as they were, and one i32 more: the entry flag.
	prefix := appendU32(nil, groups+1)
	prefix = append(prefix, b[first:codeStart]...)
	prefix = append(prefix, 1, 0x7f)
	out, ok := l.emit(prefix, &d, ranges, ids, uint32(locals))
	if !ok {
		return b, 0, nil
	}
	return out, len(ranges), nil
}

// at returns the label depth d names, or -2 when there is none (the body's
// own, or out of range).
func (l *looper) at(d int64) int {
	if d < 0 || d >= int64(len(l.stack)) {
		return -2
	}
	return l.stack[len(l.stack)-1-int(d)]
}

// dispatchInfo is a function's table and the blocks of its resume points.
type dispatchInfo struct {
	loop   int   // the dispatch loop's label
	table  int   // the br_table's node
	opens  []int // by segment: the node opening its block (segment m starts after that block's end)
	ends   []int // by segment: the node of that block's end
	seg    []int // by label id: the segment whose block it is, else -1
	loopAt int   // the dispatch loop's end node
}

// dispatch finds Go's dispatch loop and its chain of blocks.
func (l *looper) dispatch() (dispatchInfo, bool) {
	var d dispatchInfo
	d.table = -1
	for i, n := range l.nodes {
		if n.op == opBrTable && i > 0 && l.nodes[i-1].op == opLocalGet && l.nodes[i-1].imm == 0 {
			d.table = i
			break
		}
	}
	if d.table < 0 {
		return d, false
	}
	head, opens, ok := dispatchChain(d.table-1, func(j int) inst { return l.nodes[j].inst })
	if !ok {
		return d, false
	}
	d.opens = opens // innermost first: segment 0's block first
	d.loop = l.nodes[head].label
	d.seg = make([]int, len(l.nodes)) // label ids are fewer than nodes
	for i := range d.seg {
		d.seg[i] = -1
	}
	for m, o := range d.opens {
		d.seg[l.nodes[o].label] = m
	}
	d.ends = make([]int, len(d.opens))
	d.loopAt = -1
	for i := d.table; i < len(l.nodes); i++ {
		n := l.nodes[i]
		if n.op != opEnd {
			continue
		}
		if n.label == d.loop {
			d.loopAt = i
			break
		}
		if n.label >= 0 && d.seg[n.label] >= 0 {
			d.ends[d.seg[n.label]] = i
		}
	}
	return d, d.loopAt >= 0
}

// segmentOf returns the segment node i is in (-1: before the first).
func (d *dispatchInfo) segmentOf(i int) int {
	lo, hi := 0, len(d.ends) // the first segment whose block ends after i
	for lo < hi {
		m := (lo + hi) / 2
		if d.ends[m] < i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo - 1
}

// segOfLabel returns the segment whose block label id is, or -1.
func (d *dispatchInfo) segOfLabel(id int) int {
	if id < 0 || id >= len(d.seg) {
		return -1
	}
	return d.seg[id]
}

// jumpTo returns the segment a jump through the table at node i (its br)
// goes to, or -1 if node i is not one.
func (l *looper) jumpTo(d *dispatchInfo, i int) int {
	n := l.nodes[i]
	if n.op != opBr || n.target != d.loop || i < 2 || !setsPCB(l.nodes[i-2].inst, l.nodes[i-1].inst) {
		return -1
	}
	t := l.nodes[d.table].targets
	return d.segOfLabel(t[tableEntry(l.nodes[i-2].imm, len(t))])
}

// resumable reports whether node i may be a call that Go's runtime
// resumes the function after: a call at the top level of its segment (Go
// puts a resume point after each; a call inside an if or a block, such as
// sigpanic's, has none).
func (l *looper) resumable(d *dispatchInfo, i int) bool {
	n := l.nodes[i]
	if n.op != 0x10 && n.op != 0x11 {
		return false
	}
	return n.in == d.loop || d.segOfLabel(n.in) >= 0
}

// segEnd returns the node that ends segment m: the next segment's block's
// end, or the dispatch loop's end after the last.
func (d *dispatchInfo) segEnd(m int) int {
	if m+1 < len(d.ends) {
		return d.ends[m+1]
	}
	return d.loopAt
}

// ranges returns the loops to make: for each header, the segments up to
// its last back edge, when none of them makes a call that returns to a
// resume point, no jump through the table goes into them past the header,
// and branches from before the header come in at one segment at most;
// nested or overlapping ones give way to the shorter.
func (l *looper) ranges(d *dispatchInfo) []loopRange {
	last := map[int]int{} // header segment: the last segment with a back edge to it
	into := map[int]bool{}
	for i := d.table + 1; i < d.loopAt; i++ {
		to := l.jumpTo(d, i)
		if to < 0 {
			continue
		}
		from := d.segmentOf(i)
		into[to] = true
		if to <= from {
			last[to] = max(last[to], from)
		}
	}
	var cands []loopRange
	for k, j := range last {
		rg, ok := loopRange{k: k, j: j, e: -1}, true
		for m := k + 1; m <= j && ok; m++ {
			ok = !into[m]
		}
		for i := d.ends[k] + 1; i < d.segEnd(j) && ok; i++ {
			ok = !l.resumable(d, i)
		}
		// Branches from before the header into the range: one place.
		for i := d.table + 1; i < d.ends[k] && ok; i++ {
			n := l.nodes[i]
			if n.op != opBr && n.op != opBrIf {
				continue
			}
			if m := d.segOfLabel(n.target); m > k && m <= j {
				ok = rg.e < 0 || rg.e == m
				rg.e = m
			}
		}
		if ok {
			cands = append(cands, rg)
		}
	}
	slices.SortFunc(cands, func(a, b loopRange) int {
		if c := (a.j - a.k) - (b.j - b.k); c != 0 {
			return c
		}
		return a.k - b.k
	})
	var chosen []loopRange
	for _, c := range cands {
		if !slices.ContainsFunc(chosen, func(o loopRange) bool { return c.k <= o.j && o.k <= c.j }) {
			chosen = append(chosen, c)
		}
	}
	slices.SortFunc(chosen, func(a, b loopRange) int { return a.k - b.k })
	return chosen
}

// emit writes the body with the loops made, flag being the entry flag's
// local, and every branch's depth computed from its target; ok is false if
// a target is not open where its branch is (the body is then left as it
// was).
func (l *looper) emit(prefix []byte, d *dispatchInfo, ranges []loopRange, ids int, flag uint32) ([]byte, bool) {
	b := l.nodes
	moved := map[int]bool{}  // nodes of blocks that open inside a new loop
	opensAt := map[int]int{} // end node of a header's block: its range
	closeAt := map[int]int{} // node before which a new loop ends: its range
	entry := map[int]int{}   // label id of a segment entered from before its loop: its range
	for ri, rg := range ranges {
		for m := rg.k + 1; m <= rg.j; m++ {
			moved[d.opens[m]] = true
		}
		opensAt[d.ends[rg.k]] = ri
		closeAt[d.segEnd(rg.j)] = ri
		if rg.e >= 0 {
			entry[l.nodes[d.opens[rg.e]].label] = ri
		}
	}
	out := prefix
	l.stack = l.stack[:0]
	depth := func(id int) (uint32, bool) {
		for k := len(l.stack) - 1; k >= 0; k-- {
			if l.stack[k] == id {
				return uint32(len(l.stack) - 1 - k), true
			}
		}
		return 0, false
	}
	header := func(ri int) int { return l.nodes[d.opens[ranges[ri].k]].label }
	inLoop := -1 // the range whose new loop is open
	for i := 0; i < len(b); i++ {
		n := b[i]
		if ri, ok := closeAt[i]; ok && ri == inLoop {
			out = append(out, opEnd)
			l.stack = l.stack[:len(l.stack)-1]
			inLoop = -1
		}
		if moved[i] {
			continue
		}
		// A back edge: `i32.const; local.set 0; br` (alone in an if: br_if).
		if inLoop >= 0 && n.op == opI32Const && i+2 < len(b) && l.jumpTo(d, i+2) == ranges[inLoop].k {
			op, skip := byte(opBr), 2
			if i > 0 && b[i-1].op == opIf && b[i-1].void && i+3 < len(b) && b[i+3].op == opEnd && b[i+3].label == b[i-1].label {
				// Undo the if written just before: one br_if instead.
				out = out[:len(out)-2]
				l.stack = l.stack[:len(l.stack)-1]
				op, skip = opBrIf, 3
			}
			dep, ok := depth(ids + inLoop)
			if !ok {
				return nil, false
			}
			out = appendU32(append(out, op), dep)
			i += skip
			continue
		}
		switch n.op {
		case opBlock, opLoop, opIf:
			l.stack = append(l.stack, n.label)
		case opEnd:
			if len(l.stack) > 0 {
				l.stack = l.stack[:len(l.stack)-1]
			}
		case opBr, opBrIf:
			dep, ok := depth(n.target)
			if !ok {
				ri, in := entry[n.target]
				if !in || n.target < 0 {
					return nil, false
				}
				// Into a loop's middle from before it: by its head.
				hd, ok := depth(header(ri))
				if !ok {
					return nil, false
				}
				if n.op == opBrIf {
					out = append(out, opIf, 0x40)
					hd++
				}
				out = append(out, opI32Const, 1, opLocalSet)
				out = appendU32(out, flag)
				out = appendU32(append(out, opBr), hd)
				if n.op == opBrIf {
					out = append(out, opEnd)
				}
				continue
			}
			out = appendU32(append(out, n.op), dep)
			continue
		case opBrTable:
			out = append(out, opBrTable)
			out = appendU32(out, uint32(len(n.targets)-1))
			for _, t := range n.targets {
				if m := d.segOfLabel(t); m >= 0 && moved[d.opens[m]] {
					// No one comes here: go to the header's block.
					for _, rg := range ranges {
						if rg.k < m && m <= rg.j {
							t = l.nodes[d.opens[rg.k]].label
						}
					}
				}
				dep, ok := depth(t)
				if !ok {
					return nil, false
				}
				out = appendU32(out, dep)
			}
			continue
		}
		out = append(out, l.src[n.start:n.end]...)
		if ri, ok := opensAt[i]; ok {
			// The header's block has ended: its loop, then the blocks
			// of the resume points after it, outermost first.
			rg := ranges[ri]
			out = append(out, opLoop, 0x40)
			l.stack = append(l.stack, ids+ri)
			for m := rg.j; m > rg.k; m-- {
				out = append(out, opBlock, 0x40)
				l.stack = append(l.stack, l.nodes[d.opens[m]].label)
			}
			if rg.e >= 0 {
				// Entered in the middle: the flag, cleared, says so.
				out = append(out, opLocalGet)
				out = appendU32(out, flag)
				out = append(out, opI32Const, 0, opLocalSet)
				out = appendU32(out, flag)
				out = appendU32(append(out, opBrIf), uint32(rg.e-rg.k-1))
			}
			inLoop = ri
		}
	}
	return out, len(l.stack) == 0
}
