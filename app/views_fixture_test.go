package app

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/core"
	"yarnplay/scenarios"
)

// viewsFixture is the scenario the view tests render, played by the real
// store (so by core): a two-level tree, two users in one leaf with the
// user-limit factor at 2, an app left pending by the AM limit, and a big
// request in fin that reserves a node.
const viewsFixture = `
name: views fixture
config:
  yarn.scheduler.capacity.root.queues: eng,fin
  yarn.scheduler.capacity.root.eng.capacity: "60"
  yarn.scheduler.capacity.root.eng.queues: dev,test
  yarn.scheduler.capacity.root.eng.dev.capacity: "50"
  yarn.scheduler.capacity.root.eng.dev.user-limit-factor: "2"
  yarn.scheduler.capacity.root.eng.dev.minimum-user-limit-percent: "50"
  yarn.scheduler.capacity.root.eng.dev.maximum-am-resource-percent: "0.05"
  yarn.scheduler.capacity.root.eng.test.capacity: "50"
  yarn.scheduler.capacity.root.eng.test.state: STOPPED
  yarn.scheduler.capacity.root.fin.capacity: "40"
  yarn.scheduler.capacity.root.fin.maximum-capacity: "80"
  yarn.scheduler.capacity.root.fin.user-limit-factor: "2"
nodes:
  - {name: "n{i}", count: 4, memory_mb: 8192, vcores: 8}
steps:
  - submit: {app: app_1, user: alice, queue: dev, am: {memory_mb: 1024, vcores: 1}}
  - submit: {app: app_2, user: bob, queue: dev, am: {memory_mb: 1024, vcores: 1}}
  - submit: {app: app_3, user: carol, queue: fin, am: {memory_mb: 1024, vcores: 1}}
  - submit: {app: app_4, user: alice, queue: dev, am: {memory_mb: 1024, vcores: 1}}
  - tick: 1
  - request:
      - {app: app_1, priority: 1, resource: {memory_mb: 2048, vcores: 1}, count: 4}
  - request:
      - {app: app_2, priority: 1, resource: {memory_mb: 1024, vcores: 1}, count: 4}
  - request:
      - {app: app_3, priority: 1, resource: {memory_mb: 6144, vcores: 1}, count: 3}
  - tick: 2
  - heartbeat: n1
  - request:
      - {app: app_1, priority: 1, resource: {memory_mb: 2048, vcores: 1}, count: 0}
  - request:
      - {app: app_2, priority: 1, resource: {memory_mb: 1024, vcores: 1}, count: 0}
  - request:
      - {app: app_3, priority: 2, resource: {memory_mb: 7168, vcores: 1}, count: 1}
  - heartbeat: n2
`

// fixtureStore loads the fixture into a real store at step k, with queue
// sel selected (and user selUser).
func fixtureStore(t testing.TB, k int, sel, selUser string) *store.Store {
	t.Helper()
	sc, err := scenarios.Parse("fixture.yaml", []byte(viewsFixture))
	require.NoError(t, err)
	s := store.New()
	require.NoError(t, s.Load(sc, ""))
	s.Jump(k)
	if sel != "" {
		s.Select(sel)
	}
	if selUser != "" {
		s.SelectUser(selUser)
	}
	require.Empty(t, s.Frame().Err)
	require.Empty(t, s.Frame().StepError)
	return s
}

// fixtureFrame is the fixture's frame at step k.
func fixtureFrame(t testing.TB, k int, sel, selUser string) store.Frame {
	t.Helper()
	return *fixtureStore(t, k, sel, selUser).Frame()
}

// queueOf finds a queue of a frame.
func queueOf(t testing.TB, f *store.Frame, path string) *core.QueueView {
	t.Helper()
	for i := range f.Queues {
		if f.Queues[i].Path == path {
			return &f.Queues[i]
		}
	}
	t.Fatalf("no queue %s", path)
	return nil
}

// frameHost is a page in miniature: it renders a view of its frame and
// shows a new frame when told, as the store's page does.
type frameHost struct {
	app.Compo

	frame  store.Frame
	render func(store.Frame) app.UI
	ctx    app.Context
}

// OnPreRender keeps the context natively (go-app calls OnMount only in
// the browser).
func (h *frameHost) OnPreRender(ctx app.Context) { h.ctx = ctx }

func (h *frameHost) Render() app.UI { return app.Div().Class("host").Body(h.render(h.frame)) }

// show publishes a new frame to the view (run the engine to render it).
func (h *frameHost) show(f store.Frame) {
	h.ctx.Dispatch(func(app.Context) { h.frame = f })
}
