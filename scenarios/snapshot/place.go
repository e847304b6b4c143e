package snapshot

import (
	"fmt"
	"strconv"
	"strings"

	"yarnplay/core"
	"yarnplay/scenarios"
)

func (r Res) spec() scenarios.Res { return scenarios.Res{MemoryMB: r.MemoryMB, VCores: r.VCores} }

// place decides every running container's node: the attempts' containers
// responses where given, else a deterministic choice (the AM on the node
// amHostHttpAddress names, the others first-fit in node order on nodes
// whose reported usage is not yet accounted for, then anywhere with room).
func (b *builder) place() {
	b.hasAM, b.holds, b.amRes = map[string]bool{}, map[string]bool{}, map[string]scenarios.Res{}
	kept := map[string]bool{}
	for _, a := range b.live {
		kept[a.ID] = true
	}
	listed := map[string]bool{}
	for _, c := range b.sn.Containers {
		if !kept[c.App] {
			b.notes.add("cont-app", "container %s belongs to %s, which is not a live application of the snapshot: it is left out", c.ID, c.App)
			continue
		}
		listed[c.App] = true
		i, ok := b.nodeIdx[c.Node]
		if !ok {
			b.notes.add("cont-node", "container %s of %s is on node %s, which is not a running node of the snapshot: it is left out", c.ID, c.App, c.Node)
			continue
		}
		if c.AM && b.hasAM[c.App] {
			continue
		}
		b.put(c.App, i, c.Size, c.Priority, c.AM, c.ID)
	}
	synth, amGuess := 0, 0
	for _, a := range b.live {
		if listed[a.ID] || a.RunningContainers == 0 || a.Allocated.zero() || a.State != "RUNNING" {
			continue
		}
		synth++
		k := a.RunningContainers
		if most := a.Allocated.MemoryMB/max(b.min.MemoryMB, 1) + 1; k > most || k > maxAppContainers {
			k = min(most, maxAppContainers)
			b.notes.add("many", "application %s reports %d running containers for %d MB: %d containers are assumed", a.ID, a.RunningContainers, a.Allocated.MemoryMB, k)
		}
		am := a.AMUsed
		if am.zero() {
			am = b.assumedAM(b.leafOf[a.ID])
			if k > 1 {
				amGuess++
			}
		}
		if k == 1 || !am.fits(a.Allocated) {
			am = a.Allocated
		}
		sizes := split(a.Allocated.sub(am), k-1)
		node := -1
		if i, ok := b.amNode(a.AMHost); ok && am.fits(b.room[i]) {
			node = i
		}
		if node < 0 {
			node = b.fit(am)
		}
		if node < 0 {
			b.notes.add("no-room", "the AM container of %s (%d MB, %d vcores) fits no node: the application is restored without its containers", a.ID, am.MemoryMB, am.VCores)
			continue
		}
		b.put(a.ID, node, am, 0, true, "")
		for _, sz := range sizes {
			if sz.zero() {
				continue
			}
			i := b.fit(sz)
			if i < 0 {
				b.notes.add("no-room", "a %d MB, %d vcores container of %s fits no node (usage above capacity): it is left out", sz.MemoryMB, sz.VCores, a.ID)
				continue
			}
			b.put(a.ID, i, sz, 1, false, "")
		}
	}
	if synth > 0 {
		b.notes.add("", "%d running applications have no container list (attempts' containers responses): each has its runningContainers containers sharing its allocated resources equally, at request priority 1, the AM on its amHostHttpAddress node, the others on the first nodes (in the nodes response's order) whose reported usage they account for", synth)
	}
	if amGuess > 0 {
		b.notes.add("", "the AM size of those applications is their leaf queue's AM usage (usedAMResource) shared equally among its active applications, rounded down to the minimum allocation")
	}
}

// maxAppContainers bounds the containers assumed for one application.
const maxAppContainers = 100_000

// put records a container on node i.
func (b *builder) put(app string, i int, size Res, prio int64, am bool, id string) {
	if size.zero() || !size.fits(b.room[i]) {
		name := "a container"
		if id != "" {
			name = "container " + id
		}
		b.notes.add("no-room", "%s of %s (%d MB, %d vcores) does not fit node %s, which has %d MB, %d vcores left (usage above capacity): it is left out", name, app, size.MemoryMB, size.VCores, b.nodeList[i].Name, b.room[i].MemoryMB, b.room[i].VCores)
		return
	}
	b.room[i] = b.room[i].sub(size)
	b.budget[i] = b.budget[i].sub(size)
	b.restore.Containers = append(b.restore.Containers, scenarios.RestoredContainer{
		App: app, Node: b.nodeList[i].Name, Resource: size.spec(), Priority: int(prio), AM: am,
	})
	b.holds[app] = true
	if am {
		b.hasAM[app] = true
		b.amRes[app] = size.spec()
	}
}

// split shares r among k containers: equal parts, the remainder on the first.
func split(r Res, k int64) []Res {
	if k <= 0 {
		return nil
	}
	part := Res{r.MemoryMB / k, r.VCores / k}
	out := make([]Res, k)
	for i := range out {
		out[i] = part
	}
	out[0] = out[0].add(Res{r.MemoryMB % k, r.VCores % k})
	return out
}

