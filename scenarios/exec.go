package scenarios

import (
	"fmt"
	"strings"

	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/core/preemption"
	"yarnplay/core/resource"
)

// exec plays one step that is not an expectation.
func (p *Player) exec(st *Step) error {
	s := p.s
	switch st.Kind() {
	case KindSubmit:
		return s.Submit(submission(st.Submit))
	case KindRequest:
		asks := make([]core.Ask, len(st.Request))
		for i, a := range st.Request {
			asks[i] = core.Ask{
				App: a.App, Priority: a.Priority, Count: a.Count,
				Resource:      resource.New(a.Resource.MemoryMB, a.Resource.VCores),
				Locality:      orDefault(a.Locality, core.AnyLocation),
				RelaxLocality: a.RelaxLocality, Duration: a.Duration, Label: a.Label,
			}
		}
		return s.Request(asks)
	case KindHeartbeat:
		for _, h := range st.Heartbeat {
			for range max(h.Times, 1) {
				if err := s.Heartbeat(h.Node); err != nil {
					return err
				}
			}
		}
	case KindTick:
		for range *st.Tick {
			s.Tick()
		}
	case KindFinishContainer:
		fc := st.FinishContainer
		return s.FinishContainers(fc.App, fc.Count, fc.Node)
	case KindFinishApp:
		return s.FinishApp(st.FinishApp)
	case KindKillApp:
		return s.KillApp(st.KillApp.App, st.KillApp.By)
	case KindRefresh:
		return s.Refresh(refreshedConf(s.Conf(), st.Refresh))
	case KindAddNode:
		return s.AddNodes(nodeSpecs(*st.AddNode))
	case KindRemoveNode:
		for _, name := range ExpandNames(st.RemoveNode.Name, st.RemoveNode.Count) {
			if err := s.RemoveNode(name); err != nil {
				return err
			}
		}
	case KindPreemptionSnapshot:
		return p.preemptionSnapshot(st.PreemptionSnapshot)
	case KindPreemptionRound:
		return p.preemptionRound(st.PreemptionRound.NowMS)
	case KindRestore:
		return p.restore(st.Restore)
	default:
		return fmt.Errorf("unknown step kind %q", st.Kind())
	}
	return nil
}

// submission converts a submit step.
func submission(sub *Submit) core.Submission {
	out := core.Submission{App: sub.App, User: sub.User, Queue: sub.Queue, Priority: sub.Priority, Label: sub.Label, AMLabel: sub.AMLabel}
	if sub.AM != nil {
		am := resource.New(sub.AM.MemoryMB, sub.AM.VCores)
		out.AM = &am
		out.AMContainerRequest = sub.AMContainerRequest == nil || *sub.AMContainerRequest
	}
	return out
}

// refreshedConf applies a refresh step to the configuration in force:
// replace_config first (a whole new configuration), then set, then unset.
func refreshedConf(cur *config.Conf, ref *Refresh) *config.Conf {
	c := cur
	if ref.ReplaceConfig != nil {
		c = config.FromMap(ref.ReplaceConfig)
	}
	for _, k := range sortedKeys(ref.Set) {
		c.Set(k, ref.Set[k])
	}
	for _, k := range ref.Unset {
		c.Unset(k)
	}
	return c
}

func (p *Player) preemptionSnapshot(m map[string]any) error {
	spec, err := snapshotSpec(m)
	if err != nil {
		return err
	}
	snap, err := preemption.FromSpec(spec)
	if err != nil {
		return err
	}
	p.snap, p.pstate, p.lastDecision = snap, preemption.NewState(), nil
	p.totals = map[string]*[2]int{}
	return nil
}

func (p *Player) preemptionRound(nowMS int64) error {
	if p.snap == nil {
		return fmt.Errorf("no preemption snapshot: a preemption_round needs a preemption_snapshot step before it")
	}
	set := preemptionSettings(p.s.Settings().Preemption)
	d := preemption.Round(p.snap, p.pstate, set, nowMS)
	if d.Error != "" {
		return fmt.Errorf("preemption round: %s", d.Error)
	}
	p.lastDecision = &d
	for _, sel := range d.Marked {
		p.total(sel.Queue)[0]++
	}
	for _, sel := range d.Killed {
		p.total(sel.Queue)[1]++
	}
	return nil
}

func (p *Player) total(queue string) *[2]int {
	t := p.totals[queue]
	if t == nil {
		t = &[2]int{}
		p.totals[queue] = t
	}
	return t
}

// preemptionSettings converts the configuration's preemption settings to
// the policy's (the two types have the same fields).
func preemptionSettings(p config.PreemptionSettings) preemption.Settings {
	return preemption.Settings{
		Enabled:                  p.Enabled,
		ObserveOnly:              p.ObserveOnly,
		MonitoringIntervalMS:     p.MonitoringIntervalMS,
		MaxWaitBeforeKillMS:      p.MaxWaitBeforeKillMS,
		TotalPreemptionPerRound:  p.TotalPreemptionPerRound,
		MaxIgnoredOverCapacity:   p.MaxIgnoredOverCapacity,
		NaturalTerminationFactor: p.NaturalTerminationFactor,
	}
}

// preemptionQueue finds the queue of the snapshot a name means: its full
// path or an unambiguous last part.
func (p *Player) preemptionQueue(name string) string {
	if p.snap == nil {
		return name
	}
	var paths []string
	var walk func(q *preemption.Queue)
	walk = func(q *preemption.Queue) {
		paths = append(paths, q.Path)
		for _, c := range q.Children {
			walk(c)
		}
	}
	walk(p.snap.Root)
	found := ""
	for _, path := range paths {
		if path == name {
			return path
		}
		if strings.HasSuffix(path, "."+name) {
			if found != "" {
				return name
			}
			found = path
		}
	}
	return orDefault(found, name)
}
