package app

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Markdown renders the little markdown lesson descriptions use:
// paragraphs (blank-line separated), "- " or "* " lists, **bold**,
// *emphasis* and `code`. Everything else is text: nothing is ever read as
// HTML.
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
	for _, line := range strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n") {
		t := strings.TrimSpace(line)
		switch {
		case t == "":
			flush()
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

// inline renders **bold**, *emphasis* and `code` within a line.
func inline(s string) []app.UI {
	var out []app.UI
	var text strings.Builder
	emit := func() {
		if text.Len() > 0 {
			out = append(out, app.Text(text.String()))
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
