package app

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/core"
	"yarnplay/core/resource"
)

// FormulaPanel shows, for the selected leaf and user, Hadoop's user-limit
// formula (docs/semantics.md, section 6.3) and AM-limit formula (section
// 6.5) with each term replaced by today's number, and the result,
// under the labels the ResourceManager UI uses.
type FormulaPanel struct {
	app.Compo

	// Frame is the step to show; its UserLimit and AMLimit are drawn.
	Frame store.Frame
	// Partition names the node label whose formulas Frame holds
	// (store.InPartition), "" for the default partition.
	Partition string
}

// fTerm is one named number of a formula.
type fTerm struct {
	// Label is what the term is called (the RM UI's label when it has one).
	Label string
	// Value is its value today.
	Value string
}

// formulaLine is one step of a formula: Name = Expr = Result. Expr mixes
// words (Text) and terms; a part with an empty Label is plain text.
type formulaLine struct {
	Name   string
	Expr   []fTerm
	Result string
	// Key marks the lines whose result the RM UI shows.
	Key bool
	// Why, when set, says in view why the result is not what a reader of
	// the chapter would expect.
	Why string
}

// Text is the line as plain text: "Name = expr = result".
func (l formulaLine) Text() string {
	var b strings.Builder
	b.WriteString(l.Name + " = ")
	for _, t := range l.Expr {
		if t.Label == "" {
			b.WriteString(t.Value)
			continue
		}
		b.WriteString(t.Label + " " + t.Value)
	}
	b.WriteString(" = " + l.Result)
	return b.String()
}

// opText is a plain part of a formula: words or an operator.
func opText(s string) fTerm { return fTerm{Value: s} }

// cfgFloat formats a configured float as Hadoop's configuration holds it.
func cfgFloat(v float32) string { return strconv.FormatFloat(float64(v), 'f', -1, 32) }

// userLimitLines is section 6.3's computation with t's numbers;
// guaranteed is the leaf's Effective Capacity (the terms keep only the
// max it entered) and rc the frame's calculator.
func userLimitLines(t *core.UserLimitTerms, guaranteed resource.Resource, rc resource.Calculator) []formulaLine {
	cur := "queue capacity, as consumed < queue capacity"
	if !rc.LessThan(t.Partition, t.Consumed, t.QueueCapacity) {
		cur = "consumed + minimum allocation, as consumed ≥ queue capacity"
	}
	byUsersWhy := ""
	if t.ActiveWeights == 0 {
		byUsersWhy = "no active users (none has pending requests): Hadoop's divideAndCeil by 0 gives 0, so the minimum user limit term decides."
	}
	limitWhy := ""
	if rc == resource.Default {
		limitWhy = "memory only: the DefaultResourceCalculator compares memory, so the vcores here never limit a user."
	}
	return []formulaLine{
		{Name: "queue capacity", Expr: []fTerm{opText("max("), {"Effective Capacity", resText(guaranteed)}, opText(", "), {"minimum allocation", resText(t.Required)}, opText(")")}, Result: resText(t.QueueCapacity)},
		{Name: "consumed", Expr: []fTerm{opText("Σ users' used ÷ cluster × "), {"cluster", resText(t.Partition)}, opText(", rounded up")}, Result: resText(t.Consumed)},
		{Name: "current capacity", Expr: []fTerm{opText(cur)}, Result: resText(t.CurrentCapacity)},
		{Name: "by active users", Expr: []fTerm{opText("⌈("), {"Used Resource of active users", resText(t.ActiveUsed)}, opText(" + "), {"minimum allocation", resText(t.Required)}, opText(") ÷ "), {"active users' weights", cfgFloat(t.ActiveWeights)}, opText("⌉")}, Result: resText(t.ByUsers), Why: byUsersWhy},
		{Name: "by minimum user limit", Expr: []fTerm{opText("⌈"), {"current capacity", resText(t.CurrentCapacity)}, opText(" × "), {"Configured Minimum User Limit Percent", cfgFloat(t.MinUserLimitPct)}, opText(" ÷ 100⌉")}, Result: resText(t.ByPercent)},
		{Name: "user-limit-factor ceiling", Expr: []fTerm{{"queue capacity", resText(t.QueueCapacity)}, opText(" × "), {"Configured User Limit Factor", cfgFloat(t.UserLimitFactor)}}, Result: resText(t.MaxUserLimit)},
		{Name: "User Limit Resource", Key: true, Expr: []fTerm{opText("roundUp(min(max("), {"by active users", resText(t.ByUsers)}, opText(", "), {"by minimum user limit", resText(t.ByPercent)}, opText("), "), {"ceiling", resText(t.MaxUserLimit)}, opText("), "), {"minimum allocation", resText(t.Required)}, opText(")")}, Result: resText(t.Limit), Why: limitWhy},
	}
}

// userShareLine is one user's share of the limit: the limit times the
// user's weight, rounded down to the minimum allocation (core's number).
func userShareLine(u *core.UserView, limit resource.Resource) formulaLine {
	return formulaLine{Name: "User Limit Resource of " + u.Name, Key: true,
		Expr:   []fTerm{{"User Limit Resource", resText(limit)}, opText(" × "), {"weight", cfgFloat(u.Weight)}, opText(", rounded down")},
		Result: resText(u.UserLimit)}
}

