package core

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core/resource"
)

// requestViews shares the last views only when every field of every
// request is the same: each change, one at a time, gives new views, equal
// to those built afresh.
func TestRequestViewsShareOnlyWhatIsTheSame(t *testing.T) {
	base := func() *request {
		return &request{
			asks:     []locAsk{{name: AnyLocation, count: 3, relax: true}, {name: "n1", count: 1}},
			size:     resource.New(1024, 1),
			priority: 1, missed: 2, numReserved: 1, duration: 10,
		}
	}
	prev := requestViews([]*request{base()}, nil)
	require.Len(t, prev, 1)
	same := requestViews([]*request{base()}, prev)
	require.Same(t, &prev[0], &same[0], "the same request shares the last views")
	for _, tc := range []struct {
		name   string
		change func(r *request)
	}{
		{"priority", func(r *request) { r.priority++ }},
		{"size", func(r *request) { r.size.MemoryMB *= 2 }},
		{"missed opportunities", func(r *request) { r.missed++ }},
		{"reservations", func(r *request) { r.numReserved++ }},
		{"duration", func(r *request) { r.duration++ }},
		{"outstanding", func(r *request) { r.asks[0].count-- }},
		{"a location's count", func(r *request) { r.asks[1].count++ }},
		{"a location's relaxation", func(r *request) { r.asks[1].relax = true }},
		{"a location's name", func(r *request) { r.asks[1].name = "n2" }},
		{"a location more", func(r *request) { r.asks = append(slices.Clone(r.asks), locAsk{name: "/r1", count: 1}) }},
		{"a location less", func(r *request) { r.asks = r.asks[:1] }},
	} {
		r := base()
		tc.change(r)
		got := requestViews([]*request{r}, prev)
		require.Equal(t, requestViews([]*request{r}, nil), got, tc.name)
		require.NotSame(t, &prev[0], &got[0], "%s: new views", tc.name)
	}
	require.Len(t, requestViews([]*request{base(), base()}, prev), 2, "a request more")
	require.Nil(t, requestViews(nil, prev), "no requests")
}
