package bridge

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMemoryStorage(t *testing.T) {
	for name, s := range map[string]Storage{"zero value": &MemoryStorage{}, "constructor": NewMemoryStorage()} {
		t.Run(name, func(t *testing.T) {
			_, ok, err := s.Get("theme")
			require.NoError(t, err)
			require.False(t, ok)

			require.NoError(t, s.Set("theme", "dark"))
			require.NoError(t, s.Set("empty", ""))
			v, ok, err := s.Get("theme")
			require.NoError(t, err)
			require.True(t, ok)
			require.Equal(t, "dark", v)
			v, ok, err = s.Get("empty")
			require.NoError(t, err)
			require.True(t, ok, "an empty value is still a value")
			require.Equal(t, "", v)
		})
	}
}

func TestMemoryFragment(t *testing.T) {
	f := NewMemoryFragment()
	for _, tt := range []struct{ set, want string }{
		{"", ""},
		{"s=1.abc&t=4", "s=1.abc&t=4"},
		{"#sel=root.a", "sel=root.a"},
		{"#", ""},
	} {
		require.NoError(t, f.Set(tt.set))
		got, err := f.Get()
		require.NoError(t, err)
		require.Equal(t, tt.want, got, "Set(%q)", tt.set)
	}
}
