package snapshot

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
)

// The regular expressions hadoopAppIDParts and refusedRestore stand for.
var (
	hadoopAppIDRE    = regexp.MustCompile(`^application_(\d+)_(\d+)$`)
	refusedRestoreRE = regexp.MustCompile(`^restore: (apps|containers)\[(\d+)\]: (.*)$`)
)

// idInputs are seeds for both readers: what they take and near misses.
var idInputs = []string{
	"", "application_", "application_1_", "application__2", "application_1_2",
	"application_1700000000000_0001", "application_1_2_3", "application_1_2x",
	"xapplication_1_2", "application_١_2", "application_+1_2", "app_1_2",
	"restore: apps[3]: maximum applications", "restore: containers[12]: ",
	"restore: apps[]: x", "restore: apps[x]: y", "restore: nodes[1]: y",
	"restore: apps[1]: two\nlines", "restore: apps[1]]: y", "restore: apps[1] : y",
	"restore: apps[1]: a]: b", "restore: apps[1]:", "restore:apps[1]: y",
	"restore: apps[007]: \xff bad utf-8", "restore: containers[1][2]: y",
}

func TestHadoopAppIDPartsIsItsRegexp(t *testing.T) {
	for _, id := range idInputs {
		checkAppID(t, id)
	}
}

func TestRefusedRestoreIsItsRegexp(t *testing.T) {
	for _, msg := range idInputs {
		checkRefused(t, msg)
	}
}

// FuzzIDReaders: hadoopAppIDParts and refusedRestore agree with their
// regular expressions on any text.
func FuzzIDReaders(f *testing.F) {
	for _, s := range idInputs {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkAppID(t, s)
		checkRefused(t, s)
	})
}

func checkAppID(t *testing.T, id string) {
	t.Helper()
	cluster, seq, ok := hadoopAppIDParts(id)
	m := hadoopAppIDRE.FindStringSubmatch(id)
	require.Equal(t, m != nil, ok, "%q", id)
	if ok {
		require.Equal(t, []string{m[1], m[2]}, []string{cluster, seq}, "%q", id)
	}
}

func checkRefused(t *testing.T, msg string) {
	t.Helper()
	list, index, why, ok := refusedRestore(msg)
	m := refusedRestoreRE.FindStringSubmatch(msg)
	require.Equal(t, m != nil, ok, "%q", msg)
	if ok {
		require.Equal(t, []string{m[1], m[2], m[3]}, []string{list, index, why}, "%q", msg)
	}
}
