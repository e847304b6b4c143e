package protocol_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/bench/workload"
	"yarnplay/protocol"
)

// BenchmarkWorkerTick is the worker's part of a tick of benchmark 5's
// cluster (10,000 nodes, 1,000 leaves, 20,000 applications, after its 50
// ticks): the command handled, its reply encoded (ms-reply: the page
// waits for that much), and the frame shown kept (Server.Compact), as
// wasm/worker does after each reply. Natively, its
// bytes allocated an operation are what the worker's collector must take
// back per tick, which sets how often it runs (a collection of the
// worker's heap takes hundreds of milliseconds in the browser): gcs/op
// counts the collections a tick, MB-heap the heap at the end; in
// WebAssembly (go test -exec "$PWD/build/go_js_wasm_exec" with GOOS=js
// GOARCH=wasm) its time is what the browser's worker takes, without the
// painting of the node canvas and with no quiet moment between ticks (a
// checkpoint due is taken by the next tick).
func BenchmarkWorkerTick(b *testing.B) {
	s := store.New()
	require.NoError(b, s.Load(workload.Scenario(workload.Allocation(), 50), ""))
	sv := protocol.NewServer(s)
	var rw protocol.ReplyWriter
	var out []byte
	var replying time.Duration
	handle := func(c protocol.Command) {
		start := time.Now()
		rep := sv.Handle(c)
		require.Empty(b, rep.Err)
		out = rw.AppendEncode(out[:0], 1, rep)
		replying += time.Since(start)
		sv.Compact(&rw)
	}
	handle(protocol.Command{Op: protocol.OpCanvas, N: 1280})
	handle(protocol.Command{Op: protocol.OpLast})
	handle(protocol.Command{Op: protocol.OpTick, N: 1})
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	replying = 0
	for range b.N {
		handle(protocol.Command{Op: protocol.OpTick, N: 1})
	}
	b.StopTimer()
	b.ReportMetric(float64(replying.Microseconds())/1000/float64(b.N), "ms-reply")
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.NumGC-before.NumGC)/float64(b.N), "gcs/op")
	b.ReportMetric(float64(after.HeapAlloc)/(1<<20), "MB-heap")
}
