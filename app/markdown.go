package app

import (
	"strings"

	"yarnplay/scenarios"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Markdown renders the little markdown lesson descriptions use:
// paragraphs (blank-line separated), "- " or "* " lists, pipe tables (a
// header row, a separator row of dashes, whose colons align the columns,
// then the rows), **bold**, *emphasis* and `code`. Everything else is
// text: nothing is ever read as HTML (the entity &nbsp; and the four that
// escape HTML's own characters are read as the characters they name).
func Markdown(src string) app.UI {
	var blocks []app.UI
	var para, items []string
	flush := func() {
		if len(para) > 0 {
			blocks = append(blocks, app.P().Body(inline(strings.Join(para, " "))...))
			para = nil
		}
		if len(items) > 0 {
			list := items
			blocks = append(blocks, app.Ul().Body(app.Range(list).Slice(func(i int) app.UI {
				return app.Li().Body(inline(list[i])...)
			})))
			items = nil
		}
	}
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		t := strings.TrimSpace(line)
		switch {
		case t == "":
			flush()
		case strings.HasPrefix(t, "|") && i+1 < len(lines) && separatorRow(lines[i+1]):
			flush()
			n := i + 2
			for n < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[n]), "|") {
				n++
			}
			blocks = append(blocks, table(lines[i], lines[i+1], lines[i+2:n]))
			i = n - 1
		case strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* "):
			if len(para) > 0 {
				blocks = append(blocks, app.P().Body(inline(strings.Join(para, " "))...))
				para = nil
			}
			items = append(items, strings.TrimSpace(t[2:]))
		case len(items) > 0 && line != t:
			// An indented line continues the list item.
			items[len(items)-1] += " " + t
		default:
			if len(items) > 0 {
				flush()
			}
			para = append(para, t)
		}
	}
	flush()
	return app.Div().Class("markdown").Body(blocks...)
}

// cells splits a table row into its cells' text at its pipes. As in
// GitHub's tables, every pipe splits, in a code span too, but an escaped
// one, \|, which is a pipe in the cell.
func cells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	if strings.HasSuffix(row, "|") && !strings.HasSuffix(row, `\|`) {
		row = row[:len(row)-1]
	}
	var c []string
	start := 0
	for i := 0; i < len(row); i++ {
		if row[i] == '|' && (i == 0 || row[i-1] != '\\') {
			c = append(c, row[start:i])
			start = i + 1
		}
	}
	c = append(c, row[start:])
	for i := range c {
		c[i] = strings.TrimSpace(strings.ReplaceAll(c[i], `\|`, "|"))
	}
	return c
}

// separatorRow reports whether a line is a table's separator row:
// | --- | :---: | ---: |.
func separatorRow(line string) bool {
	if !strings.HasPrefix(strings.TrimSpace(line), "|") {
		return false
	}
	for _, c := range cells(line) {
		if strings.Trim(c, ":") == "" || strings.Trim(c, "-:") != "" || strings.Contains(strings.Trim(c, ":"), ":") {
			return false
		}
	}
	return true
}

// table renders a pipe table: its header row, its separator row (whose
// colons give each column's class, align-center or align-right) and its
// rows, cut or padded to the header's cells; a table past the scenarios'
// limits is cut to them.
func table(header, sep string, rows []string) app.UI {
	// Within the scenarios' limits whatever text gets here: at most
	// MaxTableColumns columns, and rows up to MaxTableCells cells.
	head := cells(header)
	head = head[:min(len(head), scenarios.MaxTableColumns)]
	rows = rows[:min(len(rows), scenarios.MaxTableCells/max(len(head), 1))]
	aligns := make([]string, len(head))
	for i, c := range cells(sep) {
		if i < len(aligns) {
			switch {
			case strings.HasPrefix(c, ":") && strings.HasSuffix(c, ":"):
				aligns[i] = "align-center"
			case strings.HasSuffix(c, ":"):
				aligns[i] = "align-right"
			}
		}
	}
	tr := func(cs []string, head bool) app.UI {
		out := make([]app.UI, len(aligns))
		for i := range out {
			text := ""
			if i < len(cs) {
				text = cs[i]
			}
			if head {
				out[i] = app.Th().Class(aligns[i]).Body(inline(text)...)
			} else {
				out[i] = app.Td().Class(aligns[i]).Body(inline(text)...)
			}
		}
		return app.Tr().Body(out...)
	}
	body := make([]app.UI, len(rows))
	for i, r := range rows {
		body[i] = tr(cells(r), false)
	}
	return app.Div().Class("md-table").Body(app.Table().Body(
		app.THead().Body(tr(head, true)),
		app.TBody().Body(body...),
	))
}

// entities are the character references text may use.
var entities = strings.NewReplacer("&nbsp;", "\u00a0", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&amp;", "&")

// inline renders **bold**, *emphasis* and `code` within a line.
func inline(s string) []app.UI {
	var out []app.UI
	var text strings.Builder
	emit := func() {
		if text.Len() > 0 {
			out = append(out, app.Text(entities.Replace(text.String())))
			text.Reset()
		}
	}
	for len(s) > 0 {
		switch {
		case strings.HasPrefix(s, "`"):
			if end := strings.Index(s[1:], "`"); end >= 0 {
				emit()
				out = append(out, app.Code().Text(s[1:1+end]))
				s = s[2+end:]
				continue
			}
		case strings.HasPrefix(s, "**"):
			if end := strings.Index(s[2:], "**"); end > 0 {
				emit()
				out = append(out, app.Strong().Body(inline(s[2:2+end])...))
				s = s[4+end:]
				continue
			}
		case strings.HasPrefix(s, "*") && len(s) > 1 && s[1] != ' ':
			if end := strings.Index(s[1:], "*"); end > 0 {
				emit()
				out = append(out, app.Em().Body(inline(s[1:1+end])...))
				s = s[2+end:]
				continue
			}
		}
		text.WriteByte(s[0])
		s = s[1:]
	}
	emit()
	return out
}
