package app

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"yarnplay/app/store"
	"yarnplay/core"
	"yarnplay/core/resource"
)

// This file holds what the views share: number formats in the
// ResourceManager UI's style, shares of the cluster, and the colours of
// queues and applications.

// pctText formats a fraction as the RM UI does: 0.35 -> "35.0%".
func pctText(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		f = 0
	}
	return strconv.FormatFloat(f*100, 'f', 1, 64) + "%"
}

// memText formats megabytes for people: "512 MB", "10 GB", "122.5 GB".
func memText(mb int64) string {
	if mb < 1024 && mb > -1024 {
		return strconv.FormatInt(mb, 10) + " MB"
	}
	gb := strconv.FormatFloat(float64(mb)/1024, 'f', 1, 64)
	return strings.TrimSuffix(gb, ".0") + " GB"
}

// resText formats a resource for people: "20 GB, 16 vcores".
func resText(r resource.Resource) string {
	unit := " vcores"
	if r.VCores == 1 || r.VCores == -1 {
		unit = " vcore"
	}
	return memText(r.MemoryMB) + ", " + strconv.FormatInt(r.VCores, 10) + unit
}

// rmText formats a resource exactly as the ResourceManager UI prints it:
// "<memory:20480, vCores:16>".
func rmText(r resource.Resource) string {
	return "<memory:" + strconv.FormatInt(r.MemoryMB, 10) + ", vCores:" + strconv.FormatInt(r.VCores, 10) + ">"
}

// resShare is r's share of the cluster as the frame's calculator sees it: the
// memory share, or with the dominant calculator the larger of the memory
// and vcore shares. An empty cluster gives 0.
func resShare(r, cluster resource.Resource, dominant bool) float64 {
	s := 0.0
	if cluster.MemoryMB > 0 {
		s = float64(r.MemoryMB) / float64(cluster.MemoryMB)
	}
	if dominant && cluster.VCores > 0 {
		s = max(s, float64(r.VCores)/float64(cluster.VCores))
	}
	return s
}

// unit01 bounds f to [0, 1]; NaN becomes 0.
func unit01(f float64) float64 {
	if !(f > 0) {
		return 0
	}
	return min(f, 1)
}

// cssPct formats a fraction as a CSS percentage with two decimals, bounded
// to [0, 100]: 0.2 -> "20.00%".
func cssPct(f float64) string {
	return strconv.FormatFloat(unit01(f)*100, 'f', 2, 64) + "%"
}

// frameMinAlloc is the frame's minimum allocation, 1024 MB and 1 vcore when
// the frame does not say.
func frameMinAlloc(f *store.Frame) resource.Resource {
	m := f.MinAlloc
	if m.MemoryMB <= 0 {
		m.MemoryMB = 1024
	}
	if m.VCores <= 0 {
		m.VCores = 1
	}
	return m
}

// frameCalc is the frame's resource calculator.
func frameCalc(f *store.Frame) resource.Calculator {
	if f.Dominant {
		return resource.Dominant
	}
	return resource.Default
}

// shades is the number of shades applications of one queue cycle through.
const shades = 5

// Colors gives every queue a hue and every application a shade of its
// queue's hue. Siblings share their parent's arc of the colour wheel
// evenly (root's children the whole wheel), so siblings differ most and a
// family of queues keeps related hues; shades follow the applications'
// submission order within their queue. Both depend on the configuration
// and the submissions only, never on usage, so they stay the same from one
// step to the next. Colour never carries meaning alone: every block also
// says its queue and app in text.
type Colors struct {
	hue   map[string]int
	shade map[string]int
}

// rootHue is root's hue, where its first child's arc starts.
const rootHue = 200.0

// colorsOf is the last frame NewColors coloured, by the address of its
// queues and apps (a published frame never changes), what its colours
// depend on, and its colours: every view of a frame asks for them, and
// most frames colour as the last did (a tick changes usage only).
var colorsOf struct {
	sync.Mutex
	queues *core.QueueView
	apps   *core.AppView
	nq, na int
	in     colorInputs
	c      Colors
}

// colorInputs are what a frame's colours depend on: the queues' paths and
// children, and the applications' ids and queues, in order, with their
// ranks in their queues when the frame holds only some (store.Shown).
type colorInputs struct {
	paths    []string
	children [][]string
	apps     []string // id, queue, id, queue...
	ranks    []int32
}

// shownRanks are the ranks a frame carries (nil when it holds every
// application: they follow from the ids and queues).
func shownRanks(f *store.Frame) []int32 {
	if f.Shown == nil {
		return nil
	}
	return f.Shown.Rank
}

// same reports whether f's colours depend on what in holds.
func (in *colorInputs) same(f *store.Frame) bool {
	if len(in.paths) != len(f.Queues) || len(in.apps) != 2*len(f.Apps) || !slices.Equal(in.ranks, shownRanks(f)) {
		return false
	}
	for i := range f.Queues {
		if q := &f.Queues[i]; q.Path != in.paths[i] || !slices.Equal(q.Children, in.children[i]) {
			return false
		}
	}
	for i := range f.Apps {
		if a := &f.Apps[i]; a.ID != in.apps[2*i] || a.Queue != in.apps[2*i+1] {
			return false
		}
	}
	return true
}

// inputsOf returns what f's colours depend on.
func inputsOf(f *store.Frame) colorInputs {
	in := colorInputs{paths: make([]string, len(f.Queues)), children: make([][]string, len(f.Queues)), apps: make([]string, 0, 2*len(f.Apps))}
	for i := range f.Queues {
		in.paths[i], in.children[i] = f.Queues[i].Path, f.Queues[i].Children
	}
	for i := range f.Apps {
		in.apps = append(in.apps, f.Apps[i].ID, f.Apps[i].Queue)
	}
	in.ranks = slices.Clone(shownRanks(f))
	return in
}

