package protocol_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/bench/workload"
	"yarnplay/protocol"
)

func BenchmarkZZWorkerTick(b *testing.B) {
	sc := workload.Scenario(workload.Allocation(), 50)
	s := store.New()
	require.NoError(b, s.Load(sc, ""))
	sv := protocol.NewServer(s)
	var rw protocol.ReplyWriter
	handle := func(c protocol.Command) {
		rep := sv.Handle(c)
		require.Empty(b, rep.Err)
		rw.Encode(1, rep)
		sv.Compact(&rw)
	}
	handle(protocol.Command{Op: protocol.OpCanvas, N: 1280})
	handle(protocol.Command{Op: protocol.OpLast})
	handle(protocol.Command{Op: protocol.OpTick, N: 1})
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		handle(protocol.Command{Op: protocol.OpTick, N: 1})
	}
}
