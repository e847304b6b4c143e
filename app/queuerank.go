package app

import (
	"strconv"
	"strings"

	"yarnplay/app/store"
	"yarnplay/core"
)

// childRank is a queue's place in the order its parent walked its
// children in the step's last visit of that parent (core's child_order
// record): Rank from 1 of Of, Tie when it shares its used capacity with
// the sibling before it (the tie-break, larger absolute capacity first
// then the configured order, placed it).
type childRank struct {
	Rank, Of int
	Tie      bool
	Parent   string
}

// childRanks reads the ranks of the frame's step, by queue path; nil when
// the step walked no parent.
func childRanks(f *store.Frame) map[string]childRank {
	var out map[string]childRank
	for _, e := range f.Events {
		if e.Kind != core.EvChildOrder || e.Detail == "" {
			continue
		}
		if out == nil {
			out = map[string]childRank{}
		}
		parts := strings.Split(e.Detail, ", ")
		prev := ""
		for i, p := range parts {
			at := strings.LastIndexByte(p, '=')
			if at < 0 {
				continue
			}
			path, used := p[:at], p[at+1:]
			out[path] = childRank{Rank: i + 1, Of: len(parts), Tie: i > 0 && used == prev, Parent: e.Queue}
			prev = used
		}
	}
	return out
}

// rankText is the rank as the row says it: "1st of 3 in root's order".
func rankText(r childRank) string {
	s := ordinal(r.Rank) + " of " + strconv.Itoa(r.Of) + " in " + shortName(r.Parent) + "'s order"
	if r.Tie {
		s += " (tie: larger capacity first)"
	}
	return s
}

// ordinal is 1st, 2nd, 3rd, 4th…
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}

// shortName is a queue path's last part.
func shortName(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[i+1:]
	}
	return path
}
