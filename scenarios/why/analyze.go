package why

import (
	"fmt"
	"strings"

	"yarnplay/core"
	"yarnplay/core/resource"
	"yarnplay/internal/noeq"
)

// State is what Analyze reads of the scheduler at a step: the views the
// playground's store holds (core's Apps, Queues and Nodes).
type State struct {
	Apps   []core.AppView
	Queues []core.QueueView
	Nodes  []core.NodeView
	// Dominant is true under the dominant resource calculator; under the
	// default one the scheduler compares memory alone, and so do the
	// sentences.
	Dominant bool
}

// StateOf reads a scheduler's state.
func StateOf(s *core.Scheduler) State {
	return State{Apps: s.Apps(), Queues: s.Queues(), Nodes: s.Nodes(),
		Dominant: s.Settings().Calculator.Kind == resource.DominantKind}
}

// Verdict is why one application waits.
type Verdict struct {
	_                noeq.T
	App, Queue, User string
	State            core.AppState
	// Rule is the check that stops it; None when nothing did in the
	// heartbeats read (Allocated then says what it got).
	Rule Rule
	// Reason is the core's decision the rule comes from ("" when the rule
	// comes from the state alone, as for a pending app).
	Reason core.Reason
	// Used and Limit are the check's numbers: the user's usage and user
	// limit, the queue's usage and maximum, the AM usage if started and
	// the AM limit, a node's free resources and the ask.
	Used, Limit resource.Resource
	// Need is the container it waits for (its first outstanding ask, or
	// its AM).
	Need resource.Resource
	// Outstanding counts the containers it still asks for.
	Outstanding int
	// Allocated counts the containers it got in the heartbeats read.
	Allocated int
	// Node and Tick say where and when the check was seen ("" and 0 when
	// it comes from the state); Blocker names the app ahead of it in FIFO
	// order whose check stops the leaf, when that is why.
	Node    string
	Tick    int64
	Blocker string
	// Sentence says it in words, with the numbers.
	Sentence string
}

// Analyze returns a verdict for every application that waits at st:
// rejected, pending (waiting for the AM limits), accepted without its AM
// container, or running with asks not met; in the order of st.Apps. The
// events are the decisions of the heartbeats that follow st (a tick or
// more, recorded in full: core.RecordFull); with none, only the verdicts
// the state alone gives (AM limits, refusals) are found. It is
// NewAnalyzer(st), Add(events) and Verdicts().
func Analyze(st State, events []core.Event) []Verdict {
	a := NewAnalyzer(st)
	a.Add(events)
	return a.Verdicts()
}

// Analyzer is Analyze fed in parts: the events of a long run need not be
// kept (a round of 10,000 heartbeats records millions), since each is
// read once and only the strongest check per app is kept.
type Analyzer struct{ a *analysis }

// NewAnalyzer starts an analysis of the heartbeats that follow st.
func NewAnalyzer(st State) *Analyzer { return &Analyzer{newAnalysis(st)} }

// Add reads the next events, in order.
func (z *Analyzer) Add(events []core.Event) {
	for i := range events {
		z.a.read(&events[i])
	}
}

// Verdicts returns a verdict for every app that waits, in st.Apps order.
func (z *Analyzer) Verdicts() []Verdict {
	var out []Verdict
	for _, app := range z.a.st.Apps {
		if v, ok := z.a.verdict(app); ok {
			out = append(out, v)
		}
	}
	return out
}

// obs is one blocking decision seen for an app.
type obs struct {
	_           noeq.T
	rule        Rule
	reason      core.Reason
	used, limit resource.Resource
	node        string
	tick        int64
	blocker     string
	text        string // the blocker's sentence
}

