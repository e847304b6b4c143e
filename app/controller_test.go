package app

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/protocol"
	"yarnplay/scenarios"
)

// laterClient is a client whose replies come when the test says (as the
// worker's do, after Send has returned).
type laterClient struct {
	server *protocol.Server
	sent   []protocol.Command
	dones  []func(protocol.Reply)
}

func (l *laterClient) Send(c protocol.Command, done func(protocol.Reply)) {
	l.sent = append(l.sent, c)
	l.dones = append(l.dones, func(protocol.Reply) { done(l.server.Handle(c)) })
}

// answer answers the oldest command not yet answered.
func (l *laterClient) answer() {
	d := l.dones[0]
	l.dones = l.dones[1:]
	d(protocol.Reply{})
}

func lessonScenario() *scenarios.Scenario {
	return &scenarios.Scenario{Version: 1, Name: "small",
		Config: map[string]string{"yarn.scheduler.capacity.root.queues": "default", "yarn.scheduler.capacity.root.default.capacity": "100"},
		Nodes:  []scenarios.NodeSpec{{Name: "n{i}", Count: 3}},
		Steps: []scenarios.Step{
			{Submit: &scenarios.Submit{App: "app_1", User: "ann", Queue: "default", AM: &scenarios.Res{MemoryMB: 1024, VCores: 1}}},
		},
	}
}

// The controller sends one command at a time; a repeat of the move that
// waits replaces it (holding → queues one step, not fifty), other
// commands wait in order, and each frame is the controller's once its
// reply is in.
func TestTheControllerCoalescesRepeats(t *testing.T) {
	s := store.New()
	require.NoError(t, s.Load(lessonScenario(), ""))
	cl := &laterClient{server: protocol.NewServer(s)}
	c := NewController(cl)
	changed := 0
	c.Changed = func() { changed++ }

	for range 50 {
		c.Do(protocol.Command{Op: protocol.OpForwardTick, Repeat: true})
	}
	c.Do(protocol.Command{Op: protocol.OpSelect, Queue: "root.default"})
	for range 5 {
		c.Do(protocol.Command{Op: protocol.OpForward, Repeat: true})
	}
	require.Len(t, cl.sent, 1, "one in flight")
	require.True(t, c.Busy())
	require.Nil(t, c.Frame(), "no reply yet")

	for len(cl.dones) > 0 {
		cl.answer()
	}
	var ops []protocol.Op
	for _, cmd := range cl.sent {
		ops = append(ops, cmd.Op)
	}
	require.Equal(t, []protocol.Op{protocol.OpForwardTick, protocol.OpForwardTick, protocol.OpSelect, protocol.OpForward}, ops)
	require.False(t, c.Busy())
	require.Equal(t, 4, changed)
	require.Same(t, cl.server.SentToPage(), c.Frame(), "the page's frame of the store's")
	require.Equal(t, s.Frame().Step, c.Frame().Step)
	require.Equal(t, "root.default", c.Frame().Selected)
}

// A command still out after workingAfter shows the working state until
// the last reply is in; one answered sooner never shows it.
func TestTheControllerShowsItIsWorking(t *testing.T) {
	s := store.New()
	cl := &laterClient{server: protocol.NewServer(s)}
	c := NewController(cl)
	var timers []func()
	c.after = func(d time.Duration, fn func()) {
		require.Equal(t, workingAfter, d)
		timers = append(timers, fn)
	}
	var states []bool
	c.Working = func(w bool) { states = append(states, w) }

	c.Do(protocol.Command{Op: protocol.OpLast})
	cl.answer()
	timers[0]() // fires after the reply
	require.False(t, c.IsWorking())

	c.Do(protocol.Command{Op: protocol.OpFirst})
	c.Do(protocol.Command{Op: protocol.OpLast})
	timers[1]()
	require.True(t, c.IsWorking())
	cl.answer()
	require.True(t, c.IsWorking(), "the next command is under way")
	cl.answer()
	require.False(t, c.IsWorking())
	require.Equal(t, []bool{true, false}, states)
}

// A reply that replaced the work says so (the page stops play); a
// question changes nothing and is not a change to save.
func TestTheControllerSaysWhenTheWorkIsReplaced(t *testing.T) {
	c := NewLocalController(store.New())
	replaced, changed := 0, 0
	c.Replaced = func() { replaced++ }
	c.Changed = func() { changed++ }
	c.Do(protocol.Command{Op: protocol.OpOpen, Name: "acls"})
	require.Equal(t, 1, replaced)
	require.Zero(t, changed, "opening is not a change")
	c.Do(protocol.Command{Op: protocol.OpForward})
	c.Send(protocol.Command{Op: protocol.OpLink}, func(rep protocol.Reply) { require.NotEmpty(t, rep.Text) })
	require.Equal(t, 1, replaced)
	require.Equal(t, 1, changed)
	c.Do(protocol.Command{Op: protocol.OpReset})
	require.Equal(t, 2, replaced)
}

// The actions' measures read Go's runtime metrics by name (benchmark 5
// reports them): a misspelt name reads as zero.
func TestThePageMemoryMetricsRead(t *testing.T) {
	runtime.GC()
	require.Positive(t, pageMemory())
	require.Positive(t, pageAllocated())
	require.GreaterOrEqual(t, pageCollections(), 1.0)
}
