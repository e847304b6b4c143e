package app

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/require"

	"yarnplay/protocol"
	"yarnplay/wasm/bridge"
)

const xmlTwoQueues = `<?xml version="1.0"?><configuration>
<property><name>yarn.scheduler.capacity.root.queues</name><value>prod,dev</value></property>
<property><name>yarn.scheduler.capacity.root.prod.capacity</name><value>75</value></property>
<property><name>yarn.scheduler.capacity.root.dev.capacity</name><value>25</value></property>
</configuration>`

// Whatever replaces the work (another lesson from the menu, a share link,
// a file, an XML import, a blank scenario, a reset) stops play, so that the
// new work starts paused at its start; a beat already scheduled is dropped.
// Play goes on through edits and steps of the same work, and through
// imports that are refused.
func TestReplacingTheWorkStopsPlay(t *testing.T) {
	src, sc := lessonStore(t, "user-limits", true, 3)
	link, err := src.Link()
	require.NoError(t, err)
	yaml, err := sc.YAML()
	require.NoError(t, err)

	for _, tt := range []struct {
		name    string
		act     func(t *testing.T, p *Page)
		stops   bool
		lesson  string
		atStart bool
	}{
		{"another lesson from the menu", func(t *testing.T, p *Page) { p.Load("acls") }, true, "acls", true},
		// The beats saved the work, which / opens again.
		{"the home page", func(t *testing.T, p *Page) { p.Load("") }, true, "elastic-borrowing", false},
		{"a share link", func(t *testing.T, p *Page) { p.openLink(link) }, true, "", false},
		{"a scenario file", func(t *testing.T, p *Page) {
			require.Empty(t, send(p.ctl, protocol.Command{Op: protocol.OpImportScenario, Name: "f.yaml", Data: yaml}).Err)
		}, true, "", true},
		{"a capacity-scheduler.xml", func(t *testing.T, p *Page) {
			require.Empty(t, send(p.ctl, protocol.Command{Op: protocol.OpImportXML, Data: []byte(xmlTwoQueues)}).Err)
		}, true, "elastic-borrowing", true},
		{"a blank scenario", func(t *testing.T, p *Page) { (&SharePanel{Ctl: p.ctl}).blank(app.Context{}, app.Event{}) }, true, "", true},
		{"the timeline's reset", func(t *testing.T, p *Page) { p.ctl.Do(protocol.Command{Op: protocol.OpReset}) }, true, "elastic-borrowing", true},
		{"the reset key", func(t *testing.T, p *Page) { p.Key(app.Context{}, "r") }, true, "elastic-borrowing", true},

		{"a step forward", func(t *testing.T, p *Page) { p.Key(app.Context{}, "ArrowRight") }, false, "elastic-borrowing", false},
		{"a queue selected", func(t *testing.T, p *Page) { p.selectQueue("root.grumpy-engineers") }, false, "elastic-borrowing", false},
		{"a refused XML import", func(t *testing.T, p *Page) {
			require.NotEmpty(t, send(p.ctl, protocol.Command{Op: protocol.OpImportXML, Data: []byte("<configuration><property>")}).Err)
		}, false, "elastic-borrowing", false},
		{"a refused link", func(t *testing.T, p *Page) { p.openLink("s=1.@@@"); require.Contains(t, p.ctl.Frame().Err, "link") }, false, "elastic-borrowing", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, _ := mounted(t, bridge.NewMemoryStorage(), "", "elastic-borrowing")
			p.togglePlay()
			require.True(t, p.playing)
			for range 2 { // two beats
				require.True(t, send(p.ctl, protocol.Command{Op: protocol.OpPlayStep}).Played)
			}
			require.Equal(t, 2, p.ctl.Frame().Step)
			gen := p.playGen

			tt.act(t, p)
			f := p.ctl.Frame()
			require.Equal(t, tt.lesson, f.Lesson)
			if tt.atStart {
				require.Zero(t, f.Step)
			}
			if !tt.stops {
				require.True(t, p.playing, "play goes on")
				require.Equal(t, gen, p.playGen)
				return
			}
			require.False(t, p.playing, "play stops")
			require.NotEqual(t, gen, p.playGen, "the beat scheduled is dropped")
		})
	}
}

// send sends cmd through a controller over a store in the process, whose
// reply comes at once, and returns the reply.
func send(ctl *Controller, cmd protocol.Command) protocol.Reply {
	var rep protocol.Reply
	got := false
	ctl.Send(cmd, func(r protocol.Reply) { rep, got = r, true })
	if !got {
		panic("the reply did not come at once")
	}
	return rep
}
