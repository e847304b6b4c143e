package config

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"yarnplay/core/resource"
)

// requireConfigError fails unless err is an *Error with a message.
func requireConfigError(t *testing.T, err error) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error is not *config.Error: %T %v", err, err)
	}
	if e.Message == "" {
		t.Fatalf("an error without a message: %#v", e)
	}
	return e
}

// FuzzResourceString feeds a queue's maximum-allocation value
// ("memory-mb=2048,vcores=2") through Parse: it never panics; a refusal
// names the property and the queue; an accepted value lies within the
// cluster's maximum allocation and reads back the same when written as
// memory-mb=..,vcores=.. .
func FuzzResourceString(f *testing.F) {
	for _, s := range []string{
		"memory-mb=2048,vcores=2", "memory-mb=2G, vcores=1", "memory=1073741824", "memory=3g,vcores=1",
		"vcores=2", "memory-mb=1024", "", " ", ",", "memory-mb=", "=1", "memory-mb=1=2", "memory-mb=9223372036854775807G",
		"memory-mb=1 M", "memory-mb=1T", "yarn.io/gpu=1", "gpu=1", "memory-mb=0x10", "memory-mb=-1", "memory-mb=1,,vcores=1",
		"memory-mb=1,vcores=1,", "memory-mb=\u0661", "vcores=99999999999999999999",
	} {
		f.Add(s)
	}
	const queue = "root.default"
	key := QueueKey(queue, SuffixMaximumAllocation)
	f.Fuzz(func(t *testing.T, s string) {
		direct, _, directErr := parseResourceString(s)
		parsed, err := Parse(minimal(key, s, KeyMaxAllocationMB, "2147483647", KeyMaxAllocationVcores, "2147483647"), Hadoop3)
		if err != nil {
			e := requireConfigError(t, err)
			if e.Property != key || e.Queue != queue || !strings.Contains(e.Message, queue) {
				t.Fatalf("the error does not name %s and %s: %#v", key, queue, e)
			}
			if directErr == nil && s != "" && direct.MemoryMB <= math.MaxInt32 && direct.VCores <= math.MaxInt32 {
				t.Fatalf("Parse refuses %q, which parses to %s: %v", s, direct, err)
			}
			return
		}
		got := parsed.Queue(queue).MaxAlloc
		if s == "" {
			return // an empty value falls back to the cluster's maximum
		}
		if directErr != nil || got != direct {
			t.Fatalf("Parse accepts %q as %s; parseResourceString gives %s, %v", s, got, direct, directErr)
		}
		max := parsed.Settings.MaxAlloc
		if got.MemoryMB < 0 || got.VCores < 0 || got.MemoryMB > max.MemoryMB || got.VCores > max.VCores {
			t.Fatalf("%q gives %s, outside 0..%s", s, got, max)
		}
		back, missing, err := parseResourceString(fmt.Sprintf("memory-mb=%d,vcores=%d", got.MemoryMB, got.VCores))
		if err != nil || back != got || len(missing) > 0 {
			t.Fatalf("%s written back reads as %s (missing %v): %v", got, back, missing, err)
		}
	})
}

// aclQuirk reports the ACLs Hadoop's getAclString does not round-trip
// either: a list that is exactly "*" (read back as everyone), and an entry
// starting or ending with a character String.trim strips but the splitting
// regex's \s does not (a control character), lost when the whole part is
// trimmed on reading back.
func aclQuirk(a ACL) bool {
	if strings.Join(a.Users, ",") == "*" || strings.Join(a.Groups, ",") == "*" {
		return true
	}
	for _, list := range [][]string{a.Users, a.Groups} {
		for _, e := range list {
			if javaTrim(e) != e {
				return true
			}
		}
	}
	return false
}

