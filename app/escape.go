package app

import "strings"

// markupEscaper escapes the five characters that end text or an attribute
// value in HTML and SVG.
var markupEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;")

// escapeMarkup is the one way text from data (a scenario, a configuration,
// a link, a file) enters markup the page writes as a string (the usage
// chart's SVG, mounted with app.Raw): as text or a quoted attribute value,
// never as markup. Everything else reaches the DOM through go-app's
// elements, as text nodes and attributes.
func escapeMarkup(s string) string { return markupEscaper.Replace(s) }
