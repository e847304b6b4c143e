package config

import "errors"

// Verdict is what Hadoop and yarnplay make of a configuration, the three
// outcomes of yarnplay-validate and of the page's import.
type Verdict int

const (
	// Accepted: Hadoop starts with the configuration and yarnplay
	// simulates it (yarnplay-validate exits 0).
	Accepted Verdict = iota
	// Refused: Hadoop would not start with it; the error is Hadoop's
	// message, naming the property and the queue (exit 1).
	Refused
	// NotSimulated: Hadoop starts with it, but it uses a feature yarnplay
	// cannot simulate; the error names the feature and says what yarnplay
	// does instead (exit 3).
	NotSimulated
)

// String names the verdict.
func (v Verdict) String() string {
	switch v {
	case Accepted:
		return "accepted"
	case Refused:
		return "refused by Hadoop"
	case NotSimulated:
		return "accepted by Hadoop, not simulated by yarnplay"
	}
	return "unknown"
}

// ExitCode is yarnplay-validate's exit status for the verdict: 0, 1 or 3.
func (v Verdict) ExitCode() int {
	switch v {
	case Refused:
		return 1
	case NotSimulated:
		return 3
	}
	return 0
}

// CheckResult is a configuration's verdict: the parsed configuration when
// Accepted, else the error (Hadoop's refusal, or the feature yarnplay
// does not simulate), and the warnings either way (those Parse found
// before it stopped).
type CheckResult struct {
	Verdict  Verdict
	Parsed   *Parsed
	Err      *Error
	Warnings []string
}

// Check parses a configuration as Parse does and gives its verdict.
func Check(c *Conf, profile Profile) CheckResult {
	parsed, err := Parse(c, profile)
	if err == nil {
		return CheckResult{Verdict: Accepted, Parsed: parsed, Warnings: parsed.Settings.Warnings}
	}
	return Classify(err)
}

// Classify gives the verdict of an error of Parse (or of a refresh that
// wraps one): NotSimulated for the features yarnplay does not simulate,
// Refused for anything else.
func Classify(err error) CheckResult {
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{Message: err.Error()}
	}
	v := Refused
	if e.NotSimulated {
		v = NotSimulated
	}
	return CheckResult{Verdict: v, Err: e, Warnings: e.warnings}
}