// FuzzACL parses ACL strings: ParseACL and Allows never panic, String()
// reads back to an equivalent ACL (the same users, groups and answers; see
// aclQuirk for the two cases Hadoop shares), and an ACL property never
// makes Parse refuse a configuration.
func FuzzACL(f *testing.F) {
	for _, s := range []string{"*", " ", "", "alice", "alice,bob g1,g2", " g1", "alice *", "alice,* ", "*,", " *,",
		"a\nb c\nd", " alice , bob ,, alice", "a\x01 g", "\t*\t", "a g1 g2", "a,b, c", "\u00a0alice"} {
		f.Add(s, "alice", "g1")
	}
	f.Fuzz(func(t *testing.T, s, user, group string) {
		a := ParseACL(s)
		if a.All && (len(a.Users) > 0 || len(a.Groups) > 0) {
			t.Fatalf("%q: everyone and a list: %#v", s, a)
		}
		for _, list := range [][]string{a.Users, a.Groups} {
			for _, e := range list {
				if e == "" || strings.ContainsAny(e, ",\n") {
					t.Fatalf("%q: entry %q is empty or holds a separator", s, e)
				}
			}
		}
		b := ParseACL(a.String())
		if !aclQuirk(a) {
			if a.All != b.All || !slices.Equal(a.Users, b.Users) || !slices.Equal(a.Groups, b.Groups) {
				t.Fatalf("%q: String() %q reads back as %#v, not %#v", s, a.String(), b, a)
			}
			probes := append(append([]string{user, group, "*", ""}, a.Users...), a.Groups...)
			for _, u := range probes {
				for _, g := range probes {
					if a.Allows(u, []string{g}) != b.Allows(u, []string{g}) {
						t.Fatalf("%q: String() %q answers differently for %q in %q", s, a.String(), u, g)
					}
				}
			}
		}
		parsed, err := Parse(minimal(p+"default.acl_submit_applications", s, p+"acl_administer_queue", s), Hadoop3)
		if err != nil {
			t.Fatalf("an ACL %q makes Parse refuse: %v", s, err)
		}
		if q := parsed.Queue("root.default"); q.SubmitACL.Raw != s || parsed.Root.AdminACL.Raw != s {
			t.Fatalf("ACL %q read as %q / %q", s, q.SubmitACL.Raw, parsed.Root.AdminACL.Raw)
		}
	})
}

// treeSource turns fuzz bytes into choices; past the end every choice is 0.
type treeSource struct {
	b []byte
	i int
}

func (s *treeSource) next() int {
	if s.i >= len(s.b) {
		return 0
	}
	c := s.b[s.i]
	s.i++
	return int(c)
}

// pick returns one of options, chosen by the next byte.
func (s *treeSource) pick(options ...string) string { return options[s.next()%len(options)] }

var (
	treeNames      = []string{"a", "b", "c", "d", "default", "x", "a.b", "", " a", "b "}
	treeCapacities = []string{"0", "10", "25", "33.3", "33.4", "50", "100", "-1", "101", "1e1", "50f", "NaN", " 20", "0x10", "[memory=1]",
		"[memory=10240,vcores=10]", "[memory=2Gi,vcores=1]", "[memory=1024, vcores=1]", "[vcores=4]", "[memory=1x]"}
)

