package scenarios

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBudgetsOnWhatInputBecomes: each limit on what a small input expands
// to refuses one past it, naming the limit and the amount, in a file and in
// a link; one at the limit loads.
func TestBudgetsOnWhatInputBecomes(t *testing.T) {
	base := func() *Scenario {
		return &Scenario{Version: 1, Config: map[string]string{"yarn.scheduler.capacity.root.queues": "a", "yarn.scheduler.capacity.root.a.capacity": "100"},
			Nodes: []NodeSpec{{Name: "n0", MemoryMB: 8192, VCores: 8}}}
	}
	long := func(n int) string { return strings.Repeat("x", n) }
	table := func(cols, rows int) string {
		return "|" + strings.Repeat(" a |", cols) + "\n| --- |\n" + strings.Repeat("|\n", rows)
	}
	for _, tc := range []struct {
		name    string
		ok, bad func(*Scenario)
		msg     string
	}{
		{"node name pattern, before expansion",
			func(sc *Scenario) {
				sc.Nodes = []NodeSpec{{Name: long(MaxNameBytes-2) + "{i}", Count: 100, MemoryMB: 1}}
			},
			func(sc *Scenario) {
				sc.Nodes = []NodeSpec{{Name: long(MaxNameBytes-2) + "{i}", Count: 1000, MemoryMB: 1}}
			},
			fmt.Sprintf("makes names of %d bytes; the limit is %d bytes", MaxNameBytes+1, MaxNameBytes)},
		{"node name pattern of a million bytes",
			nil,
			func(sc *Scenario) { sc.Nodes = []NodeSpec{{Name: long(1<<20) + "{i}", Count: 10000, MemoryMB: 1}} },
			fmt.Sprintf("makes names of %d bytes; the limit is %d bytes", 1<<20+4, MaxNameBytes)},
		{"app name",
			func(sc *Scenario) {
				sc.Steps = []Step{{Submit: &Submit{App: long(MaxNameBytes), User: "u", Queue: "a"}}}
			},
			func(sc *Scenario) {
				sc.Steps = []Step{{Submit: &Submit{App: long(MaxNameBytes + 1), User: "u", Queue: "a"}}}
			},
			fmt.Sprintf("is %d bytes long; the limit is %d bytes", MaxNameBytes+1, MaxNameBytes)},
		{"queue name",
			func(sc *Scenario) {
				sc.Config = map[string]string{"yarn.scheduler.capacity.root.queues": long(MaxNameBytes), "yarn.scheduler.capacity.root." + long(MaxNameBytes) + ".capacity": "100"}
			},
			func(sc *Scenario) {
				sc.Config = map[string]string{"yarn.scheduler.capacity.root.queues": long(MaxNameBytes + 1), "yarn.scheduler.capacity.root." + long(MaxNameBytes+1) + ".capacity": "100"}
			},
			fmt.Sprintf("queue \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"... is %d bytes long; the limit is %d bytes", MaxNameBytes+1, MaxNameBytes)},
		{"table columns",
			func(sc *Scenario) { sc.Description = table(MaxTableColumns, 2) },
			func(sc *Scenario) { sc.Description = table(MaxTableColumns+1, 2) },
			fmt.Sprintf("description: a markdown table has %d columns; the limit is %d columns", MaxTableColumns+1, MaxTableColumns)},
		{"table cells: a header padded over many rows",
			func(sc *Scenario) { sc.Description = table(50, MaxTableCells/50-1) },
			func(sc *Scenario) { sc.Description = table(50, MaxTableCells/50) },
			fmt.Sprintf("description: its markdown tables have %d cells; the limit is %d cells", MaxTableCells+50, MaxTableCells)},
		{"table cells in a step's note",
			func(sc *Scenario) { sc.Steps = []Step{{Tick: new(1), Note: table(50, 10)}} },
			func(sc *Scenario) { sc.Steps = []Step{{Tick: new(1), Note: table(64, 1000)}} },
			fmt.Sprintf("steps[0].note: its markdown tables have %d cells; the limit is %d cells", 64*1001, MaxTableCells)},
		{"queues",
			func(sc *Scenario) { sc.Config = wideConfig(MaxQueues - 1) },
			func(sc *Scenario) { sc.Config = wideConfig(MaxQueues) },
			fmt.Sprintf("the configuration defines more than %d queues; the limit is %d queues", MaxQueues, MaxQueues)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.ok != nil {
				sc := base()
				tc.ok(sc)
				require.NoError(t, asBuilt(t, sc))
				require.NoError(t, asFile(t, sc))
			}
			sc := base()
			tc.bad(sc)
			require.ErrorContains(t, asBuilt(t, sc), tc.msg)
			if len(sc.Nodes) == 0 || len(sc.Nodes[0].Name) < 1<<20 {
				require.ErrorContains(t, asFile(t, sc), tc.msg)
				require.ErrorContains(t, asLink(t, sc), tc.msg)
			}
		})
	}
}

func TestTableCellsReadsTablesAsMarkdownDoes(t *testing.T) {
	cols, cells := TableCells("text\n| a | b \\| c |\n|---|:-:|\n| 1 |\n| 2 | 3 |\nafter\n\n| x |\n| - |\n")
	require.Equal(t, 2, cols)
	require.Equal(t, 2*3+1*1, cells)
	cols, cells = TableCells("| not a table |\n| text |\n")
	require.Zero(t, cols)
	require.Zero(t, cells)
}
