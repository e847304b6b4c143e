package bridge

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMemoryIO(t *testing.T) {
	var c MemoryClipboard
	require.NoError(t, c.WriteText("#s=1.x"))
	require.Equal(t, "#s=1.x", c.Text)

	var d MemoryDownloader
	data := []byte("a: 1")
	require.NoError(t, d.Download("x.yaml", "application/yaml", data))
	data[0] = 'b'
	require.Equal(t, []File{{Name: "x.yaml", MIME: "application/yaml", Data: []byte("a: 1")}}, d.Files)

	r := MemoryFileReader{Inputs: map[string]File{"in": {Name: "c.xml", Data: []byte("<configuration/>")}}}
	var got string
	r.ReadFile("in", func(name string, data []byte, err error) {
		require.NoError(t, err)
		got = name + ":" + string(data)
	})
	require.Equal(t, "c.xml:<configuration/>", got)
	r.ReadFile("none", func(_ string, _ []byte, err error) { require.ErrorContains(t, err, "no file") })

	var k MemoryKeyboard
	var keys []string
	stop := k.Listen(func(key Key) bool {
		keys = append(keys, key.Key)
		return key.Key == " "
	})
	require.True(t, k.Press(Key{Key: " "}))
	require.False(t, k.Press(Key{Key: "x"}))
	stop()
	require.False(t, k.Press(Key{Key: " "}))
	require.Equal(t, []string{" ", "x"}, keys)

	require.True(t, IsTypingTarget("INPUT", false))
	require.True(t, IsTypingTarget("div", true))
	require.False(t, IsTypingTarget("BUTTON", false))
}
