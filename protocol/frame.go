package protocol

import (
	"bytes"
	"math"
	"reflect"
	"slices"
	"unsafe"

	"yarnplay/app/store"
	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/core/resource"
)

// FrameWriter writes frames for one reader, each as a delta of the last
// it wrote (see delta.go): the lists of views as what changed in them, the
// history points the reader already holds and the configuration and groups
// (when they are the same maps) not at all, and strings through the table
// both sides keep (strtab.go). A tick's frame of benchmark 5's cluster
// (1,111 queues, 10,000 nodes, 20,000 applications) would otherwise carry
// three megabytes the page must read.
type FrameWriter struct {
	last *store.Frame
	tab  strWriter
	frameMemory
	// next is what the writer remembers of the next frame it writes,
	// when known (keptframes.go), else nil.
	next *frameMemory
}

// frameMemory is what a writer remembers of a frame: its lists' elements'
// encodings (see writeList).
type frameMemory struct {
	queues, nodes, apps listMemory
}

// isOf reports whether m is what a writer remembers of f: the encodings of
// f's lists themselves.
func (m *frameMemory) isOf(f *store.Frame) bool {
	return m.queues.same(unsafe.Pointer(unsafe.SliceData(f.Queues)), len(f.Queues)) &&
		m.nodes.same(unsafe.Pointer(unsafe.SliceData(f.Nodes)), len(f.Nodes)) &&
		m.apps.same(unsafe.Pointer(unsafe.SliceData(f.Apps)), len(f.Apps))
}

// memoryOf is what a writer remembers of f once it wrote it.
func memoryOf(f *store.Frame) *frameMemory {
	return &frameMemory{
		queues: listOf(f.Queues, queueView, 0),
		nodes:  listOf(f.Nodes, nodeView, 0),
		apps:   listOf(f.Apps, appView, 0),
	}
}

// FrameReader reads what a FrameWriter wrote, keeping the last frame and
// the string table to apply the next delta to.
type FrameReader struct {
	last *store.Frame
	tab  strReader
}

// Last returns the last frame read (nil before the first).
func (fr *FrameReader) Last() *store.Frame { return fr.last }

// Frame flags.
const (
	sameConf   = 1 << iota // Conf is the last frame's
	sameGroups             // Groups is the last frame's
	fresh                  // the first frame of a writer: the reader forgets what it held
)

