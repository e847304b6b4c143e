package yaml

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
)

// yaml.v3's two regular expressions (resolve.go and encode.go of v3.0.6),
// which the matchers stand for.
var (
	yamlStyleFloatRE = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	base60floatRE    = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)
)

var floatInputs = []string{
	"", "+", "-", ".", "1", "-1", "+1.", "1.5", ".5", "-.5", "1.5e3", "1.5E-3", "1e", "1e+", "1e+5",
	".e5", "1.e5", "..5", "1.5.5", "0x1p3", "1_000.5", "inf", ".inf", "NaN", "1e5x", "١.5", " 1",
	"190:20:30.15", "190:20:30", "1:2", "1:", ":20", "1:60", "1:59", "1:5", "1:05", "1:123", "1:6:7",
	"-1_2:3.4_5", "+1:2.", "1:2.3.4", "1__:2", "_1:2", "1:2:", "1:99", "1:9", "12:345:6", "1:2e5",
}

func TestMatchersAreYAMLsRegexps(t *testing.T) {
	for _, s := range floatInputs {
		checkFloats(t, s)
	}
	require.True(t, matcher(matchesYAMLStyleFloat).MatchString("1.5e3"))
	require.True(t, matcher(matchesBase60Float).MatchString("190:20:30.15"))
}

// FuzzMatchers: the matchers agree with yaml.v3's regular expressions on
// any text.
func FuzzMatchers(f *testing.F) {
	for _, s := range floatInputs {
		f.Add(s)
	}
	f.Fuzz(checkFloats)
}

func checkFloats(t *testing.T, s string) {
	t.Helper()
	require.Equal(t, yamlStyleFloatRE.MatchString(s), matchesYAMLStyleFloat(s), "yamlStyleFloat %q", s)
	require.Equal(t, base60floatRE.MatchString(s), matchesBase60Float(s), "base60float %q", s)
}
