package config

import (
	"errors"
	"fmt"
)

// Error is a configuration Hadoop would refuse (or that yarnplay refuses
// where Hadoop cannot be simulated). Error() is the message alone: where
// Hadoop has a message for the failure it is Hadoop's exact text, so callers
// can match Hadoop's wording as a substring.
type Error struct {
	// Property is the configuration key the error is about, when one is.
	Property string
	// Queue is the full path of the queue the error concerns, when one is.
	Queue string
	// Line is the 1-based line of the XML text, for ParseXML errors.
	Line int
	// Message is the text returned by Error().
	Message string
	// NotSimulated marks a configuration Hadoop accepts that uses a
	// feature yarnplay cannot simulate (Feature names it, Instead says
	// what yarnplay does instead): not Hadoop's refusal.
	NotSimulated bool
	Feature      string
	Instead      string

	// warnings are those the parse found before it stopped (Check).
	warnings []string
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

func errorf(property, queue, format string, args ...any) *Error {
	return &Error{Property: property, Queue: queue, Message: fmt.Sprintf(format, args...)}
}

// notSimulated marks e as a feature Hadoop runs and yarnplay does not.
func notSimulated(e *Error, feature, instead string) *Error {
	e.NotSimulated, e.Feature, e.Instead = true, feature, instead
	return e
}

// unsupported is the error for a property Hadoop accepts that names a
// feature yarnplay cannot simulate; the message names the property, the
// queue and the feature.
func unsupported(property, queue, feature, instead, format string, args ...any) *Error {
	return notSimulated(errorf(property, queue, format, args...), feature, instead)
}

// ErrUnknownQueue is returned (wrapped) by Parsed.Lookup for a name that is
// neither a queue path nor a queue's short name.
var ErrUnknownQueue = errors.New("unknown queue")

// ErrAmbiguousQueue is returned (wrapped) by Parsed.Lookup for a short name
// that more than one queue has (Hadoop 3.3 refuses such submissions).
var ErrAmbiguousQueue = errors.New("ambiguous queue")

// numberError is the error for a value Java's number parsing rejects, naming
// the property, the queue and the value.
func numberError(key, queue, raw, kind string, cause error) *Error {
	where := key
	if queue != "" {
		where += " (queue " + queue + ")"
	}
	if errors.Is(cause, errNotFinite) {
		// Java's Float.parseFloat and Double.parseDouble read them.
		return unsupported(key, queue, "NaN and infinite numbers", notLoaded,
			"Invalid %s value %q for %s: NaN and Infinity are not accepted", kind, raw, where)
	}
	return errorf(key, queue, "Invalid %s value %q for %s: java.lang.NumberFormatException: For input string: %q",
		kind, raw, where, javaTrim(raw))
}