// build writes the queue path's properties and, maybe, its children, as
// the fuzz bytes choose; splitting a parent's 100% among its children is
// the likeliest choice, so that many trees are accepted.
func (s *treeSource) build(c *Conf, path string, depth int) {
	key := func(suffix string) string { return QueueKey(path, suffix) }
	switch s.next() % 8 {
	case 0:
		c.Set(key(SuffixMaximumCapacity), s.pick("100", "-1", "50", "0", "120", "x", "75.5"))
	case 1:
		c.Set(key(SuffixState), s.pick("RUNNING", "STOPPED", "running", "DRAINING", "bogus"))
	case 2:
		c.Set(key(SuffixUserLimitFactor), s.pick("1", "2", "0.5", "0", "-1", "x"))
		c.Set(key(SuffixMinimumUserLimitPercent), s.pick("100", "25", "0", "101", "x"))
	case 3:
		c.Set(key(SuffixMaximumApplications), s.pick("0", "1", "10", "-1", "x", "2147483648"))
		c.Set(key(SuffixMaximumAMResourcePercent), s.pick("0.1", "1", "0", "2", "x"))
	case 4:
		c.Set(key(SuffixMaximumAllocation), s.pick("memory-mb=1024,vcores=1", "memory-mb=99999", "bad"))
	case 5:
		c.Set(key(SuffixAutoCreateChildQueue), s.pick("true", "TRUE", "false", "yes"))
		c.Set(key(SuffixLeafQueueTemplate+"."+SuffixCapacity), s.pick("10", "50", "100", "150", "-1", "x", "[memory=1024]"))
		c.Set(key(SuffixLeafQueueTemplate+"."+SuffixMaximumCapacity), s.pick("100", "20", "-1", "x"))
		c.Set(key(SuffixLeafQueueTemplate+"."+SuffixUserLimitFactor), s.pick("1", "x"))
	}
	if depth > MaxQueueDepth+1 {
		return
	}
	n := s.next() % 6
	if depth == 0 && n == 0 {
		n = 1 + s.next()%4
	}
	if n == 5 {
		n = s.next() * 5 // a wide parent, to reach MaxQueues
	}
	if depth > 0 && n > 0 && s.next()%3 != 0 {
		n = 0 // most queues below root are leaves
	}
	if s.next()%16 == 1 {
		n = 1 // a chain, to reach MaxQueueDepth
	}
	names := make([]string, n)
	for i := range names {
		if s.next()%4 == 0 {
			names[i] = treeNames[s.next()%len(treeNames)]
		} else {
			names[i] = fmt.Sprintf("q%d", i)
		}
	}
	if n == 0 {
		return
	}
	c.Set(key(SuffixQueues), strings.Join(names, s.pick(",", ",", ", ", ",,")))
	even := s.next()%4 != 0
	for i, name := range names {
		child := path + "." + strings.TrimSpace(name)
		if even {
			share := 100 / n
			if i == 0 {
				share += 100 - share*n
			}
			c.Set(QueueKey(child, SuffixCapacity), fmt.Sprint(share))
		} else {
			c.Set(QueueKey(child, SuffixCapacity), treeCapacities[s.next()%len(treeCapacities)])
		}
		if n <= 8 || s.next()%8 == 0 {
			s.build(c, child, depth+1)
		}
	}
}

// FuzzQueueTree builds queue trees from the fuzz bytes and parses them:
// Parse never panics, refuses with an *Error, reads an XML export of the
// same properties alike, and every tree it accepts keeps Hadoop's rules:
// children's capacities sum to 100% of a parent (within 0.0005, unless a
// child is absolute; to 0 under a parent of capacity 0), a non-root parent
// and its children share a capacity type, a parent's configured minimum is
// at least its children's, absolute capacities are products down the path
// and at most the absolute maxima, a RUNNING queue has a RUNNING parent,
// names are unique, non-empty and dot-free, and the tree is within
// MaxQueues and MaxQueueDepth.
func FuzzQueueTree(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{7, 3, 0, 1, 1})
	f.Add([]byte{1, 1, 2, 0, 9, 1, 5, 1, 3, 0, 0, 2, 5, 0, 0})
	f.Add([]byte{0, 0, 5, 200, 1, 1, 1, 1})
	f.Add([]byte{7, 1, 0, 0, 7, 1, 1, 0, 7, 1, 1, 0, 16, 7, 1, 1, 0, 16, 7, 1, 1, 0, 16, 7, 1, 1, 0, 16})
	f.Add([]byte{7, 2, 0, 0, 5, 0, 1, 0, 0, 0, 5, 0, 0, 0, 0, 0}) // auto-create enabled queues
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			return
		}
		c := New()
		(&treeSource{b: data}).build(c, RootQueue, 0)
		parsed, err := Parse(c, Hadoop3)
		x, xerr := ParseXML(c.XML())
		if xerr != nil {
			t.Fatalf("the XML export does not parse: %v", xerr)
		}
		parsedX, errX := Parse(x, Hadoop3)
		if (err == nil) != (errX == nil) || err != nil && err.Error() != errX.Error() {
			t.Fatalf("Parse and Parse of the XML export differ: %v / %v", err, errX)
		}
		if err != nil {
			requireConfigError(t, err)
			return
		}
		if len(parsed.Queues()) != len(parsedX.Queues()) {
			t.Fatalf("the XML export has %d queues, not %d", len(parsedX.Queues()), len(parsed.Queues()))
		}
		checkTree(t, c, parsed)
	})
}