// write appends f, as a delta of the last frame written.
func (fw *FrameWriter) write(w *writer, f *store.Frame) {
	if len(fw.tab.ids) > strTableMax {
		*fw = FrameWriter{}
	}
	last := fw.last
	fw.last = f
	flags := byte(0)
	if last == nil {
		flags |= fresh
	}
	if last != nil && sameMap(last.Conf, f.Conf) {
		flags |= sameConf
	}
	if last != nil && sameMap(last.Groups, f.Groups) {
		flags |= sameGroups
	}
	w.byte(flags)
	w.tab = &fw.tab
	defer func() { w.tab = nil }()
	w.int(int64(f.Step))
	w.int(int64(f.Steps))
	w.prose(f.Label)
	w.str(f.Kind)
	w.prose(f.Note)
	w.int(f.Tick)
	res(w, f.Cluster)
	res(w, f.ClusterUsed)
	w.bool(f.Dominant)
	res(w, f.MinAlloc)
	old := last
	if old == nil {
		old = &store.Frame{}
	}
	mine := fw.next
	fw.next = nil
	if mine == nil {
		mine = &frameMemory{}
	}
	writeList(w, &fw.queues, &mine.queues, f.Queues, old.Queues, queueView, queueDelta)
	writeList(w, &fw.nodes, &mine.nodes, f.Nodes, old.Nodes, nodeView, nodeDelta)
	writeUsed(w, f.NodeUsed, old.NodeUsed)
	writeReserved(w, f.Reserved)
	writeBriefs(w, f.Containers, f.NodeAt, old.Containers, old.NodeAt)
	writeList(w, &fw.apps, &mine.apps, f.Apps, old.Apps, appView, whole(appView))
	writeShown(w, f.Shown)
	writeSlice(w, f.Events, event)
	w.proses(f.Narration)
	w.str(f.HeartbeatNode)
	w.count(len(f.Walk))
	for _, q := range sortedKeys(f.Walk) {
		w.str(q)
		vs := f.Walk[q]
		w.count(len(vs))
		for _, v := range vs {
			w.str(v.App)
			w.str(v.User)
			w.str(v.Outcome)
			w.str(string(v.Reason))
		}
	}
	// History: the points the reader keeps (those of the last frame that
	// are this one's, the same arrays), then the new ones.
	keep := 0
	if last != nil {
		for keep < len(last.History) && keep < len(f.History) && samePoint(&last.History[keep], &f.History[keep]) {
			keep++
		}
	}
	w.count(keep)
	w.count(len(f.History) - keep)
	// A point whose usage is the point before's (the store shares the
	// array while no queue's usage changes: submits, requests) says so in
	// a byte instead of carrying it again, and the reader shares it too.
	for i := keep; i < len(f.History); i++ {
		h := &f.History[i]
		w.int(int64(h.Step))
		w.int(h.Tick)
		if i > 0 && len(h.Used) > 0 && len(h.Used) == len(f.History[i-1].Used) &&
			unsafe.SliceData(h.Used) == unsafe.SliceData(f.History[i-1].Used) {
			w.bool(true)
		} else {
			w.bool(false)
			writeSlice(w, h.Used, func(w *writer, u *resource.Resource) { res(w, *u) })
		}
		w.strs(h.Marks)
	}
	w.str(f.Selected)
	w.str(f.SelectedUser)
	w.bool(f.UserLimit != nil)
	if f.UserLimit != nil {
		userLimitTerms(w, f.UserLimit)
	}
	w.bool(f.AMLimit != nil)
	if f.AMLimit != nil {
		amLimitTerms(w, f.AMLimit)
	}
	w.count(len(f.Partitions))
	for _, p := range f.Partitions {
		w.str(p.Label)
		w.bool(p.Exclusive)
		res(w, p.Resource)
	}
	w.count(len(f.PartitionLimits))
	for _, l := range sortedKeys(f.PartitionLimits) {
		w.str(l)
		t := f.PartitionLimits[l]
		userLimitTerms(w, &t.UserLimit)
		amLimitTerms(w, &t.AMLimit)
	}
	w.str(f.Partition)
	strMap(w, f.Broken)
	w.proses(f.Check)
	w.prose(f.Err)
	w.prose(f.StepError)
	w.bool(f.Expected)
	w.str(f.Title)
	w.prose(f.Description)
	w.str(f.Source)
	w.str(f.Lesson)
	w.str(f.Profile)
	if flags&sameConf == 0 {
		strMap(w, f.Conf)
	}
	if flags&sameGroups == 0 {
		w.count(len(f.Groups))
		for _, u := range sortedKeys(f.Groups) {
			w.str(u)
			w.strs(f.Groups[u])
		}
	}
	w.strs(f.Users)
	w.str(f.NextNode)
	w.int(int64(f.Revision))
	w.proses(f.Warnings)
	w.proses(f.Assumptions)
	m := &f.Metrics
	for _, v := range []int{m.AppsSubmitted, m.AppsPending, m.AppsRunning, m.AppsCompleted, m.Containers, m.NodesBusy} {
		w.int(int64(v))
	}
	w.bool(f.NodesPainted)
	w.str(f.FocusNode)
	for _, v := range []int64{m.MemUsed, m.VCoresUsed, m.MemReserved, m.VCoresReserved} {
		w.int(v)
	}
	w.bool(f.NodesBehind)
}

