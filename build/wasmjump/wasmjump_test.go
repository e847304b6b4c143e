package wasmjump

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The instructions the tests' bodies are written in.
var (
	block  = []byte{opBlock, 0x40}
	loop   = []byte{opLoop, 0x40}
	ifVoid = []byte{opIf, 0x40}
	end    = []byte{opEnd}
	ret    = []byte{0x0f}
	call   = []byte{0x10, 0x00, 0x1a} // call 0; drop
)

func br(d byte) []byte               { return []byte{opBr, d} }
func brIf(d byte) []byte             { return []byte{opBrIf, d} }
func get(l byte) []byte              { return []byte{opLocalGet, l} }
func set(l byte) []byte              { return []byte{opLocalSet, l} }
func i32(v byte) []byte              { return []byte{opI32Const, v} }
func brTable(d ...byte) []byte       { return append([]byte{opBrTable, byte(len(d) - 1)}, d...) }
func jump(pc, loopDepth byte) []byte { return cat(i32(pc), set(0), br(loopDepth)) }

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// body is a function body with one local i32 besides the parameter.
func body(code ...[]byte) []byte { return cat([]byte{1, 1, 0x7f}, cat(code...), end) }

// looped is body with the entry flag that loops adds: local 2.
func looped(code ...[]byte) []byte { return cat([]byte{2, 1, 0x7f, 1, 0x7f}, cat(code...), end) }

// set2 sets the entry flag to v.
func set2(v byte) []byte { return cat(i32(v), set(2)) }

// shape4 is goShape with four resume points; shape4e with Thread's way in.
func shape4(rp0, rp1, rp2, rp3 []byte) []byte { return shape4x(nil, rp0, rp1, rp2, rp3) }
func shape4e(rp0, rp1, rp2, rp3 []byte) []byte {
	return shape4x(cat(get(0), []byte{opI32Eqz}, brIf(0)), rp0, rp1, rp2, rp3)
}
func shape4x(entry, rp0, rp1, rp2, rp3 []byte) []byte {
	return body(block, loop, block, block, block, block, entry,
		get(0), brTable(0, 1, 2, 3, 3), end,
		rp0, end, rp1, end, rp2, end, rp3, end, end, i32(1))
}

// module is a module of one type, (i32) -> i32, and the functions given.
func module(bodies ...[]byte) []byte {
	sec := func(id byte, content []byte) []byte {
		return cat([]byte{id}, appendU32(nil, uint32(len(content))), content)
	}
	funcs := appendU32(nil, uint32(len(bodies)))
	code := appendU32(nil, uint32(len(bodies)))
	for _, b := range bodies {
		funcs = append(funcs, 0)
		code = append(appendU32(code, uint32(len(b))), b...)
	}
	return cat([]byte("\x00asm\x01\x00\x00\x00"),
		sec(1, []byte{1, 0x60, 1, 0x7f, 1, 0x7f}),
		sec(3, funcs),
		sec(0, []byte("\x04name")), // a custom section, kept as it is
		sec(codeSection, code))
}

// goShape is a function laid out as Go's compiler lays it out, three
// resume points, with rp0, rp1 and rp2 the code of each. Inside rp0 the
// loop is at depth 2 (rp0 is in blocks B2 and B1), inside rp1 at depth 1,
// inside rp2 at 0.
func goShape(rp0, rp1, rp2 []byte) []byte { return shape(nil, rp0, rp1, rp2) }

// threaded is goShape with the way in that Thread adds.
func threaded(rp0, rp1, rp2 []byte) []byte {
	return shape(cat(get(0), []byte{opI32Eqz}, brIf(0)), rp0, rp1, rp2)
}

func shape(entry, rp0, rp1, rp2 []byte) []byte {
	return body(
		block, loop, block, block, block, // A, L, B2, B1, B0
		entry,
		get(0), brTable(0, 1, 2, 2), end, // PC_B 0, 1, 2; default 2
		rp0, end,
		rp1, end,
		rp2, end, // of L
		end, // of A
		i32(1))
}

