package app

import (
	"math"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
)

func TestWithPercents(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Illegal capacity of 1.0 for children of queue root", "Illegal capacity of 1.0 (100%) for children of queue root"},
		{"Illegal capacity of 0.9 for children of queue root.a", "Illegal capacity of 0.9 (90%) for children of queue root.a"},
		{"Illegal capacity of 1.5 for queue root.a", "Illegal capacity of 1.5 (150%) for queue root.a"},
		{"Illegal queue capacity setting (abs-capacity=0.6) > (abs-maximum-capacity=0.5) for queue=[root.a],label=[]",
			"Illegal queue capacity setting (abs-capacity=0.6 (60%)) > (abs-maximum-capacity=0.5 (50%)) for queue=[root.a],label=[]"},
		{"unknown queue: qa-team", "unknown queue: qa-team"},
	} {
		require.Equal(t, tc.want, withPercents(tc.in))
	}
}

// withPercentsRE is withPercents as a regular expression: the fractions
// it finds and what it adds to them.
func withPercentsRE(msg string) string {
	re := regexp.MustCompile(`(capacity of |capacity=)(-?[0-9]+(?:\.[0-9]+)?(?:E-?[0-9]+)?)`)
	return re.ReplaceAllStringFunc(msg, func(m string) string {
		v, err := strconv.ParseFloat(re.FindStringSubmatch(m)[2], 64)
		if err != nil {
			return m
		}
		return m + " (" + strconv.FormatFloat(math.Round(v*1e6)/1e4, 'f', -1, 64) + "%)"
	})
}

var percentInputs = []string{
	"", "capacity of ", "capacity=", "capacity of x", "capacity=-", "capacity=1.", "capacity=1.5E",
	"capacity=1.5E-", "capacity=1.5E-3x", "capacity=2E5", "capacity=1e5", "capacity=-0.25",
	"capacity=capacity=0.5", "capacity of capacity of 1", "abs-capacity=0.6) > (abs-maximum-capacity=0.5",
	"capacity=99999999999999999999999999999999999E999999", "capacity=1.2.3", "capacity =1", "Capacity=1",
	"maximum-capacity=0.5,capacity=0.25", "capacity of ١", "capacity=0.5\ncapacity of 7",
}

func TestWithPercentsIsItsRegexp(t *testing.T) {
	for _, in := range percentInputs {
		require.Equal(t, withPercentsRE(in), withPercents(in), "%q", in)
	}
}

// FuzzWithPercents: withPercents adds what its regular expression would,
// to any message.
func FuzzWithPercents(f *testing.F) {
	for _, in := range percentInputs {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		require.Equal(t, withPercentsRE(in), withPercents(in), "%q", in)
	})
}

func TestUnknownQueueKeys(t *testing.T) {
	qs := []core.QueueView{{Path: "root"}, {Path: "root.finance-wizards"}}
	conf := map[string]string{
		"yarn.scheduler.capacity.root.queues":                   "finance-wizards",
		"yarn.scheduler.capacity.root.finance-wizards.capacity": "100",
		"yarn.scheduler.capacity.finance-wizards.queues":        "a,b",
		"yarn.scheduler.capacity.root.nowhere.capacity":         "10",
		"yarn.scheduler.capacity.maximum-applications":          "100",
		"yarn.scheduler.capacity.resource-calculator":           "x",
		"yarn.resourcemanager.scheduler.monitor.enable":         "false",
	}
	require.Equal(t, []string{
		"yarn.scheduler.capacity.finance-wizards.queues names no queue (finance-wizards): Hadoop reads queue properties by the full path from root, e.g. yarn.scheduler.capacity.root.finance-wizards.queues, and ignores this one",
		"yarn.scheduler.capacity.root.nowhere.capacity names no queue (root.nowhere): no configured queue has that path, so Hadoop ignores it",
	}, unknownQueueKeys(conf, qs))
}