// NewColors assigns the colours of a frame's queues and applications.
func NewColors(f *store.Frame) Colors {
	var q *core.QueueView
	var a *core.AppView
	if len(f.Queues) > 0 {
		q = &f.Queues[0]
	}
	if len(f.Apps) > 0 {
		a = &f.Apps[0]
	}
	colorsOf.Lock()
	defer colorsOf.Unlock()
	if q != nil && colorsOf.queues == q && colorsOf.apps == a && colorsOf.nq == len(f.Queues) && colorsOf.na == len(f.Apps) {
		return colorsOf.c
	}
	if q == nil || !colorsOf.in.same(f) {
		colorsOf.c, colorsOf.in = newColors(f), inputsOf(f)
	}
	colorsOf.queues, colorsOf.apps, colorsOf.nq, colorsOf.na = q, a, len(f.Queues), len(f.Apps)
	return colorsOf.c
}

func newColors(f *store.Frame) Colors {
	c := Colors{hue: make(map[string]int, len(f.Queues)), shade: make(map[string]int, len(f.Apps))}
	// arc is a queue's part of the wheel: its hue in the middle.
	type arc struct{ mid, width float64 }
	arcs := make(map[string]arc, len(f.Queues))
	for i := range f.Queues { // pre-order: a parent comes before its children
		q := &f.Queues[i]
		a, ok := arcs[q.Path]
		if !ok { // root, or a queue whose parent the frame lacks
			a = arc{rootHue, 360}
		}
		c.hue[q.Path] = int(math.Mod(a.mid+360, 360))
		slice := a.width / float64(max(len(q.Children), 1))
		for j, ch := range q.Children {
			// Each child gets 80% of its slice: a gap between families.
			arcs[ch] = arc{a.mid - a.width/2 + (float64(j)+0.5)*slice, slice * 0.8}
		}
	}
	// An application's shade is its index among its queue's applications,
	// all of them, which a page's frame carries for those it holds.
	for i, r := range f.AppRanks() {
		c.shade[f.Apps[i].ID] = int(r) % shades
	}
	return c
}

// Hue is a queue's hue in degrees (0-359); unknown queues get grey's 0.
func (c Colors) Hue(queue string) int { return c.hue[queue] }

// Shade is an application's shade (0 to shades-1) within its queue's hue.
func (c Colors) Shade(app string) int { return c.shade[app] }

// shadeLightness is the HSL lightness of a shade, in percent; the CSS rules of
// the views section of web/app.css use the same steps.
func shadeLightness(shade int, dark bool) float64 {
	if dark {
		return 30 + float64(shade)*7
	}
	return 36 + float64(shade)*8
}

// blockStyle is the inline style of a block coloured by queue and app: the
// stylesheet turns --h and --s into a colour for the light or dark scheme.
func (c Colors) blockStyle(queue, app string) string {
	return "--h:" + strconv.Itoa(c.Hue(queue)) + ";--s:" + strconv.Itoa(c.Shade(app))
}

// rgbColor is a colour for the canvas.
type rgbColor struct{ R, G, B uint8 }

// hslRGB converts HSL (degrees, percent, percent) to RGB.
func hslRGB(h, s, l float64) rgbColor {
	s, l = s/100, l/100
	ch := (1 - math.Abs(2*l-1)) * s
	hp := math.Mod(h, 360) / 60
	x := ch * (1 - math.Abs(math.Mod(hp, 2)-1))
	var r, g, b float64
	switch {
	case hp < 1:
		r, g = ch, x
	case hp < 2:
		r, g = x, ch
	case hp < 3:
		g, b = ch, x
	case hp < 4:
		g, b = x, ch
	case hp < 5:
		r, b = x, ch
	default:
		r, b = ch, x
	}
	m := l - ch/2
	to := func(v float64) uint8 { return uint8(math.Round(min(max(v+m, 0), 1) * 255)) }
	return rgbColor{to(r), to(g), to(b)}
}

// blockRGB is the canvas colour of a block of app in queue.
func (c Colors) blockRGB(queue, app string, dark bool) rgbColor {
	s := 60.0
	if dark {
		s = 55
	}
	return hslRGB(float64(c.Hue(queue)), s, shadeLightness(c.Shade(app), dark))
}

// plural says "1 app" or "3 apps".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// framePtr identifies a published frame's nodes by the address of their
// first element: the store builds a new slice for every step, so an
// unchanged address means unchanged nodes.
func framePtr(f *store.Frame) string {
	if len(f.Nodes) == 0 {
		return "none"
	}
	return fmt.Sprintf("%p:%d", &f.Nodes[0], len(f.Nodes))
}

// Callback is a function a component is given to call its owner back, as
// a pointer. go-app renders a component again when its parent does and
// one of its exported fields changed, by reflect.DeepEqual, to which two
// funcs are never equal: a component with a func field renders again
// every time its parent does. The same *Callback is equal to itself, so
// make one per owner (NewCallback), not one per render.
type Callback[T any] struct{ fn func(T) }

// NewCallback returns a Callback calling fn.
func NewCallback[T any](fn func(T)) *Callback[T] { return &Callback[T]{fn: fn} }

// Call calls the callback's function with v; a nil Callback does nothing.
func (c *Callback[T]) Call(v T) {
	if c != nil && c.fn != nil {
		c.fn(v)
	}
}
