package core

// After `yarn rmadmin -refreshQueues`, Hadoop 3's ParentQueue.reinitialize
// rebuilds a parent's child list (childQueues) from a java.util.HashMap
// keyed by queue path: the current children are put in their list's
// order, then the new ones, the removed ones are taken out, and the list
// is the map's iteration order. The ordering policy's stable sort leaves
// children tied on used capacity (and priority and absolute capacity) in
// this list's order, so after a refresh the tie goes to the HashMap's
// order, not the configured one. javaHashMapOrder reproduces it:
// String.hashCode over UTF-16 code units, HashMap.hash's spreading
// (h ^ h>>>16), a table of 16 buckets doubled whenever the size passes
// three quarters of it (resize keeps each bucket's entries in their
// order), iteration bucket by bucket, each bucket in insertion order.
// (A bucket of 8 or more entries in a table of 64 or more is a tree, whose
// iteration can differ; queue paths that collide 8 times are not
// modelled.)

// javaStringHash is java.lang.String.hashCode.
func javaStringHash(s string) int32 {
	var h int32
	for _, r := range s {
		if r >= 0x10000 { // a surrogate pair in UTF-16
			r -= 0x10000
			h = 31*h + int32(0xd800+r>>10)
			r = 0xdc00 + r&0x3ff
		}
		h = 31*h + int32(r)
	}
	return h
}

// javaHashSpread is java.util.HashMap.hash: h ^ (h >>> 16).
func javaHashSpread(h int32) uint32 {
	u := uint32(h)
	return u ^ u>>16
}

// javaHashMapOrder returns the iteration order of a HashMap (default
// capacity and load factor) into which the keys of puts were put in
// order (a key put again keeps its place), after the keys of removed were
// taken out.
func javaHashMapOrder(puts []string, removed map[string]bool) []string {
	capacity, size := 16, 0
	seen := map[string]bool{}
	var order []string // distinct keys in insertion order
	for _, k := range puts {
		if seen[k] {
			continue
		}
		seen[k] = true
		order = append(order, k)
		size++
		if size > capacity*3/4 { // threshold = capacity x 0.75
			capacity *= 2
		}
	}
	buckets := make([][]string, capacity)
	for _, k := range order {
		i := javaHashSpread(javaStringHash(k)) & uint32(capacity-1)
		buckets[i] = append(buckets[i], k)
	}
	var out []string
	for _, b := range buckets {
		for _, k := range b {
			if !removed[k] {
				out = append(out, k)
			}
		}
	}
	return out
}

// reinitChildLists is the child-list part of ParentQueue.reinitialize for
// every parent that was a parent before the refresh and is one after it
// (a queue that changed type is a new object, whose list is the
// configured order): prev holds each such parent's child paths in their
// old list order. Each child's hpos becomes its place in the new list; a
// parent whose list now differs from the configured order is recorded, so
// that the narration can say why tied children are tried in that order.
func (s *Scheduler) reinitChildLists(prev map[string][]string) {
	for _, p := range s.queues {
		old, ok := prev[p.path]
		if !ok || p.isLeaf() || p.conf.ManagedParent {
			continue // a managed parent keeps its list (AbstractManagedParentQueue.reinitialize)
		}
		puts := append([]string(nil), old...)
		now := map[string]bool{}
		for _, c := range p.children {
			puts = append(puts, c.path)
			now[c.path] = true
		}
		removed := map[string]bool{}
		for _, k := range old {
			if !now[k] {
				removed[k] = true
			}
		}
		order := javaHashMapOrder(puts, removed)
		pos := make(map[string]int32, len(order))
		for i, k := range order {
			pos[k] = int32(i)
		}
		differs := false
		for _, c := range p.children {
			c.hpos = pos[c.path]
			differs = differs || c.hpos != c.cidx
		}
		if differs {
			s.emit(Event{Kind: EvChildList, Queue: p.path, Detail: joinPaths(order)})
		}
	}
}

// childLists returns, for every parent queue, its children's paths in
// their child-list order (hpos).
func (s *Scheduler) childLists() map[string][]string {
	out := map[string][]string{}
	for _, p := range s.queues {
		if p.isLeaf() {
			continue
		}
		list := make([]string, len(p.children))
		for _, c := range p.children {
			list[c.hpos] = c.path
		}
		out[p.path] = list
	}
	return out
}

// hadoopChildren returns a parent's children in their child-list order.
func hadoopChildren(p *queue) []*queue {
	out := make([]*queue, len(p.children))
	for _, c := range p.children {
		out[c.hpos] = c
	}
	return out
}

func joinPaths(paths []string) string {
	s := ""
	for i, p := range paths {
		if i > 0 {
			s += ", "
		}
		s += p
	}
	return s
}