// read reads a frame write wrote.
func (fr *FrameReader) read(r *reader) *store.Frame {
	flags := r.byte()
	if flags&fresh != 0 {
		*fr = FrameReader{}
	}
	last := fr.last
	if last == nil && flags&(sameConf|sameGroups|fresh) != fresh {
		r.fail(errNoBase)
		return nil
	}
	if last == nil {
		last = &store.Frame{}
	}
	r.tab = &fr.tab
	defer func() { r.tab = nil }()
	f := &store.Frame{}
	f.Step = r.small()
	f.Steps = r.small()
	f.Label = r.str()
	f.Kind = r.str()
	f.Note = r.str()
	f.Tick = r.int()
	f.Cluster = readRes(r)
	f.ClusterUsed = readRes(r)
	f.Dominant = r.bool()
	f.MinAlloc = readRes(r)
	f.Queues = readList(r, last.Queues, readQueueDelta)
	f.Nodes = readList(r, last.Nodes, readNodeDelta)
	f.NodeUsed = readUsed(r, last.NodeUsed)
	if len(f.NodeUsed) != len(f.Nodes) && len(f.NodeUsed) > 0 {
		r.fail(errShort)
		return nil
	}
	f.Reserved = readReserved(r, len(f.Nodes))
	f.Containers, f.NodeAt = readBriefs(r, last.Containers, last.NodeAt)
	if len(f.Nodes) > 0 && len(f.NodeAt) != len(f.Nodes)+1 || len(f.Nodes) == 0 && len(f.NodeAt) > 0 {
		r.fail(errShort)
		return nil
	}
	f.Apps = readList(r, last.Apps, readWhole(readAppView))
	f.Shown = readShown(r, len(f.Apps))
	for _, c := range f.Containers {
		if c.App < 0 || int(c.App) >= f.AppCount() {
			r.fail(errShort)
			return nil
		}
	}
	f.Events = readSlice(r, 2, readEvent)
	f.Narration = r.strs()
	f.HeartbeatNode = r.str()
	n := r.count(2)
	f.Walk = make(map[string][]store.AppVisit, n)
	for range n {
		q := r.str()
		vs := make([]store.AppVisit, r.count(4))
		for i := range vs {
			vs[i] = store.AppVisit{App: r.str(), User: r.str(), Outcome: r.str(), Reason: core.Reason(r.str())}
		}
		f.Walk[q] = vs
	}
	// keep is bounded by the points the reader has, not by the message.
	keepN, add := r.uint(), r.count(4)
	if keepN > uint64(len(last.History)) {
		r.fail(errShort)
		return nil
	}
	keep := int(keepN)
	if keep+add > 0 {
		f.History = keptHistory(last.History, keep, add)
		for range add {
			h := store.HistoryPoint{Step: r.small(), Tick: r.int()}
			if r.bool() {
				if len(f.History) == 0 {
					r.fail(errShort)
					return nil
				}
				h.Used = f.History[len(f.History)-1].Used
			} else {
				h.Used = readSlice(r, 2, func(r *reader, u *resource.Resource) { *u = readRes(r) })
			}
			h.Marks = r.strs()
			f.History = append(f.History, h)
		}
	}
	f.Selected = r.str()
	f.SelectedUser = r.str()
	if r.bool() {
		f.UserLimit = &core.UserLimitTerms{}
		readUserLimitTerms(r, f.UserLimit)
	}
	if r.bool() {
		f.AMLimit = &core.AMLimitTerms{}
		readAMLimitTerms(r, f.AMLimit)
	}
	if n := r.count(3); n > 0 {
		f.Partitions = make([]store.Partition, n)
		for i := range f.Partitions {
			f.Partitions[i] = store.Partition{Label: r.str(), Exclusive: r.bool(), Resource: readRes(r)}
		}
	}
	if n := r.count(3); n > 0 {
		f.PartitionLimits = make(map[string]store.PartitionLimits, n)
		for range n {
			l := r.str()
			var t store.PartitionLimits
			readUserLimitTerms(r, &t.UserLimit)
			readAMLimitTerms(r, &t.AMLimit)
			f.PartitionLimits[l] = t
		}
	}
	f.Partition = r.str()
	f.Broken = readStrMap(r)
	f.Check = r.strs()
	f.Err = r.str()
	f.StepError = r.str()
	f.Expected = r.bool()
	f.Title = r.str()
	f.Description = r.str()
	f.Source = r.str()
	f.Lesson = r.str()
	f.Profile = r.str()
	if flags&sameConf != 0 {
		f.Conf = last.Conf
	} else {
		f.Conf = readStrMap(r)
	}
	if flags&sameGroups != 0 {
		f.Groups = last.Groups
	} else if n := r.count(2); n > 0 {
		f.Groups = make(map[string][]string, n)
		for range n {
			u := r.str()
			f.Groups[u] = r.strs()
		}
	}
	f.Users = r.strs()
	f.NextNode = r.str()
	f.Revision = r.small()
	f.Warnings = r.strs()
	f.Assumptions = r.strs()
	m := &f.Metrics
	for _, v := range []*int{&m.AppsSubmitted, &m.AppsPending, &m.AppsRunning, &m.AppsCompleted, &m.Containers, &m.NodesBusy} {
		*v = r.small()
	}
	f.NodesPainted = r.bool()
	f.FocusNode = r.str()
	for _, v := range []*int64{&m.MemUsed, &m.VCoresUsed, &m.MemReserved, &m.VCoresReserved} {
		*v = r.int()
	}
	f.NodesBehind = r.bool()
	if r.err != nil {
		// What was read of it is in the table: the reader starts again
		// from the writer's next fresh frame (see ErrResync).
		*fr = FrameReader{}
		return nil
	}
	fr.last = f
	return f
}