func TestThread(t *testing.T) {
	tests := []struct {
		name                string
		in, want            []byte
		direct, conditional int
		loops               int
		same                bool // no change: no way in either
	}{{
		name:   "a forward jump becomes a br to the target's block",
		in:     goShape(jump(2, 2), i32(5), i32(6)),
		want:   threaded(br(1), i32(5), i32(6)),
		direct: 1,
	}, {
		name:   "a jump to the next resume point",
		in:     goShape(jump(1, 2), i32(5), i32(6)),
		want:   threaded(br(0), i32(5), i32(6)),
		direct: 1,
	}, {
		name:        "a jump alone in an if becomes a br_if",
		in:          goShape(cat(get(1), ifVoid, jump(2, 3), end, i32(4), ret), i32(5), i32(6)),
		want:        threaded(cat(get(1), brIf(1), i32(4), ret), i32(5), i32(6)),
		conditional: 1,
	}, {
		name:   "an if with more than the jump keeps its if",
		in:     goShape(cat(get(1), ifVoid, i32(9), set(1), jump(2, 3), end), i32(5), i32(6)),
		want:   threaded(cat(get(1), ifVoid, i32(9), set(1), br(2), end), i32(5), i32(6)),
		direct: 1,
	}, {
		name: "a backward jump over a call stays",
		in:   goShape(call, cat(get(1), ifVoid, jump(0, 2), end), i32(6)),
		want: threaded(call, cat(get(1), ifVoid, jump(0, 2), end), i32(6)),
	}, {
		name: "a loop without a call becomes a loop",
		in:   goShape(i32(4), cat(get(1), ifVoid, jump(0, 2), end), i32(6)),
		want: looped(block, loop, block, block, // A, L, B2, B0: B1 moves into the loop
			get(0), []byte{opI32Eqz}, brIf(0),
			get(0), brTable(0, 0, 1, 1), end, // PC_B 1 goes nowhere now
			loop, block, i32(4), end, // the new loop, B1 in it; rp0
			get(1), brIf(0), end, // rp1: the back edge; the loop ends
			end, i32(6), end, // B2; rp2
			end, i32(1)),
		loops: 1,
	}, {
		name: "a call in an if has no resume point",
		in:   goShape(cat(get(1), ifVoid, call, end), cat(get(1), ifVoid, jump(0, 2), end), i32(6)),
		want: looped(block, loop, block, block,
			get(0), []byte{opI32Eqz}, brIf(0),
			get(0), brTable(0, 0, 1, 1), end,
			loop, block, get(1), ifVoid, call, end, end,
			get(1), brIf(0), end,
			end, i32(6), end,
			end, i32(1)),
		loops: 1,
	}, {
		name: "a loop of one resume point",
		in:   goShape(cat(get(1), ifVoid, jump(0, 3), end), i32(5), i32(6)),
		want: looped(block, loop, block, block, block,
			get(0), []byte{opI32Eqz}, brIf(0),
			get(0), brTable(0, 1, 2, 2), end,
			loop, get(1), brIf(0), end, end, // rp0 in its loop
			i32(5), end, i32(6), end, end, i32(1)),
		loops: 1,
	}, {
		name: "a loop entered at its test, as Go lays loops out",
		// rp0 jumps in at rp2, the test, which goes back to rp1.
		in: shape4(jump(2, 3), i32(5), cat(get(1), ifVoid, jump(1, 2), end), i32(7)),
		want: looped(block, loop, block, block, block, // A, L, B3, B1, B0: B2 moves
			get(0), []byte{opI32Eqz}, brIf(0),
			get(0), brTable(0, 1, 1, 2, 2), end, // PC_B 2 goes nowhere now
			set2(1), br(0), end, // rp0: the flag, then to the loop's head
			loop, block, // the new loop, B2 in it
			get(2), i32(0), set(2), brIf(0), // entered at the test?
			i32(5), end, // rp1
			get(1), brIf(0), end, // rp2, the test: the back edge; the loop ends
			end, i32(7), end, // B3; rp3
			end, i32(1)),
		direct: 1,
		loops:  1,
	}, {
		name:   "a jump from outside into a loop's middle twice: no loop",
		in:     shape4(cat(get(1), ifVoid, jump(2, 4), end, jump(3, 3)), i32(5), i32(6), cat(get(1), ifVoid, jump(1, 2), end)),
		want:   shape4e(cat(get(1), brIf(1), br(2)), i32(5), i32(6), cat(get(1), ifVoid, jump(1, 2), end)),
		direct: 1, conditional: 1,
	}, {
		name:   "a PC_B past the table takes its default",
		in:     goShape(jump(9, 2), i32(5), i32(6)),
		want:   threaded(br(1), i32(5), i32(6)),
		direct: 1,
	}, {
		name: "a PC_B the table sends back to the loop stays",
		in: body(block, loop, block, block, get(0), brTable(0, 2, 0), end,
			jump(1, 1), end, end, end, i32(1)),
		want: body(block, loop, block, block, get(0), []byte{opI32Eqz}, brIf(0), get(0), brTable(0, 2, 0), end,
			jump(1, 1), end, end, end, i32(1)),
	}, {
		name: "PC_B read elsewhere: the function is left as it is",
		in:   goShape(cat(get(0), set(1), jump(2, 2)), i32(5), i32(6)),
		want: goShape(cat(get(0), set(1), jump(2, 2)), i32(5), i32(6)),
		same: true,
	}, {
		name: "PC_B read elsewhere: no loop either (a loop drops PC_B's writes too)",
		in:   goShape(cat(get(0), set(1)), cat(get(1), ifVoid, jump(0, 2), end), i32(6)),
		want: goShape(cat(get(0), set(1)), cat(get(1), ifVoid, jump(0, 2), end), i32(6)),
		same: true,
	}, {
		name:   "PC_B as an indirect call's scratch is not a read",
		in:     goShape(cat(i32(3), set(0), i32(0), get(0), []byte{0x1a, 0x1a}, jump(2, 2)), i32(5), i32(6)),
		want:   threaded(cat(i32(3), set(0), i32(0), get(0), []byte{0x1a, 0x1a}, br(1)), i32(5), i32(6)),
		direct: 1,
	}, {
		name: "a loop that is not a dispatch loop",
		in:   body(block, loop, i32(2), set(0), br(0), end, end, i32(1)),
		want: body(block, loop, i32(2), set(0), br(0), end, end, i32(1)),
		same: true,
	}, {
		name: "a br_table on another local",
		in:   body(block, loop, block, get(1), brTable(0, 0), end, jump(0, 0), end, end, i32(1)),
		want: body(block, loop, block, get(1), brTable(0, 0), end, jump(0, 0), end, end, i32(1)),
		same: true,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := module(tc.in, tc.in)
			orig := bytes.Clone(in)
			out, st, err := Thread(in)
			require.NoError(t, err)
			assert.Equal(t, orig, in, "the input is not modified")
			assert.Equal(t, module(tc.want, tc.want), out)
			assert.Equal(t, 2*tc.direct, st.Direct)
			assert.Equal(t, 2*tc.conditional, st.Conditional)
			assert.Equal(t, 2*tc.loops, st.Loops)
			assert.Equal(t, 2, st.Functions)
			if !tc.same {
				assert.Equal(t, 2, st.Threaded)
				assert.Equal(t, 2, st.Entries)
			} else {
				assert.Zero(t, st.Threaded)
			}
			// Threading again finds nothing more to do.
			again, st2, err := Thread(out)
			require.NoError(t, err)
			assert.Equal(t, out, again)
			assert.Zero(t, st2.Direct+st2.Conditional+st2.Entries+st2.Loops)
			assert.Equal(t, st.Dispatched, st2.Dispatched, "a threaded function is still one of Go's")
		})
	}
}

