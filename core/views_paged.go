package core

import "yarnplay/core/resource"

// ContainerBrief is a container's view without strings or pointers, for
// views of hundreds of thousands of containers that the garbage collector
// need not scan: App is the index of its application in Apps, whose view
// names the application, its user and its queue. View expands it.
type ContainerBrief struct {
	ID                 int64
	StartTick, EndTick int64
	Size               resource.Resource
	Priority           int
	App                int32
	locality           nodeType
	IsAM, Reserved     bool
}

// Locality is the container's locality.
func (c ContainerBrief) Locality() Locality { return c.locality.Locality() }

// WithLocality returns the brief with locality l (one of NodeLocal,
// RackLocal, OffSwitch, or ""): how a brief read back from the page's
// protocol gets its locality.
func (c ContainerBrief) WithLocality(l Locality) ContainerBrief {
	c.locality = ntNone
	for i, name := range localities {
		if name == l {
			c.locality = nodeType(i)
		}
	}
	return c
}

// View expands the brief into the container's view: app is the view of
// its application (Apps()[c.App]) and node the name of its node.
func (c ContainerBrief) View(app *AppView, node string) ContainerView {
	return ContainerView{
		ID: c.ID, App: app.ID, Queue: app.Queue, User: app.User, Node: node,
		Size: c.Size, Priority: c.Priority, IsAM: c.IsAM, Locality: c.Locality(),
		StartTick: c.StartTick, EndTick: c.EndTick, Reserved: c.Reserved,
	}
}

func containerBrief(c *container) ContainerBrief {
	b := ContainerBrief{
		ID: c.id, StartTick: c.start, EndTick: c.end, Size: c.size, Priority: c.priority,
		App: int32(c.app.idx), IsAM: c.isAM, Reserved: c.reserved,
	}
	b.locality = c.locality
	return b
}

// NumContainers is the number of containers the nodes run (reservations
// not included): how many AppendNodesBrief appends for every node.
func (s *Scheduler) NumContainers() int {
	n := 0
	for _, nd := range s.nodes {
		n += len(nd.containers)
	}
	return n
}

// AppendNodesBrief appends the views of the nodes i to j-1, in Nodes'
// order, to dst, without the nodes' containers (NodeView.Containers is
// nil; the reservation is kept), which it appends
// in brief to cs instead, node after node, each node's in its order: ten
// thousand nodes running hundreds of thousands of containers cost far
// less to view that way.
func (s *Scheduler) AppendNodesBrief(dst []NodeView, cs []ContainerBrief, i, j int) ([]NodeView, []ContainerBrief) {
	for _, n := range s.nodes[i:j] {
		dst = append(dst, nodeViewBrief(n))
		for _, c := range n.containers {
			cs = append(cs, containerBrief(c))
		}
	}
	return dst, cs
}
