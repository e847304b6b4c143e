package app

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWithPercents(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Illegal capacity of 1.0 for children of queue root", "Illegal capacity of 1.0 (100%) for children of queue root"},
		{"Illegal capacity of 0.9 for children of queue root.a", "Illegal capacity of 0.9 (90%) for children of queue root.a"},
		{"Illegal capacity of 1.5 for queue root.a", "Illegal capacity of 1.5 (150%) for queue root.a"},
		{"Illegal queue capacity setting (abs-capacity=0.6) > (abs-maximum-capacity=0.5) for queue=[root.a],label=[]",
			"Illegal queue capacity setting (abs-capacity=0.6 (60%)) > (abs-maximum-capacity=0.5 (50%)) for queue=[root.a],label=[]"},
		{"unknown queue: qa-team", "unknown queue: qa-team"},
	} {
		require.Equal(t, tc.want, withPercents(tc.in))
	}
}