func TestThreadRefusesWhatItCannotRead(t *testing.T) {
	good := module(goShape(jump(2, 2), i32(5), i32(6)))
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"empty", nil, "not a WebAssembly module"},
		{"not wasm", []byte("<!DOCTYPE html>"), "not a WebAssembly module"},
		{"another version", []byte("\x00asm\x02\x00\x00\x00"), "version"},
		{"truncated", good[:len(good)-3], "truncated"},
		{"an opcode Go does not emit", module(body([]byte{0xfd, 0x0c})), "opcode 0xfd"},
		{"unbalanced", module(body(block)), "does not end with end"},
		{"a br_table deeper than its labels", module(body(block, loop, block, get(0), brTable(5), end, end, end)), "depth 5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Thread(tc.in)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestLEB(t *testing.T) {
	for _, v := range []uint32{0, 1, 127, 128, 300, 1 << 20, 1<<32 - 1} {
		r := reader{b: appendU32(nil, v)}
		assert.Equal(t, v, r.u32())
		assert.NoError(t, r.err)
		assert.Equal(t, len(r.b), r.i)
	}
	// Go pads sizes to five bytes; a sixth is too many for 32 bits.
	r := reader{b: []byte{0x85, 0x80, 0x80, 0x80, 0x00}}
	assert.Equal(t, uint32(5), r.u32())
	r = reader{b: []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x00}}
	r.u32()
	assert.Error(t, r.err)
	// Signed: -1 and -64 in one byte, -65 in two.
	for _, c := range []struct {
		b []byte
		v int64
	}{{[]byte{0x7f}, -1}, {[]byte{0x40}, -64}, {[]byte{0xbf, 0x7f}, -65}} {
		r := reader{b: c.b}
		assert.Equal(t, c.v, r.leb(32, true))
	}
}

// FuzzThread: no input panics Thread, and what it returns is a module it
// reads again and finds nothing more to thread in.
func FuzzThread(f *testing.F) {
	f.Add(module(goShape(jump(2, 2), i32(5), i32(6))))
	f.Add(module(goShape(cat(get(1), ifVoid, jump(2, 3), end), cat(get(1), ifVoid, jump(0, 2), end), i32(6))))
	f.Add(module(body(block, loop, i32(2), set(0), br(0), end, end, i32(1))))
	f.Fuzz(func(t *testing.T, in []byte) {
		out, st, err := Thread(in)
		if err != nil {
			return
		}
		again, st2, err := Thread(out)
		require.NoError(t, err, "Thread's output reads again")
		assert.Equal(t, out, again)
		assert.Zero(t, st2.Direct+st2.Conditional+st2.Entries+st2.Loops)
		assert.LessOrEqual(t, st.CodeAfter, st.CodeBefore+5*st.Entries+16*st.Loops)
	})
}

// A body whose count of local groups is padded (as Go pads sizes) keeps
// its groups when loops adds the entry flag.
func TestPaddedLocalsCount(t *testing.T) {
	rp0, rp1, rp2 := i32(4), cat(get(1), ifVoid, jump(0, 2), end), i32(6)
	plain := goShape(rp0, rp1, rp2)
	padded := cat([]byte{0x81, 0x00}, plain[1:]) // 1 group, in two bytes
	want, _, err := Thread(module(plain))
	require.NoError(t, err)
	got, st, err := Thread(module(padded))
	require.NoError(t, err)
	assert.Equal(t, 1, st.Loops)
	assert.Equal(t, want, got)
}
