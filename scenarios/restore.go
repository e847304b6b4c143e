package scenarios

import (
	"fmt"

	"yarnplay/core"
	"yarnplay/core/resource"
	"yarnplay/internal/noeq"
)

// Restore is a `restore` step: the state of a running cluster taken over
// at once, as a ResourceManager that restarts recovers it (an imported
// snapshot's first step). Apps are submitted in the order listed, those
// holding containers first; each container is then placed on its node
// without any scheduling check (core.RecoverContainer); an app whose AM
// container is restored runs even above its AM limits. The apps with no
// container are submitted next (their AM is asked for as usual, and they
// wait for the AM limits as usual), every app (submitted without the ACL
// check, as the RM recovers apps) takes back its place in the
// order listed (its submission order), then the asks are made as one
// allocate call.
type Restore struct {
	Apps       []Submit            `json:"apps,omitempty"`
	Containers []RestoredContainer `json:"containers,omitempty"`
	Asks       Asks                `json:"asks,omitempty"`
}

// RestoredContainer is a running container of a restore step.
type RestoredContainer struct {
	_        noeq.T
	App      string `json:"app"`
	Node     string `json:"node"`
	Resource Res    `json:"resource"`
	Priority int    `json:"priority"`
	// AM marks the app's AM container (at most one per app).
	AM bool `json:"am,omitempty"`
}

var (
	restoreKeys   = []string{"apps", "containers", "asks"}
	containerKeys = []string{"app", "node", "resource", "priority", "am"}
)

func (d *decoder) restore(v *value, path string) (*Restore, error) {
	fs, err := d.fields(v, path, restoreKeys)
	if err != nil {
		return nil, err
	}
	r := &Restore{}
	for _, f := range fs {
		p := d.sub(path, f.key)
		switch f.key {
		case "apps":
			err = d.list(f.val, p, func(it *value, ip string) error {
				s, err := d.submit(it, ip)
				if err == nil {
					r.Apps = append(r.Apps, *s)
				}
				return err
			})
		case "containers":
			err = d.list(f.val, p, func(it *value, ip string) error {
				c, err := d.restoredContainer(it, ip)
				if err == nil {
					r.Containers = append(r.Containers, c)
				}
				return err
			})
		case "asks":
			if f.val.kind == vSeq && len(f.val.content) == 0 {
				continue
			}
			r.Asks, err = d.request(f.val, p)
		}
		if err != nil {
			return nil, err
		}
	}
	return r, nil
}

// list calls each for every item of a list (null is an empty list).
func (d *decoder) list(v *value, path string, each func(*value, string) error) error {
	if v.kind == vNull {
		return nil
	}
	if v.kind != vSeq {
		return d.errAt(v, path, "must be a list, not %s", v.describe())
	}
	for i, it := range v.content {
		if err := each(it, d.index(path, i)); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) restoredContainer(v *value, path string) (RestoredContainer, error) {
	var c RestoredContainer
	fs, err := d.fields(v, path, containerKeys)
	if err != nil {
		return c, err
	}
	if err := d.require(v, path, fs, "app", "node", "resource"); err != nil {
		return c, err
	}
	for _, f := range fs {
		p := d.sub(path, f.key)
		switch f.key {
		case "app":
			c.App, err = d.str(f.val, p)
		case "node":
			c.Node, err = d.str(f.val, p)
		case "resource":
			c.Resource, err = d.res(f.val, p)
		case "priority":
			c.Priority, err = d.intIn(f.val, p, 0)
		case "am":
			c.AM, err = d.boolean(f.val, p)
		}
		if err != nil {
			return c, err
		}
	}
	return c, nil
}

// restore plays a restore step (see Restore).
func (p *Player) restore(r *Restore) error {
	s := p.s
	holds := map[string]bool{}
	for _, c := range r.Containers {
		holds[c.App] = true
	}
	submit := func(first bool) error {
		for i := range r.Apps {
			a := &r.Apps[i]
			if holds[a.App] != first {
				continue
			}
			sub := submission(a)
			if first {
				sub.AMContainerRequest = false // its AM runs: restored below
			}
			if err := s.SubmitRecovered(sub); err != nil {
				return fmt.Errorf("restore: apps[%d]: %w", i, err)
			}
		}
		return nil
	}
	if err := submit(true); err != nil {
		return err
	}
	// AM containers first, so that an app runs before its other containers.
	for _, am := range []bool{true, false} {
		for i, c := range r.Containers {
			if c.AM != am {
				continue
			}
			err := s.RecoverContainer(core.Recovered{
				App: c.App, Node: c.Node, Priority: c.Priority, IsAM: c.AM,
				Size: resource.New(c.Resource.MemoryMB, c.Resource.VCores),
			})
			if err != nil {
				return fmt.Errorf("restore: containers[%d]: %w", i, err)
			}
		}
	}
	if err := submit(false); err != nil {
		return err
	}
	ids := make([]string, len(r.Apps))
	for i := range r.Apps {
		ids[i] = r.Apps[i].App
	}
	if err := s.Resequence(ids); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	if len(r.Asks) == 0 {
		return nil
	}
	if err := p.exec(&Step{Request: r.Asks}); err != nil {
		return fmt.Errorf("restore: asks: %w", err)
	}
	return nil
}

// restore checks a restore step: apps submitted once, containers and asks
// of apps it submits (or earlier steps did), on nodes present.
func (v *validator) restore(r *Restore, p string, line, i int, mayFail bool) {
	for j := range r.Apps {
		v.submit(&r.Apps[j], v.index(p+".apps", j), line, i, mayFail)
	}
	ams := map[string]bool{}
	for j, c := range r.Containers {
		cp := v.index(p+".containers", j)
		v.app(c.App, cp+".app", line, mayFail)
		v.node(c.Node, cp+".node", line, mayFail, v.nodes)
		if c.Resource.MemoryMB < 0 || c.Resource.VCores < 0 || c.Priority < 0 {
			v.add(cp, line, "resource and priority must not be negative")
		}
		if c.AM && ams[c.App] {
			v.add(cp+".am", line, "app %q has two AM containers", c.App)
		}
		ams[c.App] = ams[c.App] || c.AM
	}
	for j, a := range r.Asks {
		ap := v.index(p+".asks", j)
		v.app(a.App, ap+".app", line, mayFail)
		if a.Priority < 0 || a.Count < 0 || a.Duration < 0 || a.Resource.MemoryMB < 0 || a.Resource.VCores < 0 {
			v.add(ap, line, "priority, count, duration and resource must not be negative")
		}
		v.countAsked(int64(a.Count), ap, line)
	}
}
