package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"yarnplay/protocol"
)

// askWorker asks the page's simulation (its Web Worker) question c as the
// page would, from inside the worker: the command goes to the worker's
// onmessage, and its reply, caught on its way to the page (postMessage),
// comes back here instead, so that the page never sees it. The page must
// have no command in flight.
func askWorker(b *testing.B, tab context.Context, c protocol.Command) protocol.Reply {
	b.Helper()
	require.True(b, c.Op.Question(), "only a question leaves the page's frames as they are")
	targets, err := chromedp.Targets(tab)
	require.NoError(b, err)
	var worker context.Context
	for _, t := range targets {
		if t.Type == "worker" {
			ctx, cancel := chromedp.NewContext(tab, chromedp.WithTargetID(t.TargetID))
			defer cancel()
			require.NoError(b, chromedp.Do(ctx))
			worker = ctx
			break
		}
	}
	require.NotNil(b, worker, "the page runs its simulation in a Web Worker")
	data, err := protocol.EncodeCommand(1<<31, c)
	require.NoError(b, err)
	list, err := json.Marshal(toInts(data))
	require.NoError(b, err)
	ctx, cancel := context.WithTimeout(worker, 5*time.Minute)
	defer cancel()
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](fmt.Sprintf(`(cmd => new Promise(resolve => {
  const post = self.postMessage;
  self.postMessage = function (m) { self.postMessage = post; resolve(Array.from(m)); };
  self.onmessage({data: new Uint8Array(cmd)});
}))(%s)`, list), chromedp.EvalAwaitPromise))
	require.NoError(b, err)
	reply := make([]byte, len(got))
	for i, v := range got {
		reply[i] = byte(v)
	}
	var rr protocol.ReplyReader
	_, rep, err := rr.Decode(reply)
	require.NoError(b, err)
	require.Empty(b, rep.Err)
	return rep
}

func toInts(b []byte) []int {
	out := make([]int, len(b))
	for i, v := range b {
		out[i] = int(v)
	}
	return out
}
