package core

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestNodeTypeNames(t *testing.T) {
	for _, tt := range []struct {
		t    nodeType
		want Locality
	}{
		{ntNone, ""}, {ntNodeLocal, NodeLocal}, {ntRackLocal, RackLocal}, {ntOffSwitch, OffSwitch},
	} {
		require.Equal(t, tt.want, tt.t.Locality())
		require.Equal(t, tt.want, ContainerBrief{locality: tt.t}.Locality())
	}
}
