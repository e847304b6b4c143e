//go:build !(js && wasm)

package bridge

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestNativeBridgesAreInMemory(t *testing.T) {
	require.IsType(t, &MemoryStorage{}, LocalStorage())
	require.IsType(t, &MemoryFragment{}, LocationHash())
}
