package app

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestUserLimitFormulaWithTodaysNumbers(t *testing.T) {
	f := fixtureFrame(t, 10, "root.eng.dev", "alice")
	ul := f.UserLimit
	require.NotNil(t, ul)
	dev := queueOf(t, &f, "root.eng.dev")
	lines := userLimitLines(ul, dev.EffectiveMin, frameCalc(&f))
	byName := map[string]formulaLine{}
	for _, l := range lines {
		byName[l.Name] = l
	}
	require.Equal(t, resText(ul.Limit), byName["User Limit Resource"].Result, "the result is core's")
	require.Equal(t, resText(dev.UserLimit), byName["User Limit Resource"].Result, "as the queue reports it")
	require.Equal(t, resText(ul.MaxUserLimit), byName["user-limit-factor ceiling"].Result)
	require.Equal(t, "user-limit-factor ceiling = queue capacity "+resText(ul.QueueCapacity)+" × Configured User Limit Factor 2 = "+resText(ul.MaxUserLimit),
		byName["user-limit-factor ceiling"].Text())
	require.Equal(t, "by minimum user limit = ⌈current capacity "+resText(ul.CurrentCapacity)+" × Configured Minimum User Limit Percent 50 ÷ 100⌉ = "+resText(ul.ByPercent),
		byName["by minimum user limit"].Text())
	require.Contains(t, byName["queue capacity"].Text(), "Effective Capacity "+resText(dev.EffectiveMin))
	require.Contains(t, byName["current capacity"].Text(), "consumed + minimum allocation, as consumed ≥ queue capacity",
		"dev uses more than its guarantee")
}

func TestAMLimitFormulaWithTodaysNumbers(t *testing.T) {
	f := fixtureFrame(t, 10, "root.eng.dev", "")
	am := f.AMLimit
	require.NotNil(t, am)
	lines := amLimitLines(am)
	require.Equal(t, "Max Application Master Resources = queue usable "+resText(am.Usable)+" × maximum-am-resource-percent 0.05, rounded up = "+resText(am.AMLimit),
		lines[1].Text())
	require.Equal(t, resText(am.UserAMLimit), lines[3].Result)
	require.Equal(t, "Max Application Master Resources Per User", lines[3].Name)
	require.Equal(t, resText(am.AMUsed), lines[4].Result)
	require.Equal(t, "1", lines[2].Result, "max(50 ÷ 100, 1 ÷ 1 active user)")
}

func TestFormulaPanelRender(t *testing.T) {
	f := fixtureFrame(t, 10, "root.eng.dev", "alice")
	html := renderHTML(t, &FormulaPanel{Frame: f})
	has(t, html, `data-queue="root.eng.dev"`,
		"Configured Minimum User Limit Percent", "Configured User Limit Factor",
		"Max Application Master Resources", "Max Application Master Resources Per User",
		"User Limit Resource", "User Limit Resource of alice", "section 6.3", "section 6.5")
	require.Equal(t, 2, strings.Count(html, `data-formula=`))

	idle := renderHTML(t, &FormulaPanel{Frame: fixtureFrame(t, 10, "root.eng", "")})
	has(t, idle, "Select a leaf queue")
}