type analysis struct {
	st      State
	queues  map[string]core.QueueView
	allocs  map[string]int
	seen    map[string]obs   // by app: the strongest check seen (rank)
	atMax   map[string]obs   // by queue path: the last "at its maximum"
	fifo    map[string][]obs // by leaf: the apps that stopped it (ReasonFIFO)
	full    obs              // the last node too full for anything
	nfull   int              // heartbeats that found their node too full
	reached map[string]bool  // apps considered or skipped by a leaf
	rsvBy   map[string]bool  // nodes reserved (by anyone) in the window
	nodes   int
	held    []heldBack            // this heartbeat's blocked headroom, by sibling
	visit   map[string]core.Event // each queue's last visit: its used and limit
	apps    map[string]int        // index in st.Apps
	inBlock map[string]bool       // apps whose verdict is being found (a FIFO chain)
}

// heldBack is a queue whose app's ask does not fit its headroom: its
// parent holds that headroom back from the siblings tried after it.
type heldBack struct {
	queue string
	res   resource.Resource
}

func newAnalysis(st State) *analysis {
	a := &analysis{
		st: st, queues: map[string]core.QueueView{}, allocs: map[string]int{}, seen: map[string]obs{},
		atMax: map[string]obs{}, fifo: map[string][]obs{}, reached: map[string]bool{}, rsvBy: map[string]bool{},
		visit: map[string]core.Event{}, apps: make(map[string]int, len(st.Apps)), inBlock: map[string]bool{},
	}
	for _, q := range st.Queues {
		a.queues[q.Path] = q
	}
	for i, app := range st.Apps {
		a.apps[app.ID] = i
	}
	return a
}

// see keeps o for app when it ranks at least as high as what was seen (a
// later sighting of the same check replaces the earlier).
func (a *analysis) see(app string, o obs) {
	if prev, ok := a.seen[app]; !ok || rank(o.rule) <= rank(prev.rule) {
		a.seen[app] = o
	}
}

// read takes one event into the analysis.
func (a *analysis) read(e *core.Event) {
	{
		o := obs{reason: e.Reason, used: e.Used, limit: e.Limit, node: e.Node, tick: e.Tick}
		switch e.Kind {
		case core.EvHeartbeat:
			a.nodes++
			a.held = a.held[:0]
		case core.EvAllocated, core.EvReservationFulfil:
			a.allocs[e.App]++
		case core.EvAppConsidered:
			a.reached[e.App] = true
		case core.EvReserved, core.EvReReserved:
			o.rule, o.used, o.limit = Reserved, e.Used, e.Resource
			a.see(e.App, o)
			a.rsvBy[e.Node] = true
		case core.EvQueueVisit:
			if e.Reason == core.ReasonNodeReserved && e.App != "" {
				a.rsvBy[e.Node] = true
			}
			if e.Reason == core.ReasonNone {
				a.visit[e.Queue] = *e
			}
		case core.EvAppPending:
			o.rule = AMLimit
			switch {
			case e.Reason == core.ReasonUserAMLimit:
				o.rule = UserAMLimit
			case strings.Contains(string(e.Reason), "parallel"):
				o.rule = MaxParallelApps
			}
			a.see(e.App, o)
		case core.EvAppSkipped:
			a.reached[e.App] = true
			if r := skipRule(e.Reason); r != None {
				o.rule = r
				if r == NoNodeFits || r == LocalityDelay {
					o.limit = e.Resource // the ask; used is set from the node below
				}
				if e.Reason == core.ReasonHeadroom {
					o = a.headroomObs(o, *e)
				}
				a.see(e.App, o)
			}
		case core.EvQueueSkipped:
			switch e.Reason {
			case core.ReasonQueueAtMax:
				a.atMax[e.Queue] = a.atMaxObs(o, *e)
			case core.ReasonBlockedHeadroom:
				a.held = append(a.held, heldBack{e.Queue, e.Resource})
			case core.ReasonFIFO:
				o.blocker = e.App
				a.fifo[e.Queue] = append(a.fifo[e.Queue], o)
			case core.ReasonNodeFull:
				if e.Queue == "root" {
					o.rule, o.used = NoNodeFits, e.Resource
					a.full, a.nfull = o, a.nfull+1
				}
			}
		}
	}
}

