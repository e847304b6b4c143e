package protocol

import (
	"encoding/json"
	"fmt"

	"yarnplay/app/store"
	"yarnplay/core/resource"
)

// extras are the frame's fields that the frame encoding (frame.go) does
// not carry yet: those main's views gained after it was written (the
// queue's Hadoop-ordered children, absolute and configured resources,
// max-parallel-apps and its counts, priority and ordering policy, the
// user's AM limit, the app's ticks and runnability, and a snapshot's
// assumptions). They travel beside the frame, as JSON, one entry per
// queue and app in the frame's order, until the frame encoding carries
// them; then this file goes.
type extras struct {
	Assumptions []string     `json:"assumptions,omitempty"`
	Queues      []queueExtra `json:"queues,omitempty"`
	Apps        []appExtra   `json:"apps,omitempty"`
}

type queueExtra struct {
	ChildList                    []string            `json:"childList,omitempty"`
	Absolute                     bool                `json:"absolute,omitempty"`
	ConfiguredMin, ConfiguredMax resource.Resource   `json:",omitzero"`
	NumNonRunnableApps           int                 `json:"nonRunnable,omitempty"`
	NumRunnableApps              int                 `json:"runnable,omitempty"`
	MaxParallelApps              int                 `json:"maxParallel,omitempty"`
	Priority                     int                 `json:"priority,omitempty"`
	OrderingPolicy               string              `json:"ordering,omitempty"`
	NonRunnableApps              []string            `json:"nonRunnableApps,omitempty"`
	UserAMLimits                 []resource.Resource `json:"userAMLimits,omitempty"`
}

type appExtra struct {
	NotRunnable           bool  `json:"notRunnable,omitempty"`
	StartTick, FinishTick int64 `json:",omitempty"`
}

// extrasOf are f's extras, as JSON.
func extrasOf(f *store.Frame) []byte {
	x := extras{Assumptions: f.Assumptions, Queues: make([]queueExtra, len(f.Queues)), Apps: make([]appExtra, len(f.Apps))}
	for i := range f.Queues {
		q := &f.Queues[i]
		e := queueExtra{ChildList: q.ChildList, Absolute: q.Absolute, ConfiguredMin: q.ConfiguredMin, ConfiguredMax: q.ConfiguredMax,
			NumNonRunnableApps: q.NumNonRunnableApps, NumRunnableApps: q.NumRunnableApps, MaxParallelApps: q.MaxParallelApps,
			Priority: q.Priority, OrderingPolicy: q.OrderingPolicy, NonRunnableApps: q.NonRunnableApps}
		for _, u := range q.Users {
			e.UserAMLimits = append(e.UserAMLimits, u.AMLimit)
		}
		x.Queues[i] = e
	}
	for i := range f.Apps {
		a := &f.Apps[i]
		x.Apps[i] = appExtra{NotRunnable: a.NotRunnable, StartTick: a.StartTick, FinishTick: a.FinishTick}
	}
	data, err := json.Marshal(x)
	if err != nil {
		panic(err) // plain strings, numbers and booleans always encode
	}
	return data
}

// setExtras puts the extras data says into f (the frame just read, whose
// queues and apps are its own).
func setExtras(f *store.Frame, data []byte) error {
	var x extras
	if err := json.Unmarshal(data, &x); err != nil {
		return err
	}
	if len(x.Queues) != len(f.Queues) || len(x.Apps) != len(f.Apps) {
		return fmt.Errorf("extras for %d queues and %d apps, in a frame of %d and %d", len(x.Queues), len(x.Apps), len(f.Queues), len(f.Apps))
	}
	f.Assumptions = x.Assumptions
	for i, e := range x.Queues {
		q := &f.Queues[i]
		if len(e.UserAMLimits) != len(q.Users) {
			return fmt.Errorf("extras for %d users in queue %s of %d", len(e.UserAMLimits), q.Path, len(q.Users))
		}
		q.ChildList, q.Absolute, q.ConfiguredMin, q.ConfiguredMax = e.ChildList, e.Absolute, e.ConfiguredMin, e.ConfiguredMax
		q.NumNonRunnableApps, q.NumRunnableApps, q.MaxParallelApps = e.NumNonRunnableApps, e.NumRunnableApps, e.MaxParallelApps
		q.Priority, q.OrderingPolicy, q.NonRunnableApps = e.Priority, e.OrderingPolicy, e.NonRunnableApps
		for j := range q.Users {
			q.Users[j].AMLimit = e.UserAMLimits[j]
		}
	}
	for i, e := range x.Apps {
		a := &f.Apps[i]
		a.NotRunnable, a.StartTick, a.FinishTick = e.NotRunnable, e.StartTick, e.FinishTick
	}
	return nil
}