// writeShown writes which applications a page's frame holds (nil: all):
// each one's index as the gap since the one before, and its rank.
func writeShown(w *writer, sh *store.Shown) {
	w.bool(sh != nil)
	if sh == nil {
		return
	}
	w.count(len(sh.Index))
	prev := int32(-1)
	for k, i := range sh.Index {
		w.uint(uint64(i - prev - 1))
		w.uint(uint64(sh.Rank[k]))
		prev = i
	}
	for _, v := range []int{sh.Total, sh.Live, sh.InScope, sh.Containers} {
		w.count(v)
	}
}

// readShown reads what writeShown wrote, for a frame of n applications.
func readShown(r *reader, n int) *store.Shown {
	if !r.bool() {
		return nil
	}
	k := r.count(2)
	if k != n {
		r.fail(errShort)
		return nil
	}
	sh := &store.Shown{Index: make([]int32, k), Rank: make([]int32, k)}
	next := uint64(0)
	for j := range k {
		next += r.uint()
		rank := r.uint()
		if next >= math.MaxInt32 || rank >= math.MaxInt32 {
			r.fail(errShort)
			return nil
		}
		sh.Index[j], sh.Rank[j] = int32(next), int32(rank)
		next++
	}
	for _, v := range []*int{&sh.Total, &sh.Live, &sh.InScope, &sh.Containers} {
		*v = int(min(r.uint(), math.MaxInt32))
	}
	if uint64(sh.Total) < next {
		r.fail(errShort)
		return nil
	}
	return sh
}

func userLimitTerms(w *writer, t *core.UserLimitTerms) {
	for _, r := range []resource.Resource{t.Partition, t.QueueCapacity, t.Consumed, t.CurrentCapacity, t.ActiveUsed,
		t.Required, t.ByUsers, t.ByPercent, t.MaxUserLimit, t.Limit} {
		res(w, r)
	}
	w.f32(t.ActiveWeights)
	w.f32(t.MinUserLimitPct)
	w.f32(t.UserLimitFactor)
}

func readUserLimitTerms(r *reader, t *core.UserLimitTerms) {
	for _, p := range []*resource.Resource{&t.Partition, &t.QueueCapacity, &t.Consumed, &t.CurrentCapacity, &t.ActiveUsed,
		&t.Required, &t.ByUsers, &t.ByPercent, &t.MaxUserLimit, &t.Limit} {
		*p = readRes(r)
	}
	t.ActiveWeights, t.MinUserLimitPct, t.UserLimitFactor = r.f32(), r.f32(), r.f32()
}

func amLimitTerms(w *writer, t *core.AMLimitTerms) {
	for _, r := range []resource.Resource{t.CurrentLimit, t.Guaranteed, t.Usable, t.AMLimit, t.UserAMLimit, t.AMUsed} {
		res(w, r)
	}
	w.f32(t.MaxAMPercent)
	w.int(int64(t.ActiveUsers))
	w.f32(t.MinUserLimit)
	w.f32(t.UserLimitFact)
}

func readAMLimitTerms(r *reader, t *core.AMLimitTerms) {
	for _, p := range []*resource.Resource{&t.CurrentLimit, &t.Guaranteed, &t.Usable, &t.AMLimit, &t.UserAMLimit, &t.AMUsed} {
		*p = readRes(r)
	}
	t.MaxAMPercent = r.f32()
	t.ActiveUsers = r.small()
	t.MinUserLimit, t.UserLimitFact = r.f32(), r.f32()
}

// samePoint reports whether two history points are the same point (the
// store shares them between frames and never changes them).
// keptHistory is a frame's history up to its new points: the last
// frame's first keep points, with room for add more. When the frame keeps
// all the last frame's points it shares their array, appending past the
// last frame's end: the last frame read is always the longest of the
// frames on its array (a frame that keeps fewer and adds none shares it
// without room to append, one that keeps fewer and adds gets an array of
// its own), so no frame sees the points appended. A history of tens of
// thousands of steps is then not copied at every tick or step back.
func keptHistory(last []store.HistoryPoint, keep, add int) []store.HistoryPoint {
	if keep == len(last) && keep > 0 {
		return slices.Grow(last, add)
	}
	if add == 0 {
		// A step back: the points kept, with no room to append in
		// place (the next frame that adds to them takes a new array).
		return last[:keep:keep]
	}
	h := make([]store.HistoryPoint, keep, keep+add)
	copy(h, last[:keep])
	return h
}

