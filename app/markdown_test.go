package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/require"

	"yarnplay/scenarios"
	"yarnplay/scenarios/lessons"
)

// mdHTML renders src and joins the HTML's ASCII whitespace (the text's
// no-break spaces stay), as a line.
func mdHTML(src string) string {
	html := strings.Join(strings.FieldsFunc(app.HTMLString(Markdown(src)), func(r rune) bool {
		return r == ' ' || r == '\n' || r == '\t'
	}), " ")
	return strings.NewReplacer("> <", "><", " <", "<", "> ", ">").Replace(html)
}

func TestMarkdownTables(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		want      []string
		not       []string
	}{
		{
			name: "header and rows",
			src:  "| a | b |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |",
			want: []string{
				`<div class="md-table"><table><thead><tr><th>a</th><th>b</th></tr></thead>`,
				`<tbody><tr><td>1</td><td>2</td></tr><tr><td>3</td><td>4</td></tr></tbody></table></div>`,
			},
			not: []string{"|", "---"},
		},
		{
			name: "between paragraphs, indented as in YAML",
			src:  "Before\nthe table:\n\n  | q | cap |\n  |---|---|\n  | root.a | 60% |\n\nAfter.",
			want: []string{
				`<p>Before the table:</p><div class="md-table"><table>`,
				`<td>root.a</td><td>60%</td>`,
				`</table></div><p>After.</p>`,
			},
		},
		{
			name: "a table right after a paragraph line ends the paragraph",
			src:  "Shares:\n| a |\n|---|\n| 1 |",
			want: []string{`<p>Shares:</p><div class="md-table">`, `<th>a</th>`, `<td>1</td>`},
		},
		{
			name: "inline formatting and escaping in cells",
			src:  "| key (`x.y.`) | *default* |\n| --- | --- |\n| `a_b` | **1**: <b>all</b> |",
			want: []string{
				`<th>key (<code>x.y.</code>)</th><th><em>default</em></th>`,
				`<td><code>a_b</code></td><td><strong>1</strong>: &lt;b&gt;all&lt;/b&gt;</td>`,
			},
			not: []string{"<b>"},
		},
		{
			name: "alignment colons become classes",
			src:  "| l | c | r |\n| :--- | :---: | ---: |\n| 1 | 2 | 3 |",
			want: []string{
				`<th>l</th><th class="align-center">c</th><th class="align-right">r</th>`,
				`<td>1</td><td class="align-center">2</td><td class="align-right">3</td>`,
			},
		},
		{
			name: "short rows are padded, long rows cut to the header",
			src:  "| a | b |\n|---|---|\n| 1 |\n| 2 | 3 | 4 |",
			want: []string{`<tr><td>1</td><td></td></tr>`, `<tr><td>2</td><td>3</td></tr>`},
			not:  []string{"4"},
		},
		{
			name: "no-break spaces indent a cell",
			src:  "| queue |\n|---|\n| &nbsp;&nbsp;infinite-monkeys |",
			want: []string{"<td>\u00a0\u00a0infinite-monkeys</td>"},
			not:  []string{"nbsp"},
		},
		{
			name: "an escaped pipe stays in its cell; an unescaped one splits, in a code span too",
			src:  "| key | value |\n|---|---|\n| `a\\|b` | x \\| y |\n| `c|d` |",
			want: []string{`<td><code>a|b</code></td><td>x | y</td>`, "<td>`c</td><td>d`</td>"},
			not:  []string{`\`},
		},
		{
			name: "a pipe line without a separator row is text",
			src:  "| a | b |\n| 1 | 2 |",
			want: []string{`<p>| a | b | | 1 | 2 |</p>`},
			not:  []string{"<table"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			html := mdHTML(tt.src)
			for _, w := range tt.want {
				require.Contains(t, html, w)
			}
			for _, n := range tt.not {
				require.NotContains(t, html, n)
			}
		})
	}
}

func TestLessonTablesRender(t *testing.T) {
	tables := 0
	for _, l := range lessons.All() {
		sc, err := lessons.Load(l.Slug)
		require.NoError(t, err)
		for _, text := range append([]string{sc.Description}, notes(sc)...) {
			html := mdHTML(text)
			require.NotRegexp(t, `\|\s*:?-{3,}`, html, "%s: a separator row shown raw", l.Slug)
			if strings.Contains(text, "\n|") || strings.Contains(text, "| --- |") {
				require.Contains(t, html, "<table>", l.Slug)
				tables++
			}
		}
	}
	require.GreaterOrEqual(t, tables, 5, "the lessons with tables")
}

// notes are a scenario's step notes.
func notes(sc *scenarios.Scenario) []string {
	var out []string
	for _, st := range sc.Steps {
		if st.Note != "" {
			out = append(out, st.Note)
		}
	}
	return out
}

// FuzzMarkdown renders any text, as a shared scenario's description may
// hold: it never panics, and no tag of the text's own reaches the page.
func FuzzMarkdown(f *testing.F) {
	for _, l := range lessons.All() {
		if sc, err := lessons.Load(l.Slug); err == nil {
			f.Add(sc.Description)
		}
	}
	f.Add("| a | `b\\|c` |\n|---|:-:|\n| <i>x</i> | **y** |\n\n- one\n- *two*")
	f.Fuzz(func(t *testing.T, src string) {
		html := app.HTMLString(Markdown(src))
		require.NotContains(t, html, "<script")
		require.NotContains(t, html, "<i>")
	})
}

// A table past the limits renders within them: a header of many cells
// padded over many rows was a tiny text that froze the tab.
func TestMarkdownTableIsBounded(t *testing.T) {
	src := "|" + strings.Repeat("a|", 5000) + "\n|-|\n" + strings.Repeat("|\n", 5000)
	html := app.HTMLString(Markdown(src))
	require.Equal(t, scenarios.MaxTableColumns, strings.Count(html, "<th>")+strings.Count(html, "<th "))
	require.LessOrEqual(t, strings.Count(html, "<td"), scenarios.MaxTableCells)
	require.Positive(t, strings.Count(html, "<td"))
}