// amLimitLines is section 6.5's computation with t's numbers (core
// computes the per-user AM limit for a user of weight 1).
func amLimitLines(t *core.AMLimitTerms) []formulaLine {
	eff := max(t.MinUserLimit/100, 1/float32(max(t.ActiveUsers, 1)))
	usableWhy := "the guarantee, as the current limit is no larger."
	if t.Usable != t.Guaranteed {
		usableWhy = "the current limit (what the queue may grow to now, up to its max capacity): Hadoop takes the larger, so while others are idle the AM limit exceeds the AM percent of the guarantee."
	}
	return []formulaLine{
		{Name: "queue usable", Expr: []fTerm{opText("max("), {"current limit", resText(t.CurrentLimit)}, opText(", "), {"Effective Capacity", resText(t.Guaranteed)}, opText(")")}, Result: resText(t.Usable), Why: usableWhy},
		{Name: "Max Application Master Resources", Key: true, Expr: []fTerm{{"queue usable", resText(t.Usable)}, opText(" × "), {"maximum-am-resource-percent", cfgFloat(t.MaxAMPercent)}, opText(", rounded up")}, Result: resText(t.AMLimit)},
		{Name: "effective user limit", Expr: []fTerm{opText("max("), {"Configured Minimum User Limit Percent", cfgFloat(t.MinUserLimit)}, opText(" ÷ 100, 1 ÷ "), {"active users", strconv.Itoa(t.ActiveUsers)}, opText(")")}, Result: cfgFloat(eff)},
		{Name: "Max Application Master Resources Per User", Key: true, Expr: []fTerm{opText("min("), {"Effective Capacity", resText(t.Guaranteed)}, opText(" × "), {"maximum-am-resource-percent", cfgFloat(t.MaxAMPercent)}, opText(" × "), {"effective user limit", cfgFloat(eff)}, opText(" × "), {"Configured User Limit Factor", cfgFloat(t.UserLimitFact)}, opText(" rounded up, "), {"Max Application Master Resources", resText(t.AMLimit)}, opText(")")}, Result: resText(t.UserAMLimit)},
		{Name: "Used Application Master Resources", Expr: []fTerm{opText("the AMs of the queue's active apps")}, Result: resText(t.AMUsed)},
	}
}

// Render draws both formulas, or says what to select.
func (c *FormulaPanel) Render() app.UI {
	f := &c.Frame
	var q *core.QueueView
	for i := range f.Queues {
		if f.Queues[i].Path == f.Selected {
			q = &f.Queues[i]
		}
	}
	if q == nil || !q.Leaf || (f.UserLimit == nil && f.AMLimit == nil) {
		return app.Section().Class("formulas").Aria("label", "Formulas").Body(
			app.P().Class("muted").Text("Select a leaf queue to see its user limit and AM limit computed with today's numbers."),
		)
	}
	var ul, am []formulaLine
	if f.UserLimit != nil {
		ul = userLimitLines(f.UserLimit, q.EffectiveMin, frameCalc(f))
		for i := range q.Users {
			if u := &q.Users[i]; u.Name == f.SelectedUser && c.Partition == "" {
				ul = append(ul, userShareLine(u, f.UserLimit.Limit))
			}
		}
	}
	if f.AMLimit != nil {
		am = amLimitLines(f.AMLimit)
	}
	in, src := "", ""
	if c.Partition != "" {
		in, src = " in partition "+c.Partition, "; section 15.4, with the partition's resources"
	}
	return app.Section().Class("formulas").DataSet("queue", q.Path).DataSet("partition", c.Partition).Aria("label", "Formulas of "+q.Path+in).Body(
		app.If(len(ul) > 0, func() app.UI {
			return formulaBlock("User limit"+in, "section 6.3: UsersManager.computeUserLimit"+src, "ul", ul)
		}),
		app.If(len(am) > 0, func() app.UI {
			return formulaBlock("AM limits"+in, "section 6.5: LeafQueue.calculateAndGetAMResourceLimitPerPartition"+src, "am", am)
		}),
	)
}

// formulaBlock draws one formula: a line per step, each term's label over
// its value.
func formulaBlock(title, source, id string, lines []formulaLine) app.UI {
	return app.Div().Class("formula").DataSet("formula", id).Body(
		app.H3().Body(app.Text(title+" "), app.Span().Class("muted fl-src").Text(source)),
		app.Ol().Class("fl-lines").Body(
			app.Range(lines).Slice(func(i int) app.UI {
				l := lines[i]
				class := "fl-line"
				if l.Key {
					class += " key"
				}
				return app.Li().Class(class).DataSet("name", l.Name).Body(
					app.Span().Class("fl-name").Text(l.Name),
					app.Span().Class("fl-eq").Text(" = "),
					app.Span().Class("fl-expr").Body(
						app.Range(l.Expr).Slice(func(j int) app.UI {
							t := l.Expr[j]
							if t.Label == "" {
								return app.Span().Class("fl-op").Text(t.Value)
							}
							return app.Span().Class("fl-term").Body(
								app.Span().Class("fl-label").Text(t.Label),
								app.Span().Class("fl-value").Text(t.Value),
							)
						}),
					),
					app.Span().Class("fl-eq").Text(" = "),
					app.Strong().Class("fl-result").DataSet("field", "result").Text(l.Result),
					app.If(l.Why != "", func() app.UI { return app.Span().Class("why fl-why").Text(l.Why) }),
				)
			}),
		),
	)
}
