package scenarios

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// fastCases are JSON texts fastJSON must read as streamJSON does, or leave
// to it.
var fastCases = []struct {
	name, text string
	fast       bool // fastJSON reads it itself
}{
	{"object", `{"a": 1, "b": [true, false, null], "c": {"d": "e"}}`, true},
	{"lines", "{\n  \"a\":\n    [1,\n     2.5e3],\n  \"b\": -0\n}\n", true},
	{"empty containers", `{"a": {}, "b": [], "c": [{}]}`, true},
	{"top-level scalar", ` "x" `, true},
	{"numbers", `[0, -1, 1.5, 1e9, 1E+2, 2e-3, 12345678901234567890]`, true},
	{"escapes", `{"a\"b": "tab\tnew\nline \u00e9 \ud83d\ude00 \/"}`, true},
	{"utf-8", `{"é": "日本"}`, true},
	{"invalid utf-8 replaced", "{\"a\": \"x\xffy\"}", true},
	{"lone surrogate", `["\ud800"]`, true},
	{"crlf", "{\r\n\"a\": 1\r\n}", true},
	{"trailing comma", `{"a": 1,}`, false},
	{"leading zero", `[01]`, false},
	{"bare word", `[tru]`, false},
	{"word after literal", `[truex]`, false},
	{"two values", `{} {}`, false},
	{"unclosed", `{"a": [1, 2`, false},
	{"control character", "[\"a\x01\"]", false},
	{"bad escape", `["\x"]`, false},
	{"key not a string", `{1: 2}`, false},
	{"missing colon", `{"a" 1}`, false},
	{"dot without digits", `[1.]`, false},
	{"exponent without digits", `[1e]`, false},
	{"minus alone", `[-]`, false},
	{"empty", ``, false},
	{"byte order mark", "\ufeff{}", false},
}

func TestFastJSONIsTheStreamingReader(t *testing.T) {
	for _, tt := range fastCases {
		t.Run(tt.name, func(t *testing.T) {
			fast, ok := fastJSON([]byte(tt.text), maxValues)
			require.Equal(t, tt.fast, ok)
			slow, err := streamJSON([]byte(tt.text), maxValues)
			if ok {
				require.NoError(t, err)
				require.Equal(t, slow, fast)
			}
			got, gotErr := readJSON([]byte(tt.text), maxValues)
			require.Equal(t, slow, got)
			require.Equal(t, err, gotErr)
		})
	}
}

func TestFastJSONLeavesTheLimitsToTheStreamingReader(t *testing.T) {
	text := []byte(`{"a": [1, 2, 3], "b": {"c": 4}}`) // 10 values, the keys included
	_, ok := fastJSON(text, 10)
	require.True(t, ok)
	_, ok = fastJSON(text, 9)
	require.False(t, ok)
	_, err := readJSON(text, 9)
	require.ErrorIs(t, err, errTooManyValues)

	var deep []byte
	for range maxDepth + 2 {
		deep = append(deep, '[')
	}
	for range maxDepth + 2 {
		deep = append(deep, ']')
	}
	_, ok = fastJSON(deep, maxValues)
	require.False(t, ok)
	_, err = readJSON(deep, maxValues)
	require.ErrorContains(t, err, "nesting deeper than")
}

// FuzzFastJSONIsTheStreamingReader: whatever fastJSON reads, streamJSON
// reads the same, line numbers and sizes included.
func FuzzFastJSONIsTheStreamingReader(f *testing.F) {
	for _, tt := range fastCases {
		f.Add([]byte(tt.text))
	}
	addSeedFiles(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > fuzzInputLimit {
			return
		}
		fast, ok := fastJSON(data, maxValues)
		if !ok {
			return
		}
		slow, err := streamJSON(data, maxValues)
		if err != nil {
			t.Fatalf("fastJSON read what streamJSON refuses (%v):\n%q", err, data)
		}
		require.Equal(t, slow, fast, "%q", data)
	})
}
