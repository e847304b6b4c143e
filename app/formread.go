package app

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Forms read their inputs by id when submitted (the inputs keep what the
// user typed between renders; nothing is mirrored into component state).

// inputValue is the value of the element with the id ("" when missing).
func inputValue(id string) string {
	el := app.Window().Get("document").Call("getElementById", id)
	if !el.Truthy() {
		return ""
	}
	return strings.TrimSpace(el.Get("value").String())
}

// inputInt is inputValue as an integer, def when empty or not a number.
func inputInt(id string, def int64) int64 {
	v, err := strconv.ParseInt(inputValue(id), 10, 64)
	if err != nil {
		return def
	}
	return v
}

// textField is a labelled text or number input.
func textField(id, label, kind, value, placeholder string) app.UI {
	return app.Label().Class("field").For(id).Body(
		app.Span().Text(label),
		app.Input().ID(id).Type(kind).Value(value).Placeholder(placeholder).AutoComplete(false),
	)
}

// selectField is a labelled select of options (value = text).
func selectField(id, label string, options []string, selected string) app.UI {
	return app.Label().Class("field").For(id).Body(
		app.Span().Text(label),
		app.Select().ID(id).Body(app.Range(options).Slice(func(i int) app.UI {
			return app.Option().Value(options[i]).Selected(options[i] == selected).Text(options[i])
		})),
	)
}

func itoa(i int) string { return strconv.Itoa(i) }

// nOf says "1 node" or "3 nodes".
func nOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