// amNode finds the node an amHostHttpAddress names (host:port, perhaps
// with a scheme).
func (b *builder) amNode(addr string) (int, bool) {
	if addr == "" {
		return 0, false
	}
	addr = strings.TrimPrefix(strings.TrimPrefix(addr, "http://"), "https://")
	if i, ok := b.byHTTP[addr]; ok {
		return i, true
	}
	host, _, _ := strings.Cut(addr, ":")
	i, ok := b.byHost[host]
	return i, ok
}

// fit returns the first node whose unaccounted reported usage holds size,
// else the first with room; -1 when none has. Nodes before the cursors
// have less than the minimum allocation left and are not scanned again.
func (b *builder) fit(size Res) int {
	for b.bcur < len(b.budget) && !b.min.fits(b.budget[b.bcur]) {
		b.bcur++
	}
	for i := b.bcur; i < len(b.budget); i++ {
		if size.fits(b.budget[i]) && size.fits(b.room[i]) {
			return i
		}
	}
	for b.rcur < len(b.room) && !b.min.fits(b.room[b.rcur]) {
		b.rcur++
	}
	for i := b.rcur; i < len(b.room); i++ {
		if size.fits(b.room[i]) {
			return i
		}
	}
	return -1
}

// asks builds the restore's apps and asks. An app without its AM
// container is submitted with its AM asked for by the RM: the AM ask
// (request priority 0) of its resourceRequests gives the AM's size.
func (b *builder) asks() {
	noAsks, labelled, reserved := 0, 0, 0
	for _, a := range b.live {
		sub := scenarios.Submit{App: a.ID, User: a.User, Queue: b.leafOf[a.ID]}
		if a.Priority != 0 {
			p := int(min(a.Priority, 1<<30))
			sub.Priority = &p
		}
		if !a.Reserved.zero() {
			reserved++
		}
		amAsked := Res{}
		for _, k := range a.Asks {
			if k.Priority == 0 && k.Locality == "*" && k.Count > 0 {
				amAsked = k.Resource
			}
		}
		switch {
		case b.hasAM[a.ID]:
			am := b.amOf(a.ID)
			sub.AM = &am
		case !a.AMUsed.zero() && (b.holds[a.ID] || a.State == "RUNNING" || amAsked.zero()):
			// activated, its AM not among the containers: it counts
			// toward the AM limits only
			am, no := a.AMUsed.spec(), false
			sub.AM, sub.AMContainerRequest = &am, &no
		case b.holds[a.ID]:
			// containers but no AM: an application without an AM
		case a.State == "RUNNING" && !a.HasAsks:
			// running with nothing: as an application without an AM
		case !amAsked.zero():
			am := amAsked.spec()
			sub.AM = &am
		case a.State != "RUNNING":
			am := b.assumedAM(b.leafOf[a.ID]).spec()
			sub.AM = &am
			b.notes.add("am-guess", "the AM of %s is not in its resourceRequests: %d MB, %d vcores is assumed", a.ID, am.MemoryMB, am.VCores)
		}
		b.restore.Apps = append(b.restore.Apps, sub)
		if !a.HasAsks {
			noAsks++
			continue
		}
		for _, k := range a.Asks {
			if k.Count == 0 || (k.Priority == 0 && !b.hasAM[a.ID] && sub.AM != nil && sub.AMContainerRequest == nil) {
				continue // withdrawn, or the AM ask the submission makes
			}
			if k.Label != "" {
				labelled++
			}
			relax := k.RelaxLocality
			loc := k.Locality
			if i, ok := b.byHost[loc]; ok {
				loc = b.nodeList[i].Name // the RM asks by host name; nodes are named by id
			}
			ask := scenarios.Ask{App: a.ID, Priority: int(min(k.Priority, 1<<30)), Resource: k.Resource.spec(), Count: int(min(k.Count, scenarios.MaxAskedContainers)), Locality: loc}
			if !relax {
				ask.RelaxLocality = &relax
			}
			b.restore.Asks = append(b.restore.Asks, ask)
		}
	}
	b.maxAlloc()
	if noAsks > 0 {
		b.notes.add("", "%d applications come without resourceRequests (Hadoop before 2.8, or left out by the RM): they ask for nothing but their AM", noAsks)
	}
	if labelled > 0 {
		b.notes.add("", "%d asks name a node label; the import does not carry labels over yet, so they are asked in the default partition", labelled)
	}
	if reserved > 0 {
		b.notes.add("", "%d applications held reservations; reservations are not restored (an RM restart drops them too), the next heartbeats make them again", reserved)
	}
}

func (b *builder) amOf(app string) scenarios.Res { return b.amRes[app] }

