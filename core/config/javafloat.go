package config

import (
	"math"
	"strconv"
	"strings"
)

// JavaFloatString formats f as Java's Float.toString does, which is how
// Hadoop prints every float in its messages: the shortest decimal that reads
// back as the same float, at least one digit after the point, plain notation
// for values whose decimal exponent is in [-3, 7) ("0.001", "1.1",
// "1234567.0") and computerized scientific notation otherwise ("1.0E-4",
// "1.2345678E7"); "NaN", "Infinity", "-Infinity", "0.0" and "-0.0" as Java
// spells them.
func JavaFloatString(f float32) string {
	return javaString(float64(f), 32)
}

// JavaDoubleString formats f as Java's Double.toString does (same rules as
// JavaFloatString, with double precision: 0.1+0.2 is "0.30000000000000004").
func JavaDoubleString(f float64) string {
	return javaString(f, 64)
}

func javaString(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	// Shortest round-tripping digits, e.g. "-1.2345678e+07"; Java prints at
	// least two significant digits, the two closest to the value, when one
	// would do (only subnormals differ: Float.MIN_VALUE is "1.4E-45").
	s := strconv.FormatFloat(f, 'e', -1, bits)
	if !strings.Contains(s, ".") {
		s = strconv.FormatFloat(f, 'e', 1, bits)
	}
	neg := false
	if s[0] == '-' {
		neg = true
		s = s[1:]
	}
	ePos := strings.IndexByte(s, 'e')
	mant, expStr := s[:ePos], s[ePos+1:]
	exp, _ := strconv.Atoi(expStr) // always well formed
	digits := strings.Replace(mant, ".", "", 1)
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		digits = "0"
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	// Java's FloatingDecimal: decExponent = exp+1 is the number of digits
	// before the point; plain notation when -3 < decExponent < 8.
	dec := exp + 1
	switch {
	case dec > 0 && dec < 8:
		if dec >= len(digits) {
			b.WriteString(digits)
			b.WriteString(strings.Repeat("0", dec-len(digits)))
			b.WriteString(".0")
		} else {
			b.WriteString(digits[:dec])
			b.WriteByte('.')
			b.WriteString(digits[dec:])
		}
	case dec <= 0 && dec > -3:
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -dec))
		b.WriteString(digits)
	default:
		b.WriteByte(digits[0])
		b.WriteByte('.')
		if len(digits) > 1 {
			b.WriteString(digits[1:])
		} else {
			b.WriteByte('0')
		}
		b.WriteByte('E')
		b.WriteString(strconv.Itoa(exp))
	}
	return b.String()
}
