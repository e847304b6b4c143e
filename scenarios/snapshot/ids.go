package snapshot

import "strings"

// These read the few fixed shapes of text the snapshot reader takes apart
// by hand rather than with package regexp, which would add some 240 KB of
// code to the browser's app.wasm (about 100 KB gzipped, with go-app's and
// yaml.v3's uses trimmed by the browser build: build/site). The tests
// hold each to the regular expression it stands for.

// hadoopAppIDParts splits a Hadoop application id,
// application_<cluster timestamp>_<sequence number> (each one or more ASCII
// digits, the whole id and nothing else), into its two numbers as written;
// ok is false for any other id.
func hadoopAppIDParts(id string) (cluster, seq string, ok bool) {
	rest, found := strings.CutPrefix(id, "application_")
	if !found {
		return "", "", false
	}
	cluster, seq, found = strings.Cut(rest, "_")
	if !found || !allDigits(cluster) || !allDigits(seq) {
		return "", "", false
	}
	return cluster, seq, true
}

// refusedRestore reads the error of a restore that Hadoop refused,
// "restore: apps[3]: why" or "restore: containers[12]: why", into the list
// it names, the index as written and the reason; ok is false for any
// other message, or one whose reason runs over more than one line.
func refusedRestore(msg string) (list, index, why string, ok bool) {
	rest, found := strings.CutPrefix(msg, "restore: ")
	if !found {
		return "", "", "", false
	}
	list, rest, found = strings.Cut(rest, "[")
	if !found || (list != "apps" && list != "containers") {
		return "", "", "", false
	}
	index, why, found = strings.Cut(rest, "]: ")
	if !found || !allDigits(index) || strings.Contains(why, "\n") {
		return "", "", "", false
	}
	return list, index, why, true
}

// allDigits says whether s is one or more ASCII digits.
func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
