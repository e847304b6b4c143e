package scenarios

import (
	"fmt"
	"strings"
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
func stepPath(i int) string { return fmt.Sprintf("steps[%d]", i) }

// suggest returns `; did you mean "x"?` when one of the known names is
// close to the unknown one, and "" otherwise.
func suggest(unknown string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := editDistance(strings.ToLower(unknown), k); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" || bestD >= len(unknown) {
		return ""
	}
	return fmt.Sprintf(`; did you mean %q?`, best)
}

// editDistance is the Levenshtein distance of two short strings (long ones
// are not compared).
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 1 << 30
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
