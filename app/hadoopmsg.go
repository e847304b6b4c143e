package app

import (
	"math"
	"regexp"
	"strconv"
)

// fractionInMessage finds the capacities Hadoop's messages print as
// fractions: "Illegal capacity of 1.0 for children of queue root",
// "(abs-capacity=0.6) > (abs-maximum-capacity=0.5)".
var fractionInMessage = regexp.MustCompile(`(capacity of |capacity=)(-?[0-9]+(?:\.[0-9]+)?(?:E-?[0-9]+)?)`)

// withPercents follows each fraction in a Hadoop message by what it means
// as a percentage: "Illegal capacity of 1.0 (100%) for …". The message is
// otherwise Hadoop's own.
func withPercents(msg string) string {
	return fractionInMessage.ReplaceAllStringFunc(msg, func(m string) string {
		sub := fractionInMessage.FindStringSubmatch(m)
		v, err := strconv.ParseFloat(sub[2], 64)
		if err != nil {
			return m
		}
		return m + " (" + strconv.FormatFloat(math.Round(v*1e6)/1e4, 'f', -1, 64) + "%)"
	})
}
