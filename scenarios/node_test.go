package scenarios

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
)

// yamlErrorLineRE is the regular expression yamlErrorLine stands for.
var yamlErrorLineRE = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)

var yamlErrorInputs = []string{
	"", "yaml:", "yaml: ", "yaml: line 3: did not find expected key",
	"yaml: line 3:", "yaml: line 3: ", "yaml: line : x", "yaml: line x: y",
	"yaml: line 12:x", "yaml: line 1: line 2: z", "yaml: control characters are not allowed",
	"yaml: line 99999999999999999999: big", "yaml: two\nlines", "yaml: line 4: a\nb",
	"Yaml: line 1: x", " yaml: x", "yaml: line 0007: \xff", "yaml: line ٣: x",
}

func TestYAMLErrorLineIsItsRegexp(t *testing.T) {
	for _, s := range yamlErrorInputs {
		checkYAMLErrorLine(t, s)
	}
	line, msg, ok := yamlErrorLine("yaml: line 3: did not find expected key")
	require.True(t, ok)
	require.Equal(t, "3", line)
	require.Equal(t, "did not find expected key", msg)
}

// FuzzYAMLErrorLine: yamlErrorLine agrees with its regular expression on
// any text.
func FuzzYAMLErrorLine(f *testing.F) {
	for _, s := range yamlErrorInputs {
		f.Add(s)
	}
	f.Fuzz(checkYAMLErrorLine)
}

func checkYAMLErrorLine(t *testing.T, s string) {
	t.Helper()
	line, msg, ok := yamlErrorLine(s)
	m := yamlErrorLineRE.FindStringSubmatch(s)
	require.Equal(t, m != nil, ok, "%q", s)
	if ok {
		require.Equal(t, []string{m[1], m[2]}, []string{line, msg}, "%q", s)
	}
}