// checkTree checks the rules every accepted queue tree keeps.
func checkTree(t *testing.T, c *Conf, parsed *Parsed) {
	t.Helper()
	queues := parsed.Queues()
	if len(queues) > MaxQueues {
		t.Fatalf("%d queues accepted, over the limit %d", len(queues), MaxQueues)
	}
	for _, q := range queues {
		if d := strings.Count(q.Path, "."); d > MaxQueueDepth {
			t.Fatalf("%s is %d levels deep, over the limit %d", q.Path, d, MaxQueueDepth)
		}
		if q.Capacity < 0 || q.Capacity > 1 || math.IsNaN(float64(q.Capacity)) {
			t.Fatalf("%s: capacity %v", q.Path, q.Capacity)
		}
		if q.AbsCapacity > q.AbsMaxCapacity {
			t.Fatalf("%s: absolute capacity %v above absolute maximum %v", q.Path, q.AbsCapacity, q.AbsMaxCapacity)
		}
		parentAbs := float32(1)
		if q.Parent != nil {
			parentAbs = q.Parent.AbsCapacity
			if q.Path != q.Parent.Path+"."+q.Name {
				t.Fatalf("%s is not its parent's path and its name %s", q.Path, q.Name)
			}
			if q.State == Running && q.Parent.State != Running {
				t.Fatalf("%s is RUNNING under a %s parent", q.Path, q.Parent.State)
			}
		}
		if q.Capacity > 0 && q.AbsCapacity != float32(q.Capacity*parentAbs) {
			t.Fatalf("%s: absolute capacity %v is not %v x %v", q.Path, q.AbsCapacity, q.Capacity, parentAbs)
		}
		if q.ManagedParent {
			if len(q.Children) > 0 || q.Template == nil {
				t.Fatalf("%s: a managed parent with %d configured children, template %v", q.Path, len(q.Children), q.Template)
			}
			if tp := q.Template; tp.AbsCapacity > tp.AbsMaxCapacity || tp.Capacity < 0 || tp.Capacity > 1 {
				t.Fatalf("%s: leaf template capacity %v (absolute %v) over its maximum (absolute %v)", q.Path, tp.Capacity, tp.AbsCapacity, tp.AbsMaxCapacity)
			}
			continue
		}
		if q.IsLeaf() {
			if q.MaxApplicationsPerUser > q.MaxApplications {
				t.Fatalf("%s: %d applications per user, above %d", q.Path, q.MaxApplicationsPerUser, q.MaxApplications)
			}
			if !resource.FitsIn(q.MaxAlloc, parsed.Settings.MaxAlloc) {
				t.Fatalf("%s: maximum allocation %s above the cluster's %s", q.Path, q.MaxAlloc, parsed.Settings.MaxAlloc)
			}
			continue
		}
		raw, _ := c.Get(QueueKey(q.Path, SuffixQueues))
		var names []string
		var sum float32
		var minSum resource.Resource
		for _, ch := range q.Children {
			minSum = minSum.Add(ch.MinResource)
			if q.Parent != nil && ch.Absolute != q.Absolute {
				t.Fatalf("%s (absolute %v) has a child %s of another capacity type", q.Path, q.Absolute, ch.Path)
			}
			if ch.Name == "" || strings.Contains(ch.Name, ".") || slices.Contains(names, ch.Name) {
				t.Fatalf("%s: child name %q is empty, dotted or repeated", q.Path, ch.Name)
			}
			names = append(names, ch.Name)
			sum = float32(sum + ch.Capacity)
		}
		if !slices.Equal(names, splitQueueNames(raw)) {
			t.Fatalf("%s: children %v, but %s lists %q", q.Path, names, QueueKey(q.Path, SuffixQueues), raw)
		}
		if !q.MinResource.IsZero() && q.MinResource.MemoryMB < minSum.MemoryMB {
			t.Fatalf("%s: configured minimum %s below its children's %s", q.Path, q.MinResource, minSum)
		}
		if q.Capacity > 0 && minSum.IsZero() && math.Abs(float64(sum)-1) > 0.0005+1e-6 || q.Capacity == 0 && sum != 0 {
			t.Fatalf("%s (capacity %v): children's capacities sum to %v", q.Path, q.Capacity, sum)
		}
	}
}
