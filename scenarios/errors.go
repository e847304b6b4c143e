package scenarios

import (
	"fmt"
	"strconv"
	"strings"

	"yarnplay/core/config"
)

// Error is a problem found in a scenario: where it is and what is wrong.
// It reads `file: steps[3].submit: unknown key "qeue" (line 41)`.
type Error struct {
	// File is the scenario's file name (may be empty).
	File string
	// Path locates the problem in the document, e.g. "steps[3].submit";
	// list indexes count from 0 like a JSON path (steps[3] is step 4).
	Path string
	// Line is the line in the file, 0 when unknown.
	Line int
	// Msg says what is wrong.
	Msg string
}

// Error renders the problem on one line.
func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(": ")
	}
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	if e.Line > 0 {
		fmt.Fprintf(&b, " (line %d)", e.Line)
	}
	return b.String()
}

// Errors is a list of problems; Validate returns it.
type Errors []*Error

// maxErrors caps how many problems Validate reports.
const maxErrors = 50

// Error renders every problem on its own line.
func (es Errors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// stepPath is the path of a step: steps[i].
func stepPath(i int) string { return "steps[" + strconv.Itoa(i) + "]" }

// suggest returns `; did you mean "x"?` when one of the known names is
// close to the unknown one, and "" otherwise.
func suggest(unknown string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := config.EditDistance(strings.ToLower(unknown), k); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" || bestD >= len(unknown) {
		return ""
	}
	return fmt.Sprintf(`; did you mean %q?`, best)
}
