package scenarios

import "strconv"

// LinkHead is saved work's link (DecodeSavedLink) read only as far as the
// step it stands on: what the work shows there needs the steps up to it,
// and in work of many steps the others are nearly all of the link, which
// the playground reads once the step is on screen (Whole).
type LinkHead struct {
	// Scenario is the link's scenario with its steps up to one past Step
	// (the next step's expectation says how a step is recorded), and
	// valid as a scenario of those steps.
	Scenario *Scenario
	// Step and Selection are the link's step and selection.
	Step      int
	Selection string
	// Steps is how many steps the whole scenario holds.
	Steps int
	link  *linkParts
}

// DecodeSavedLinkHead reads saved work's link as far as the step it
// stands on (LinkHead). It reports false when there is no gain in it or
// it cannot be sure of the head: the link's steps are few past its step,
// its scenario does not read in one pass (decodeOnePass), or the head is
// not valid; DecodeSavedLink then says what the link holds. A head it
// returns is what DecodeSavedLink would return with its steps cut one
// past the step, when DecodeSavedLink accepts the link: Whole says
// whether it does.
func DecodeSavedLinkHead(fragment string) (*LinkHead, bool) {
	l, err := readLink(fragment, MaxSavedBytes)
	if err != nil || l.checkSelection() != nil {
		return nil, false
	}
	step := 0
	if l.stepText != "" {
		if step, err = strconv.Atoi(l.stepText); err != nil || step < 0 || step >= MaxSteps {
			return nil, false
		}
	}
	sc, rest, ok := readOnePassHead("", l.data, maxValues, step+1)
	if !ok || rest < minLaterSteps || sc.Validate() != nil {
		return nil, false
	}
	h := &LinkHead{Scenario: sc, Step: step, Selection: l.selection, Steps: len(sc.Steps) + rest, link: l}
	if step > h.Steps {
		return nil, false
	}
	return h, true
}

// minLaterSteps is the fewest steps past its head that make reading a
// link in two parts worth it: under it, reading them costs less than the
// second part's fixed cost (reading the rest of the document again).
const minLaterSteps = 1000

// Whole reads the whole scenario of the link, as DecodeSavedLink does,
// with its errors.
func (h *LinkHead) Whole() (*Scenario, error) {
	sc, err := h.link.scenario()
	if err != nil {
		return nil, err
	}
	if _, err := h.link.step(len(sc.Steps)); err != nil {
		return nil, err
	}
	return sc, nil
}
