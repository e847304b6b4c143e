package core

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// TestHotFieldsShareACacheLine holds the layouts the heartbeat's speed
// relies on (state.go): Go's allocator puts an object of 128 or 256 bytes
// at a multiple of its size, so such an object's first 64 bytes are one
// cache line; an object of 96 bytes starts at 0 or 32 bytes into a line,
// so its first 32 bytes are.
func TestHotFieldsShareACacheLine(t *testing.T) {
	require.Equal(t, uintptr(128), unsafe.Sizeof(user{}), "a user takes 128 bytes")
	require.Less(t, unsafe.Offsetof(user{}.visitCanAssign), uintptr(64), "a visit reads the user's first line")

	require.Greater(t, unsafe.Sizeof(app{}), uintptr(224), "an app is in the 256-byte size class")
	require.LessOrEqual(t, unsafe.Sizeof(app{}), uintptr(256), "an app is in the 256-byte size class")
	require.Less(t, unsafe.Offsetof(app{}.demand), uintptr(64), "a visit reads the app's first line")

	require.Greater(t, unsafe.Sizeof(container{}), uintptr(80), "a container is in the 96-byte size class")
	require.LessOrEqual(t, unsafe.Sizeof(container{}), uintptr(96), "a container is in the 96-byte size class")
	require.Equal(t, uintptr(32), unsafe.Offsetof(container{}.size)+unsafe.Sizeof(container{}.size), "completing a container reads its first 32 bytes: app, li and size")
}
