package config

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// javaTrim is Java's String.trim: it removes every leading and trailing
// character <= U+0020 (spaces, tabs, newlines and the other control
// characters), which is what Hadoop's Configuration.getTrimmed and
// Float.parseFloat do. Bytes <= 0x20 are never part of a multi-byte UTF-8
// sequence, so trimming bytes is exact.
func javaTrim(s string) string {
	i, j := 0, len(s)
	for i < j && s[i] <= ' ' {
		i++
	}
	for j > i && s[j-1] <= ' ' {
		j--
	}
	return s[i:j]
}

// errNotFinite marks a value Java would parse as NaN or Infinity.
var errNotFinite = errors.New("NaN and Infinity are not accepted")

// errSyntax marks a value Java's parser rejects (NumberFormatException).
var errSyntax = errors.New("number format")

// parseJavaFloat parses s as Java's Float.parseFloat (bits 32) or
// Double.parseDouble (bits 64) does: the trimmed text is an optionally signed
// decimal literal ("10", "10.5", ".5", "5.", "1e1", "+5") or hexadecimal
// floating-point literal ("0x1.8p1"), optionally followed by one of the type
// suffixes f, F, d, D; "NaN" and "Infinity" are Java numbers too, but they
// are refused here with errNotFinite, as is any literal that overflows to
// infinity. The value is rounded once, to the nearest float of the given size.
func parseJavaFloat(s string, bits int) (float64, error) {
	t := javaTrim(s)
	i := 0
	if i < len(t) && (t[i] == '+' || t[i] == '-') {
		i++
	}
	rest := t[i:]
	if rest == "NaN" || rest == "Infinity" {
		return 0, errNotFinite
	}
	// Drop one type suffix. (A hex literal must end in its binary exponent's
	// decimal digits, so a trailing f/d is never one of its hex digits.)
	if n := len(t); n > i && strings.IndexByte("fFdD", t[n-1]) >= 0 {
		t = t[:n-1]
		rest = t[i:]
	}
	var ok bool
	if len(rest) > 1 && rest[0] == '0' && (rest[1] == 'x' || rest[1] == 'X') {
		ok = validHexFloat(rest[2:])
	} else {
		ok = validDecFloat(rest)
	}
	if !ok {
		return 0, errSyntax
	}
	v, err := strconv.ParseFloat(t, bits)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			if math.IsInf(v, 0) {
				return 0, errNotFinite
			}
			return v, nil // underflow: Java rounds to zero or a subnormal too
		}
		return 0, errSyntax
	}
	return v, nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHexDigit(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// validDecFloat matches digits [. digits] [e [sign] digits], with at least
// one mantissa digit (Java's FloatingDecimal.readJavaFormatString).
func validDecFloat(s string) bool {
	i, n := 0, 0
	for i < len(s) && isDigit(s[i]) {
		i++
		n++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
			n++
		}
	}
	if n == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		e := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == e {
			return false
		}
	}
	return i == len(s)
}

// validHexFloat matches the part after "0x" of Java's hex float grammar:
// (hex+ [.] | hex* . hex+) (p|P) [sign] digit+.
func validHexFloat(s string) bool {
	i, n := 0, 0
	for i < len(s) && isHexDigit(s[i]) {
		i++
		n++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isHexDigit(s[i]) {
			i++
			n++
		}
	}
	if n == 0 || i >= len(s) || (s[i] != 'p' && s[i] != 'P') {
		return false
	}
	i++
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	e := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i > e && i == len(s)
}

// parseJavaInteger is Java's Integer.parseInt / Long.parseLong (bits 32 or
// 64) on s as given: an optional sign then ASCII digits of the radix, within
// range. It does not trim.
func parseJavaInteger(s string, radix, bits int) (int64, error) {
	if s == "" || s == "+" || s == "-" {
		return 0, errSyntax
	}
	digits := s
	if s[0] == '+' || s[0] == '-' {
		digits = s[1:]
	}
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if radix == 16 && !isHexDigit(c) || radix == 10 && !isDigit(c) {
			return 0, errSyntax
		}
	}
	v, err := strconv.ParseInt(s, radix, bits)
	if err != nil {
		return 0, errSyntax
	}
	return v, nil
}

// parseHadoopInteger is Configuration.getInt / getLong on a present value:
// the value is trimmed, "0x"/"0X" (optionally after "-") selects hex,
// anything else is Integer.parseInt / Long.parseLong.
func parseHadoopInteger(raw string, bits int) (int64, error) {
	t := javaTrim(raw)
	neg := strings.HasPrefix(t, "-")
	u := t
	if neg {
		u = t[1:]
	}
	if strings.HasPrefix(u, "0x") || strings.HasPrefix(u, "0X") {
		h := u[2:]
		if neg {
			h = "-" + h
		}
		return parseJavaInteger(h, 16, bits)
	}
	return parseJavaInteger(t, 10, bits)
}

// javaFloatToInt is Java's (int) cast of a float or double: truncation
// toward zero, NaN to 0, saturation at the int range.
func javaFloatToInt(f float64) int {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= math.MaxInt32:
		return math.MaxInt32
	case f <= math.MinInt32:
		return math.MinInt32
	}
	return int(f)
}