// check plays the restore once and compares the usage it gives with the
// usage the snapshot reports, noting each difference.
func (b *builder) check(sc *scenarios.Scenario) (*scenarios.Player, error) {
	var p *scenarios.Player
	for try := 0; ; try++ {
		var err error
		p, err = scenarios.NewPlayer(sc)
		if err != nil {
			return nil, Problems{{File: b.configFile(), Msg: "the configuration is refused: " + err.Error()}}
		}
		p.SetNarrate(false)
		p.Scheduler().SetRecord(core.RecordNone) // the check reads the state, not the record
		res := p.Next()
		if res.Err == nil {
			break
		}
		if try >= maxProblems || !b.drop(res.Err.Error()) {
			return nil, Problems{{File: b.f.Apps.Name, Msg: "the snapshot cannot be restored: " + res.Err.Error()}}
		}
	}
	s := p.Scheduler()
	for _, q := range b.sn.Queues {
		if !q.Leaf {
			continue
		}
		v, err := s.Queue(q.Path)
		if err != nil {
			continue
		}
		got := Res{v.Used.MemoryMB, v.Used.VCores}
		if got != q.Used {
			b.notes.add("usage", "queue %s: the snapshot says %d MB, %d vcores used, the restored containers %d MB, %d vcores", q.Path, q.Used.MemoryMB, q.Used.VCores, got.MemoryMB, got.VCores)
		}
	}
	for _, q := range b.sn.Queues {
		if !q.Leaf || len(q.Users) == 0 {
			continue
		}
		v, err := s.Queue(q.Path)
		if err != nil {
			continue
		}
		got := map[string]Res{}
		for _, u := range v.Users {
			got[u.Name] = Res{u.Used.MemoryMB, u.Used.VCores}
		}
		for _, u := range q.Users {
			if g := got[u.Name]; g != u.Used {
				b.notes.add("user-usage", "user %s in %s: the snapshot says %d MB, %d vcores used, the restored containers %d MB, %d vcores", u.Name, q.Path, u.Used.MemoryMB, u.Used.VCores, g.MemoryMB, g.VCores)
			}
		}
	}
	for i, n := range b.sn.Nodes {
		j, ok := b.nodeIdx[n.ID]
		if !ok || j >= len(b.nodeList) {
			continue
		}
		v, ok := s.Node(n.ID)
		if !ok {
			continue
		}
		got := Res{v.Allocated.MemoryMB, v.Allocated.VCores}
		if got != n.Used {
			b.notes.add("node-usage", "node %s (nodes.node[%d]): the snapshot says %d MB, %d vcores used, the restored containers %d MB, %d vcores", n.ID, i, n.Used.MemoryMB, n.Used.VCores, got.MemoryMB, got.VCores)
		}
	}
	return p, nil
}

// drop leaves out the app or container a failed restore names (a
// submission Hadoop refuses: maximum applications, a stopped queue, an
// ACL), noting why; false when the error names neither.
func (b *builder) drop(msg string) bool {
	list, index, why, ok := refusedRestore(msg)
	if !ok {
		return false
	}
	i, _ := strconv.Atoi(index)
	r := &b.restore
	if list == "containers" {
		if i >= len(r.Containers) {
			return false
		}
		c := r.Containers[i]
		b.notes.add("refused", "a container of %s on %s is left out: %s", c.App, c.Node, why)
		r.Containers = append(r.Containers[:i], r.Containers[i+1:]...)
		return true
	}
	if i >= len(r.Apps) {
		return false
	}
	id := r.Apps[i].App
	b.notes.add("refused", "application %s is left out: %s", id, why)
	r.Apps = append(r.Apps[:i], r.Apps[i+1:]...)
	cs := r.Containers[:0]
	for _, c := range r.Containers {
		if c.App != id {
			cs = append(cs, c)
		}
	}
	r.Containers = cs
	as := r.Asks[:0]
	for _, k := range r.Asks {
		if k.App != id {
			as = append(as, k)
		}
	}
	r.Asks = as
	return true
}

func (b *builder) configFile() string {
	if b.f.Conf != nil {
		return b.f.Conf.Name
	}
	return fmt.Sprint(b.f.Scheduler.Name)
}

// maxAlloc raises the maximum allocation to the largest container, AM or
// ask of the snapshot when the configuration does not set it, since the
// cluster did allocate or accept them.
func (b *builder) maxAlloc() {
	var big Res
	grow := func(r scenarios.Res) {
		big = Res{max(big.MemoryMB, r.MemoryMB), max(big.VCores, r.VCores)}
	}
	for _, c := range b.restore.Containers {
		grow(c.Resource)
	}
	for _, a := range b.restore.Apps {
		if a.AM != nil {
			grow(*a.AM)
		}
	}
	for _, k := range b.restore.Asks {
		grow(k.Resource)
	}
	set := func(key string, def, need int64) {
		if _, given := b.cfg[key]; given || need <= def {
			return
		}
		b.cfg[key] = strconv.FormatInt(need, 10)
		b.notes.add("", "%s is set to %d, the largest container or ask of the snapshot (Hadoop's default %d would refuse it)", key, need, def)
	}
	set("yarn.scheduler.maximum-allocation-mb", defaultMaxMB, big.MemoryMB)
	set("yarn.scheduler.maximum-allocation-vcores", defaultMaxVCores, big.VCores)
}
