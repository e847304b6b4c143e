package config

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// chain returns a configuration whose queues form one path depth levels
// below root (root.q1.q2...), every queue at 100%.
func chain(depth int) *Conf {
	c := New()
	path := RootQueue
	for i := 1; i <= depth; i++ {
		name := fmt.Sprintf("q%d", i)
		c.Set(QueueKey(path, SuffixQueues), name)
		path += "." + name
		c.Set(QueueKey(path, SuffixCapacity), "100")
	}
	return c
}

// wide returns a configuration with n leaves under root, the first at 100%.
func wide(n int) *Conf {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("q%d", i)
	}
	c := kv(p+"queues", strings.Join(names, ","), p+"q0.capacity", "100")
	return c
}

func TestParseQueueLimits(t *testing.T) {
	t.Run("depth", func(t *testing.T) {
		parsed, err := Parse(chain(MaxQueueDepth), Hadoop3)
		require.NoError(t, err)
		require.Len(t, parsed.Queues(), MaxQueueDepth+1)

		_, err = Parse(chain(MaxQueueDepth+1), Hadoop3)
		var e *Error
		require.ErrorAs(t, err, &e)
		deepest := "root.q1.q2.q3.q4.q5.q6.q7.q8.q9.q10.q11.q12.q13.q14.q15.q16"
		require.Equal(t, deepest, e.Queue)
		require.Equal(t, QueueKey(deepest, SuffixQueues), e.Property)
		require.Equal(t, `Queue `+deepest+` has child queues (`+QueueKey(deepest, SuffixQueues)+`="q17") 17 levels below root: `+
			`the queue tree is deeper than yarnplay's limit of 16 levels`, e.Error())
	})
	t.Run("count", func(t *testing.T) {
		_, err := Parse(wide(MaxQueues-1), Hadoop3)
		require.NoError(t, err)

		_, err = Parse(wide(MaxQueues), Hadoop3)
		var e *Error
		require.ErrorAs(t, err, &e)
		require.Equal(t, p+"queues", e.Property)
		require.Equal(t, "root", e.Queue)
		require.Contains(t, e.Error(), fmt.Sprintf("The queue tree has more than %d queues (reached at yarn.scheduler.capacity.root.queues=\"q0,q1,", MaxQueues))
		require.Contains(t, e.Error(), `...")`+fmt.Sprintf(": yarnplay's limit is %d queues, root included", MaxQueues))
	})
	t.Run("count over several parents", func(t *testing.T) {
		// 1 + 20 parents + 20 x 1000 leaves = 20021 queues: the limit is
		// passed at the last parent.
		c := New()
		var parents []string
		for i := range 20 {
			parents = append(parents, fmt.Sprintf("p%d", i))
			c.Set(p+fmt.Sprintf("p%d.capacity", i), "5")
			var leaves []string
			for j := range 1000 {
				leaves = append(leaves, fmt.Sprintf("l%d", j))
			}
			c.Set(p+fmt.Sprintf("p%d.queues", i), strings.Join(leaves, ","))
			c.Set(p+fmt.Sprintf("p%d.l0.capacity", i), "100")
		}
		c.Set(p+"queues", strings.Join(parents, ","))
		_, err := Parse(c, Hadoop3)
		var e *Error
		require.ErrorAs(t, err, &e)
		require.Equal(t, "root.p19", e.Queue)
		require.Contains(t, e.Error(), fmt.Sprintf("more than %d queues", MaxQueues))
	})
	t.Run("from XML", func(t *testing.T) {
		x, err := ParseXML(chain(MaxQueueDepth + 1).XML())
		require.NoError(t, err)
		_, err = Parse(x, Hadoop2)
		require.ErrorContains(t, err, "deeper than yarnplay's limit of 16 levels")
		x, err = ParseXML(wide(MaxQueues).XML())
		require.NoError(t, err)
		_, err = Parse(x, Hadoop3)
		require.ErrorContains(t, err, fmt.Sprintf("yarnplay's limit is %d queues", MaxQueues))
	})
}
