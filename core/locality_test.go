package core

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLocalityIndex(t *testing.T) {
	for _, tt := range []struct {
		l    Locality
		want uint8
	}{
		{"", 0}, {NodeLocal, 1}, {RackLocal, 2}, {OffSwitch, 3},
		{"NODE_LOCAX", 0}, {"RACK", 0}, {"OFF_SWITCH ", 0}, {"x", 0},
	} {
		require.Equal(t, tt.want, localityIndex(tt.l), "%q", tt.l)
		if tt.want != 0 {
			require.Equal(t, tt.l, ContainerBrief{locality: tt.want}.Locality())
		}
	}
}
