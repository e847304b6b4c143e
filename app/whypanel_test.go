package app

import (
	"regexp"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/require"

	"yarnplay/core"
	"yarnplay/core/resource"
	"yarnplay/scenarios/why"
)

// The answer lists the scheduler's checks in order: those before the one
// that stops the app passed, that one is named with its numbers, the rest
// are not reached.
func TestWhyAnswerNamesTheCheckThatStops(t *testing.T) {
	v := why.Verdict{App: "app_2", Queue: "root.a", User: "bob", State: core.AppRunning, Rule: why.UserLimit,
		Used: resource.New(18432, 18), Limit: resource.New(17408, 1), Need: resource.New(1024, 1),
		Sentence: "app_2 waits for bob's user limit in root.a"}
	html := app.HTMLString(whyAnswerView(whyAnswer{App: "app_2", Step: 14, V: &v}))
	class := func(rule why.Rule) string {
		m := regexp.MustCompile(`<li data-rule="` + string(rule) + `" class="([a-z-]+)"|<li class="([a-z-]+)" data-rule="` + string(rule) + `"`).FindStringSubmatch(html)
		require.NotNil(t, m, "no check %s in %s", rule, html)
		return m[1] + m[2]
	}
	for _, r := range []why.Rule{why.MaxParallelApps, why.AMLimit, why.UserAMLimit, why.ParentMaxCapacity, why.QueueMaxCapacity} {
		require.Equal(t, "passed", class(r), r)
	}
	require.Equal(t, "stopped", class(why.UserLimit))
	for _, r := range []why.Rule{why.LocalityDelay, why.Reserved, why.NoNodeFits} {
		require.Equal(t, "not-reached", class(r), r)
	}
	require.Contains(t, html, "<strong>user-limit</strong>")
	require.Contains(t, html, "app_2 waits for bob&#39;s user limit in root.a.")
	require.Contains(t, html, "(18 GB of 17 GB; it asks for 1 GB); memory only")
	dominant := app.HTMLString(whyAnswerView(whyAnswer{App: "app_2", Step: 14, V: &v, Dominant: true}))
	require.Contains(t, dominant, "(18 GB, 18 vcores of 17 GB, 1 vcore; it asks for 1 GB, 1 vcore)")

	none := app.HTMLString(whyAnswerView(whyAnswer{App: "app_9", Step: 3}))
	require.Contains(t, none, "app_9 does not wait at step 3")
	require.Contains(t, app.HTMLString(whyAnswerView(whyAnswer{})), "Choose an application")
}
