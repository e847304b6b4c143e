package core

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestJavaHashMapOrder holds what Java 17's String.hashCode and
// java.util.HashMap give (run with OpenJDK: put the old keys, then the
// new map's entries, then remove the keys no longer configured, as
// ParentQueue.reinitialize does, and iterate).
func TestJavaHashMapOrder(t *testing.T) {
	require.Equal(t, int32(-925313451), javaStringHash("root.a"))
	require.Equal(t, int32(497640757), javaStringHash("root.default"))
	require.Equal(t, int32(-167861614), javaStringHash("root.été"))
	require.Equal(t, int32(1381823983), javaStringHash("root.\U0001F600"), "a surrogate pair")

	many := make([]string, 20)
	for i := range many {
		many[i] = fmt.Sprintf("root.q%d", i)
	}
	tests := []struct {
		name     string
		old, now []string
		want     string
	}{
		{"ab", []string{"root.a", "root.b"}, []string{"root.a", "root.b"}, "root.a,root.b"},
		{"prod-dev", []string{"root.prod", "root.dev"}, []string{"root.prod", "root.dev"}, "root.dev,root.prod"},
		{"a queue added", []string{"root.engineering", "root.finance", "root.marketing"},
			[]string{"root.engineering", "root.finance", "root.marketing", "root.sales"},
			"root.engineering,root.finance,root.sales,root.marketing"},
		{"20 queues: the table doubles to 32", many, many,
			"root.q0,root.q2,root.q1,root.q4,root.q3,root.q6,root.q18,root.q5,root.q19,root.q8,root.q7,root.q14,root.q9,root.q15,root.q16,root.q17,root.q10,root.q11,root.q12,root.q13"},
		{"15 removed: the table stays at 32", many, many[:5], "root.q0,root.q2,root.q1,root.q4,root.q3"},
		{"nested", []string{"root.eng.dev", "root.eng.prod"}, []string{"root.eng.dev", "root.eng.prod", "root.eng.test"},
			"root.eng.prod,root.eng.dev,root.eng.test"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			now := map[string]bool{}
			for _, k := range tc.now {
				now[k] = true
			}
			removed := map[string]bool{}
			for _, k := range tc.old {
				if !now[k] {
					removed[k] = true
				}
			}
			got := javaHashMapOrder(append(append([]string(nil), tc.old...), tc.now...), removed)
			require.Equal(t, tc.want, strings.Join(got, ","))
		})
	}
}
