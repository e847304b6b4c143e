package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFormat(t *testing.T) {
	for _, c := range []struct {
		v    float64
		unit string
		want string
	}{
		{59.63, "fps", "59.6 fps"},
		{60, "fps", "60.0 fps"},
		{77.7, "ms", "77.70 ms"},
		{5792, "ms", "5,792 ms"},
		{2.289, "MB", "2.29 MB"},
		{649439, "/s", "649,439/s"},
	} {
		require.Equal(t, c.want, format(c.v, c.unit), "%v %s", c.v, c.unit)
	}
}
