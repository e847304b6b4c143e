package core

// Views of one state after another (the store's frames, step after step)
// share what did not change: a view built over the last one (prev) takes
// its lists whenever they are equal, so that a frame of twenty thousand
// applications and a thousand queues allocates for what the step changed,
// not for every application's requests and every queue's lists of
// applications again. The views are exactly those built afresh (Queues
// without their users, Apps without their containers); only their lists
// may be shared, and views are never changed in place.

// QueuesOver returns the views of the queues, in Queues' order, without
// their users (QueueView.Users is nil: QueueUsers returns a leaf's),
// sharing the lists of prev's view of the same queue (at the same index)
// where they are equal. A thousand leaves have tens of thousands of
// users, of which a page shows a few queues'.
func (s *Scheduler) QueuesOver(prev []QueueView) []QueueView {
	out := make([]QueueView, len(s.queues))
	for i, q := range s.queues {
		var p *QueueView
		if i < len(prev) && prev[i].Path == q.path {
			p = &prev[i]
		}
		out[i] = s.queueView(q, p, false)
	}
	return out
}

// QueueUsers returns the views of the users of the leaf at path, by name
// (QueueView.Users); nil for a parent queue or none.
func (s *Scheduler) QueueUsers(path string) []UserView {
	q := s.byPath[path]
	if q == nil || !q.isLeaf() {
		return nil
	}
	return s.userViews(q)
}

// AppsBriefOver returns the views of the accepted applications, in Apps'
// order, without their containers (AppView.Containers is nil: the nodes'
// views list them), sharing the requests of prev's view of the same
// application (at the same index) where they are equal. They are written
// over dst's array when it has room, else in a new one; dst must not be
// prev's array.
func (s *Scheduler) AppsBriefOver(dst, prev []AppView) []AppView {
	out := dst[:0]
	if out == nil || cap(out) < len(s.apps) {
		out = make([]AppView, 0, len(s.apps))
	}
	clear(out[len(s.apps):cap(out)]) // no view left behind holds on to what it shares
	out = out[:len(s.apps)]
	for i, a := range s.apps {
		var p *AppView
		if i < len(prev) && prev[i].ID == a.id {
			p = &prev[i]
		}
		out[i] = s.appViewBrief(a, p)
	}
	return out
}

// over returns the n values at(0) to at(n-1) as a list: prev, or its
// first n, when they are its first n, else a new list (nil for none).
func over[T comparable](prev []T, n int, at func(int) T) []T {
	if n == 0 {
		return nil
	}
	var out []T
	for i := range n {
		v := at(i)
		if out == nil {
			if i < len(prev) && prev[i] == v {
				continue
			}
			out = make([]T, n)
			copy(out, prev[:i])
		}
		out[i] = v
	}
	if out == nil {
		return prev[:n:n]
	}
	return out
}

// queuePaths returns the full paths of qs, over prev (see over).
func queuePaths(qs []*queue, prev []string) []string {
	return over(prev, len(qs), func(i int) string { return qs[i].path })
}

// appIDs returns the ids of apps, in order, over prev (see over).
func appIDs(apps []*app, prev []string) []string {
	return over(prev, len(apps), func(i int) string { return apps[i].id })
}

// userViews returns the views of a leaf's users, by name.
func (s *Scheduler) userViews(q *queue) []UserView {
	var out []UserView
	for _, name := range sortedUserNames(q.lf) {
		u := q.lf.users[name]
		out = append(out, UserView{
			Name: name, Used: u.used, Reserved: u.reserved, AMUsed: u.amUsed,
			ActiveApps: int(u.activatedApps), PendingApps: int(u.pendingApps), Active: u.activeAsks > 0,
			UserLimit: s.userLimitOf(q, u), AMLimit: s.userAMLimit(q, name), Weight: u.weight,
		})
	}
	return out
}

// requestViews returns the views of an application's requests, by
// priority: prev when every one is the same.
func requestViews(rs []*request, prev []RequestView) []RequestView {
	if len(rs) == 0 {
		return nil
	}
	if len(prev) == len(rs) {
		same := true
		for i, r := range rs {
			if same = r.isViewedAs(&prev[i]); !same {
				break
			}
		}
		if same {
			return prev
		}
	}
	out := make([]RequestView, len(rs))
	for i, r := range rs {
		out[i] = RequestView{Priority: r.priority, Resource: r.size, Outstanding: r.outstanding(),
			MissedOpportunities: r.missed, Reserved: r.numReserved, Duration: r.duration}
		for j := range r.asks {
			out[i].Locations = append(out[i].Locations, r.locationAsk(j))
		}
	}
	return out
}

// locationAsk is the view of the request's i-th location ask.
func (r *request) locationAsk(i int) LocationAsk {
	la := r.asks[i]
	return LocationAsk{Name: la.name, Count: la.count, RelaxLocality: la.relax}
}

// isViewedAs reports whether v is the request's view (requestViews).
func (r *request) isViewedAs(v *RequestView) bool {
	if v.Priority != r.priority || v.Resource != r.size || v.Outstanding != r.outstanding() ||
		v.MissedOpportunities != r.missed || v.Reserved != r.numReserved || v.Duration != r.duration ||
		len(v.Locations) != len(r.asks) {
		return false
	}
	for i := range r.asks {
		if v.Locations[i] != r.locationAsk(i) {
			return false
		}
	}
	return true
}
