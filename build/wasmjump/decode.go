package wasmjump

import (
	"errors"
	"fmt"
)

// The opcodes Thread looks at.
const (
	opBlock    = 0x02
	opLoop     = 0x03
	opIf       = 0x04
	opEnd      = 0x0b
	opBr       = 0x0c
	opBrIf     = 0x0d
	opBrTable  = 0x0e
	opLocalGet = 0x20
	opLocalSet = 0x21
	opI32Const = 0x41
	opI32Eqz   = 0x45
)

// reader reads a WebAssembly binary; its first error sticks.
type reader struct {
	b   []byte
	i   int
	err error
}

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
	r.i = len(r.b)
}

func (r *reader) byte() byte {
	if r.i >= len(r.b) {
		r.fail(errTruncated)
		return 0
	}
	c := r.b[r.i]
	r.i++
	return c
}

// leb reads a LEB128 number of at most bits bits, signed or not.
func (r *reader) leb(bits uint, signed bool) int64 {
	var v uint64
	var shift uint
	for {
		c := r.byte()
		if r.err != nil {
			return 0
		}
		if shift >= bits {
			r.fail(fmt.Errorf("a LEB128 number longer than %d bits at byte %d", bits, r.i-1))
			return 0
		}
		v |= uint64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if signed && shift < 64 && c&0x40 != 0 {
				v |= ^uint64(0) << shift
			}
			return int64(v)
		}
	}
}

func (r *reader) u32() uint32 { return uint32(r.leb(32, false)) }

func (r *reader) skip(n int) {
	if n > len(r.b)-r.i {
		r.fail(errTruncated)
		return
	}
	r.i += n
}

func appendU32(b []byte, v uint32) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// decode reads one instruction. For br_table it also returns the depths of
// its targets, the default last.
func decode(r *reader) (inst, []int64, error) {
	in := inst{start: r.i}
	in.op = r.byte()
	var table []int64
	switch op := in.op; {
	case op == opBlock || op == opLoop || op == opIf:
		// The block type: empty (0x40), a value type, or a type index.
		if r.i < len(r.b) && r.b[r.i] == 0x40 {
			in.void = true
			r.i++
		} else {
			r.leb(33, true)
		}
	case op == opBr || op == opBrIf || op == 0x10 || op == 0x12 || // br, br_if, call, return_call
		op >= 0x20 && op <= 0x26 || // locals, globals, table.get and set
		op == 0xd0 || op == 0xd2: // ref.null, ref.func
		in.imm = int64(r.u32())
	case op == opBrTable:
		n := r.u32()
		if uint64(n) > uint64(len(r.b)-r.i) {
			r.fail(errTruncated)
			break
		}
		table = make([]int64, 0, n+1)
		for k := uint32(0); k <= n && r.err == nil; k++ {
			table = append(table, int64(r.u32()))
		}
	case op == 0x11 || op == 0x13: // call_indirect, return_call_indirect
		r.u32()
		r.u32()
	case op == 0x1c: // select with types
		n := r.u32()
		r.skip(int(min(n, uint32(len(r.b)))))
	case op >= 0x28 && op <= 0x3e: // loads and stores: align, offset
		r.u32()
		r.leb(64, false)
	case op == 0x3f || op == 0x40: // memory.size, memory.grow
		r.u32()
	case op == opI32Const:
		in.imm = r.leb(32, true)
	case op == 0x42:
		r.leb(64, true)
	case op == 0x43:
		r.skip(4)
	case op == 0x44:
		r.skip(8)
	case op == 0xfc:
		if err := decodeFC(r); err != nil {
			return in, nil, err
		}
	case op <= 0x01 || op == 0x05 || op == opEnd || op == 0x0f || // unreachable, nop, else, end, return
		op == 0x1a || op == 0x1b || // drop, select
		op >= 0x45 && op <= 0xc4 || // numeric
		op == 0xd1: // ref.is_null
	default:
		return in, nil, fmt.Errorf("opcode 0x%02x is not one Go emits", op)
	}
	in.end = r.i
	if r.err != nil {
		return in, nil, r.err
	}
	return in, table, nil
}

// decodeFC reads the immediates of a 0xfc-prefixed instruction.
func decodeFC(r *reader) error {
	switch sub := r.u32(); {
	case sub <= 7: // saturating truncations
	case sub == 9 || sub == 11 || sub == 13 || sub >= 15 && sub <= 17: // data.drop, memory.fill, elem.drop, table.grow/size/fill
		r.u32()
	case sub == 8 || sub == 10 || sub == 12 || sub == 14: // memory.init, memory.copy, table.init, table.copy
		r.u32()
		r.u32()
	default:
		return errors.New("an unknown 0xfc instruction")
	}
	return nil
}