// atMaxObs reads a queue skipped "at its maximum capacity": at its own
// maximum, or at the limit its parent handed down, which an ancestor's
// maximum, a sibling's held-back headroom or the cluster's free resources
// set.
func (a *analysis) atMaxObs(o obs, e core.Event) obs {
	o.rule = QueueMaxCapacity
	q, ok := a.queues[e.Queue]
	if !ok || e.Limit.MemoryMB >= q.EffectiveMax.MemoryMB {
		return o
	}
	if q.Used.MemoryMB >= q.EffectiveMax.MemoryMB {
		o.limit = q.EffectiveMax // over its own maximum, whatever was handed down
		return o
	}
	for p := q.Parent; p != "" && a.queues[p].Parent != ""; p = a.queues[p].Parent {
		x := a.queues[p]
		if x.Used.MemoryMB >= x.EffectiveMax.MemoryMB {
			o.rule, o.used, o.limit = ParentMaxCapacity, x.Used, x.EffectiveMax
			return o
		}
	}
	if len(a.held) > 0 {
		h := a.held[len(a.held)-1]
		o.rule = Reserved
		o.text = fmt.Sprintf("%s holds back %d MB, %d vcores of its parent's free resources for an ask larger than its headroom (blocked headroom), which leaves %s a limit of %d MB, %d vcores, all used", h.queue, h.res.MemoryMB, h.res.VCores, e.Queue, e.Limit.MemoryMB, e.Limit.VCores)
		return o
	}
	o.rule = NoNodeFits
	o.text = fmt.Sprintf("the cluster's free resources leave %s a limit of %d MB, %d vcores, all used", e.Queue, e.Limit.MemoryMB, e.Limit.VCores)
	return o
}

// headroomObs reads a "queue headroom too small for the request" skip:
// the headroom is what the limit handed down to the leaf (its last visit)
// leaves; the leaf's own maximum, an ancestor's, or else the cluster's
// free resources (less what siblings hold back) set that limit.
func (a *analysis) headroomObs(o obs, e core.Event) obs {
	ask := e.Resource
	v, ok := a.visit[e.Queue]
	if !ok {
		return o
	}
	room := v.Limit.Sub(v.Used)
	q := a.queues[e.Queue]
	o.used, o.limit = v.Used, v.Limit
	if v.Limit.MemoryMB >= q.EffectiveMax.MemoryMB {
		return o // QueueMaxCapacity
	}
	for p := q.Parent; p != "" && a.queues[p].Parent != ""; p = a.queues[p].Parent {
		x := a.queues[p]
		if pv, ok := a.visit[p]; ok && pv.Limit.MemoryMB >= x.EffectiveMax.MemoryMB && pv.Limit.Sub(pv.Used).MemoryMB < ask.MemoryMB {
			o.rule, o.used, o.limit = ParentMaxCapacity, pv.Used, pv.Limit
			return o
		}
	}
	o.rule, o.used, o.limit = NoNodeFits, room, ask
	o.text = fmt.Sprintf("it asks for %d MB, %d vcores and the limit handed down to %s leaves %d MB, %d vcores: the cluster's free resources, less what other queues hold back", ask.MemoryMB, ask.VCores, e.Queue, room.MemoryMB, room.VCores)
	return o
}

// skipRule maps an app's skip to a rule.
func skipRule(r core.Reason) Rule {
	switch r {
	case core.ReasonUserLimit:
		return UserLimit
	case core.ReasonHeadroom:
		return QueueMaxCapacity // refined by the queues' numbers
	case core.ReasonLocalityDelay, core.ReasonRelaxLocality:
		return LocalityDelay
	case core.ReasonNoFit, core.ReasonNeverFits, core.ReasonNodeFull:
		return NoNodeFits
	case core.ReasonNodeReserved, core.ReasonNeedUnreserve:
		return Reserved
	case core.ReasonOtherPartition, core.ReasonAMNotShared, core.ReasonDefaultFirst:
		return Partition
	}
	return None
}
