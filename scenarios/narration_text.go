package scenarios

import (
	"fmt"
	"strings"
)

// NarrationText renders a run's narration as yarnplay-check -narrate prints
// it: a header per step ("start", or "step 3 (heartbeat): its note"), then
// one "- " line per decision, every line prefixed by indent. The lessons'
// and the feature scenarios' golden files hold this text.
func (r *Result) NarrationText(indent string) string {
	var b strings.Builder
	for _, sn := range r.Narration {
		head := "start"
		if sn.Step > 0 {
			head = fmt.Sprintf("step %d (%s)", sn.Step, sn.Kind)
		}
		if sn.Note != "" {
			head += ": " + sn.Note
		}
		b.WriteString(indent + head + "\n")
		for _, l := range sn.Lines {
			b.WriteString(indent + "  - " + l + "\n")
		}
	}
	return b.String()
}
