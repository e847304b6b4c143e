package bench

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/protocol"
)

// BenchmarkFrameCrossing measures what benchmark 5's frames cost to cross
// from the simulation's Web Worker to the page (package protocol): the
// frame at the end of the work (its whole history included) and then a
// tick's frame, each written by the worker's end and read by the page's:
// bytes, and milliseconds to write and to read. With canvas=page the page
// paints the nodes and the frames carry every node's containers; with
// canvas=worker the worker paints them (protocol.OpCanvas), as it does
// past 200 nodes in a browser that hands it the canvas.
func BenchmarkFrameCrossing(b *testing.B) {
	for _, painted := range []bool{false, true} {
		name := "canvas=page"
		if painted {
			name = "canvas=worker"
		}
		b.Run(name, func(b *testing.B) { frameCrossing(b, painted) })
	}
}

func frameCrossing(b *testing.B, painted bool) {
	s, _ := playgroundStore(b)
	sv := protocol.NewServer(s)
	var rw protocol.ReplyWriter
	var rr protocol.ReplyReader
	// readAlloc is what the last reply's reading allocated: the page's
	// garbage of a step, which sets how often its collector runs.
	var readAlloc uint64
	cross := func(c protocol.Command) (bytes int, write, read time.Duration) {
		rep := sv.Handle(c)
		require.Empty(b, rep.Err)
		t0 := time.Now()
		data := rw.Encode(1, rep)
		write = time.Since(t0)
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		t1 := time.Now()
		_, _, err := rr.Decode(data)
		read = time.Since(t1)
		runtime.ReadMemStats(&m1)
		readAlloc = m1.TotalAlloc - m0.TotalAlloc
		require.NoError(b, err)
		return len(data), write, read
	}
	if painted {
		cross(protocol.Command{Op: protocol.OpCanvas, N: 1280})
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	for range b.N {
		n, w, r := cross(protocol.Command{Op: protocol.OpLast})
		b.ReportMetric(float64(n)/1e6, "MB-end")
		b.ReportMetric(ms(w), "ms-write-end")
		b.ReportMetric(ms(r), "ms-read-end")
		n, w, r = cross(protocol.Command{Op: protocol.OpTick, N: 1})
		// The worker cuts the page's frame (store.Frame.ForPage) in
		// Handle: its part of the tick's work.
		var p *store.Frame
		cut := time.Duration(1 << 62)
		for range 5 {
			t0 := time.Now()
			p = s.Frame().ForPage("", !painted)
			cut = min(cut, time.Since(t0))
		}
		b.ReportMetric(ms(cut), "ms-cut-tick")
		b.ReportMetric(float64(len(p.Apps)), "apps-held")
		b.ReportMetric(float64(n)/1e6, "MB-tick")
		b.ReportMetric(ms(w), "ms-write-tick")
		b.ReportMetric(ms(r), "ms-read-tick")
		b.ReportMetric(float64(readAlloc)/1e6, "MB-read-alloc-tick")
	}
}