func samePoint(a, b *store.HistoryPoint) bool {
	return a.Step == b.Step && a.Tick == b.Tick && len(a.Used) == len(b.Used) &&
		unsafe.SliceData(a.Used) == unsafe.SliceData(b.Used)
}

// sameMap reports whether a and b are the same map (not equal maps).
func sameMap[M ~map[K]V, K comparable, V any](a, b M) bool {
	return a != nil && reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

func res(w *writer, r resource.Resource) { w.int(r.MemoryMB); w.int(r.VCores) }

func readRes(r *reader) resource.Resource {
	return resource.Resource{MemoryMB: r.int(), VCores: r.int()}
}

func strMap(w *writer, m map[string]string) {
	w.count(len(m))
	for _, k := range sortedKeys(m) {
		w.str(k)
		w.str(m[k])
	}
}

func readStrMap(r *reader) map[string]string {
	n := r.count(2)
	if n == 0 {
		return nil
	}
	m := make(map[string]string, n)
	for range n {
		k := r.str()
		m[k] = r.str()
	}
	return m
}

// A queue's and a node's views go in two parts: what the configuration
// and the cluster set (its static part: names, capacities, limits, ACLs),
// sent only when it changed, and its usage, sent whenever the view
// changed, a queue's users each only when changed.

// queueView is a queue's encoding as a writer remembers it (listOf): its
// static part, its usage, then the static part's length in four bytes, so
// that queueDelta finds it without writing the queue again.
func queueView(w *writer, q *core.QueueView) {
	at := len(w.b)
	queueStatic(w, q)
	n := len(w.b) - at
	queueUsage(w, q, nil)
	w.b = append(w.b, byte(n), byte(n>>8), byte(n>>16), byte(n>>24))
}

// staticOf is the static part of a queue's encoding by queueView (nil for
// none).
func staticOf(enc []byte) []byte {
	if len(enc) < 4 {
		return nil
	}
	t := enc[len(enc)-4:]
	n := int(t[0]) | int(t[1])<<8 | int(t[2])<<16 | int(t[3])<<24
	return enc[:min(n, len(enc)-4)]
}

// queueDelta writes q over old (nil: none), whose encodings by queueView
// are enc and oldEnc: the static part only when it changed.
func queueDelta(w *writer, q, old *core.QueueView, oldEnc, enc []byte) {
	same := old != nil && bytes.Equal(staticOf(enc), staticOf(oldEnc))
	w.bool(same)
	if !same {
		queueStatic(w, q)
	}
	var users []core.UserView
	if old != nil {
		users = old.Users
	}
	queueUsage(w, q, users)
}

func readQueueDelta(r *reader, q *core.QueueView, fresh bool) {
	if r.bool() {
		if fresh {
			r.fail(errShort)
			return
		}
	} else {
		readQueueStatic(r, q)
	}
	readQueueUsage(r, q)
}

// queueStatic writes what of a queue changes only with the configuration.
func queueStatic(w *writer, q *core.QueueView) {
	w.str(q.Path)
	w.str(q.Name)
	w.str(q.Parent)
	w.bool(q.Leaf)
	w.strs(q.Children)
	w.strs(q.ChildList)
	w.str(string(q.State))
	w.int(int64(q.Depth))
	for _, v := range []float32{q.Capacity, q.MaxCapacity, q.AbsCapacity, q.AbsMaxCapacity,
		q.UserLimitFactor, q.MinUserLimitPercent, q.MaxAMPercent} {
		w.f32(v)
	}
	w.bool(q.Absolute)
	for _, v := range []resource.Resource{q.EffectiveMin, q.EffectiveMax, q.ConfiguredMin, q.ConfiguredMax, q.MaxAllocation} {
		res(w, v)
	}
	for _, v := range []int{q.MaxParallelApps, q.Priority, q.MaxApps, q.MaxAppsPerUser, q.NodeLocalityDelay, q.DefaultAppPriority} {
		w.int(int64(v))
	}
	w.str(q.OrderingPolicy)
	w.bool(q.DisablePreemption)
	w.str(q.SubmitACL)
	w.str(q.AdminACL)
	w.str(string(q.ConfiguredState))
	w.bool(q.Weighted)
	w.f32(q.Weight)
	w.f32(q.NormalizedWeight)
	w.bool(q.ManagedParent)
	w.bool(q.AutoCreated)
	w.bool(q.FlexibleParent)
	w.bool(q.Dynamic)
	w.int(int64(q.MaxChildQueues))
	w.strs(q.AccessibleLabels)
	w.str(q.DefaultLabelExpression)
}

func readQueueStatic(r *reader, q *core.QueueView) {
	q.Path, q.Name, q.Parent = r.str(), r.str(), r.str()
	q.Leaf = r.bool()
	q.Children = r.strs()
	q.ChildList = r.strs()
	q.State = config.QueueState(r.str())
	q.Depth = r.small()
	for _, p := range []*float32{&q.Capacity, &q.MaxCapacity, &q.AbsCapacity, &q.AbsMaxCapacity,
		&q.UserLimitFactor, &q.MinUserLimitPercent, &q.MaxAMPercent} {
		*p = r.f32()
	}
	q.Absolute = r.bool()
	for _, p := range []*resource.Resource{&q.EffectiveMin, &q.EffectiveMax, &q.ConfiguredMin, &q.ConfiguredMax, &q.MaxAllocation} {
		*p = readRes(r)
	}
	for _, p := range []*int{&q.MaxParallelApps, &q.Priority, &q.MaxApps, &q.MaxAppsPerUser, &q.NodeLocalityDelay, &q.DefaultAppPriority} {
		*p = r.small()
	}
	q.OrderingPolicy = r.str()
	q.DisablePreemption = r.bool()
	q.SubmitACL, q.AdminACL = r.str(), r.str()
	q.ConfiguredState = config.QueueState(r.str())
	q.Weighted = r.bool()
	q.Weight, q.NormalizedWeight = r.f32(), r.f32()
	q.ManagedParent, q.AutoCreated = r.bool(), r.bool()
	q.FlexibleParent, q.Dynamic = r.bool(), r.bool()
	q.MaxChildQueues = r.small()
	q.AccessibleLabels = r.strs()
	q.DefaultLabelExpression = r.str()
}

// queueUsage writes what the queue's usage sets, its users as changes
// from old (nil: all of them).
func queueUsage(w *writer, q *core.QueueView, old []core.UserView) {
	w.f32(q.UsedCapacity)
	w.f32(q.AbsUsedCapacity)
	for _, v := range []resource.Resource{q.Used, q.Reserved, q.Pending, q.AMUsed, q.AMLimit, q.UserAMLimit, q.UserLimit, q.CurrentLimit} {
		res(w, v)
	}
	for _, v := range []int{q.NumApps, q.NumActiveApps, q.NumPendingApps, q.NumNonRunnableApps, q.NumRunnableApps, q.ActiveUsers} {
		w.int(int64(v))
	}
	w.strs(q.ActiveApps)
	w.strs(q.PendingApps)
	w.strs(q.NonRunnableApps)
	writeEq(w, q.Users, old, userView)
	w.bool(q.AutoActive)
	writeSlice(w, q.Partitions, partitionView)
}

func partitionView(w *writer, p *core.PartitionView) {
	w.str(p.Label)
	w.bool(p.Accessible)
	for _, v := range []float32{p.Capacity, p.MaxCapacity, p.AbsCapacity, p.AbsMaxCapacity, p.UsedCapacity, p.AbsUsedCapacity} {
		w.f32(v)
	}
	for _, v := range []resource.Resource{p.EffectiveMin, p.EffectiveMax, p.Used, p.Pending, p.AMUsed, p.AMLimit, p.UserLimit} {
		res(w, v)
	}
}

func readPartitionView(r *reader, p *core.PartitionView) {
	p.Label = r.str()
	p.Accessible = r.bool()
	for _, v := range []*float32{&p.Capacity, &p.MaxCapacity, &p.AbsCapacity, &p.AbsMaxCapacity, &p.UsedCapacity, &p.AbsUsedCapacity} {
		*v = r.f32()
	}
	for _, v := range []*resource.Resource{&p.EffectiveMin, &p.EffectiveMax, &p.Used, &p.Pending, &p.AMUsed, &p.AMLimit, &p.UserLimit} {
		*v = readRes(r)
	}
}

// readQueueUsage reads what queueUsage wrote, over q's users.
func readQueueUsage(r *reader, q *core.QueueView) {
	q.UsedCapacity, q.AbsUsedCapacity = r.f32(), r.f32()
	for _, p := range []*resource.Resource{&q.Used, &q.Reserved, &q.Pending, &q.AMUsed, &q.AMLimit, &q.UserAMLimit, &q.UserLimit, &q.CurrentLimit} {
		*p = readRes(r)
	}
	for _, p := range []*int{&q.NumApps, &q.NumActiveApps, &q.NumPendingApps, &q.NumNonRunnableApps, &q.NumRunnableApps, &q.ActiveUsers} {
		*p = r.small()
	}
	q.ActiveApps = r.strs()
	q.PendingApps = r.strs()
	q.NonRunnableApps = r.strs()
	q.Users = readEq(r, q.Users, readUserView)
	q.AutoActive = r.bool()
	q.Partitions = readSlice(r, 20, readPartitionView)
}

func userView(w *writer, u *core.UserView) {
	w.str(u.Name)
	for _, v := range []resource.Resource{u.Used, u.Reserved, u.AMUsed, u.UserLimit, u.AMLimit} {
		res(w, v)
	}
	w.int(int64(u.ActiveApps))
	w.int(int64(u.PendingApps))
	w.bool(u.Active)
	w.f32(u.Weight)
}

func readUserView(r *reader, u *core.UserView) {
	u.Name = r.str()
	for _, p := range []*resource.Resource{&u.Used, &u.Reserved, &u.AMUsed, &u.UserLimit, &u.AMLimit} {
		*p = readRes(r)
	}
	u.ActiveApps, u.PendingApps = r.small(), r.small()
	u.Active = r.bool()
	u.Weight = r.f32()
}

func nodeView(w *writer, n *core.NodeView) {
	nodeStatic(w, n)
	nodeUsage(w, n)
}

func nodeDelta(w *writer, n, old *core.NodeView, _, _ []byte) {
	same := old != nil && n.Name == old.Name && n.Rack == old.Rack && n.Capacity == old.Capacity && n.Label == old.Label
	w.bool(same)
	if !same {
		nodeStatic(w, n)
	}
	nodeUsage(w, n)
}

func readNodeDelta(r *reader, n *core.NodeView, fresh bool) {
	if r.bool() {
		if fresh {
			r.fail(errShort)
			return
		}
	} else {
		n.Name, n.Rack = r.str(), r.str()
		n.Capacity = readRes(r)
		n.Label = r.str()
	}
	n.Allocated = readRes(r)
	n.Reservation = nil
	if r.bool() {
		c := &core.ContainerView{}
		readContainerView(r, c)
		n.Reservation = c
	}
	n.Containers = readSlice(r, 10, readContainerView)
}

func nodeStatic(w *writer, n *core.NodeView) {
	w.str(n.Name)
	w.str(n.Rack)
	res(w, n.Capacity)
	w.str(n.Label)
}

func nodeUsage(w *writer, n *core.NodeView) {
	res(w, n.Allocated)
	w.bool(n.Reservation != nil)
	if n.Reservation != nil {
		containerView(w, n.Reservation)
	}
	writeSlice(w, n.Containers, containerView)
}

func containerView(w *writer, c *core.ContainerView) {
	w.int(c.ID)
	w.str(c.App)
	w.str(c.Queue)
	w.str(c.User)
	w.str(c.Node)
	res(w, c.Size)
	w.int(int64(c.Priority))
	w.bool(c.IsAM)
	w.str(string(c.Locality))
	w.int(c.StartTick)
	w.int(c.EndTick)
	w.bool(c.Reserved)
}

func readContainerView(r *reader, c *core.ContainerView) {
	c.ID = r.int()
	c.App, c.Queue, c.User, c.Node = r.str(), r.str(), r.str(), r.str()
	c.Size = readRes(r)
	c.Priority = r.small()
	c.IsAM = r.bool()
	c.Locality = core.Locality(r.str())
	c.StartTick, c.EndTick = r.int(), r.int()
	c.Reserved = r.bool()
}

// Container brief flags.
const (
	briefAM = 1 << iota
	briefReserved
)

// localityCodes number the localities a brief carries.
var localityCodes = [...]core.Locality{"", core.NodeLocal, core.RackLocal, core.OffSwitch}

func containerBrief(w *writer, c *core.ContainerBrief) {
	w.int(c.ID)
	w.int(c.StartTick)
	w.int(c.EndTick)
	res(w, c.Size)
	w.int(int64(c.Priority))
	w.int(int64(c.App))
	flags := byte(0)
	if c.IsAM {
		flags |= briefAM
	}
	if c.Reserved {
		flags |= briefReserved
	}
	loc := c.Locality()
	code := byte(0)
	for i, l := range localityCodes {
		if l == loc {
			code = byte(i)
		}
	}
	w.byte(flags | code<<2)
}

func readContainerBrief(r *reader, c *core.ContainerBrief) {
	c.ID, c.StartTick, c.EndTick = r.int(), r.int(), r.int()
	c.Size = readRes(r)
	c.Priority = r.small()
	c.App = int32(r.small())
	flags := r.byte()
	c.IsAM, c.Reserved = flags&briefAM != 0, flags&briefReserved != 0
	code := int(flags >> 2)
	if code >= len(localityCodes) {
		r.fail(errShort)
		return
	}
	*c = c.WithLocality(localityCodes[code])
}

func appView(w *writer, a *core.AppView) {
	w.str(a.ID)
	w.str(a.User)
	w.str(a.Queue)
	w.str(string(a.State))
	w.int(int64(a.Priority))
	w.int(a.Seq)
	w.int(int64(a.Attempt))
	w.bool(a.Activated)
	for _, v := range []resource.Resource{a.AMResource, a.Consumption, a.Reserved, a.Headroom} {
		res(w, v)
	}
	w.int(int64(a.LiveContainers))
	w.int(int64(a.ReservedContainers))
	w.bool(a.NotRunnable)
	w.int(a.StartTick)
	w.int(a.FinishTick)
	writeSlice(w, a.Requests, requestView)
	writeSlice(w, a.Containers, containerView)
	w.prose(a.Diagnostics)
}

func requestView(w *writer, q *core.RequestView) {
	w.int(int64(q.Priority))
	res(w, q.Resource)
	w.int(int64(q.Outstanding))
	writeSlice(w, q.Locations, func(w *writer, l *core.LocationAsk) {
		w.str(l.Name)
		w.int(int64(l.Count))
		w.bool(l.RelaxLocality)
	})
	w.int(int64(q.MissedOpportunities))
	w.int(int64(q.Reserved))
	w.int(q.Duration)
}

func readRequestView(r *reader, q *core.RequestView) {
	q.Priority = r.small()
	q.Resource = readRes(r)
	q.Outstanding = r.small()
	q.Locations = readSlice(r, 3, func(r *reader, l *core.LocationAsk) {
		*l = core.LocationAsk{Name: r.str(), Count: r.small(), RelaxLocality: r.bool()}
	})
	q.MissedOpportunities, q.Reserved = r.small(), r.small()
	q.Duration = r.int()
}

func readAppView(r *reader, a *core.AppView) {
	a.ID, a.User, a.Queue = r.str(), r.str(), r.str()
	a.State = core.AppState(r.str())
	a.Priority = r.small()
	a.Seq = r.int()
	a.Attempt = r.small()
	a.Activated = r.bool()
	for _, p := range []*resource.Resource{&a.AMResource, &a.Consumption, &a.Reserved, &a.Headroom} {
		*p = readRes(r)
	}
	a.LiveContainers, a.ReservedContainers = r.small(), r.small()
	a.NotRunnable = r.bool()
	a.StartTick, a.FinishTick = r.int(), r.int()
	a.Requests = readSlice(r, 7, readRequestView)
	a.Containers = readSlice(r, 10, readContainerView)
	a.Diagnostics = r.str()
}

func event(w *writer, e *core.Event) {
	w.int(e.Tick)
	w.str(string(e.Kind))
	w.str(e.Node)
	w.str(e.Queue)
	w.str(e.App)
	w.str(e.User)
	w.int(int64(e.Priority))
	w.int(e.Container)
	res(w, e.Resource)
	w.str(string(e.Locality))
	w.str(string(e.Reason))
	res(w, e.Used)
	res(w, e.Limit)
	w.f32(e.Value)
	w.int(int64(e.Seq))
	w.int(int64(e.Depth))
	w.prose(e.Detail)
	w.str(e.Partition)
}

func readEvent(r *reader, e *core.Event) {
	e.Tick = r.int()
	e.Kind = core.EventKind(r.str())
	e.Node, e.Queue, e.App, e.User = r.str(), r.str(), r.str(), r.str()
	e.Priority = r.small()
	e.Container = r.int()
	e.Resource = readRes(r)
	e.Locality = core.Locality(r.str())
	e.Reason = core.Reason(r.str())
	e.Used, e.Limit = readRes(r), readRes(r)
	e.Value = r.f32()
	e.Seq, e.Depth = r.small(), r.small()
	e.Detail = r.str()
	e.Partition = r.str()
}
