package scenarios

import (
	"strconv"
	"strings"
)

// Limits on what a scenario becomes, not only on its bytes: a small file or
// link must not expand into more than the playground can hold. With
// MaxSteps, MaxNodes, MaxQueues and MaxHeartbeats (node.go), they are the
// page's limits: what it opens in a few seconds in well under 1 GB
// (measured natively by app's TestMeasurePageLimits, see
// scenarios/README.md).
const (
	// MaxNameBytes bounds a name: a node's (after its {i} is expanded), a
	// rack's, an application's, a user's, a group's and a queue's in a
	// submit step or a `queues` list.
	MaxNameBytes = 256
	// MaxTableColumns bounds the columns of a markdown table in a
	// description or a note (rows are padded to the header's cells).
	MaxTableColumns = 64
	// MaxTableCells bounds the cells the markdown tables of one text
	// (a description, notes, a step's note) render, rows times columns.
	MaxTableCells = 10_000
)

// nameTooLong says how a name is over MaxNameBytes, or "".
func nameTooLong(what, name string) string {
	if len(name) <= MaxNameBytes {
		return ""
	}
	return what + " " + strconv.Quote(name[:32]) + "... is " + strconv.Itoa(len(name)) + " bytes long; the limit is " + strconv.Itoa(MaxNameBytes) + " bytes"
}

// expandedNameBytes is the length of the longest name ExpandNames(name,
// count) makes, computed without making them.
func expandedNameBytes(name string, count int) int {
	n := strings.Count(name, "{i}")
	if n == 0 {
		return len(name)
	}
	digits := len(strconv.Itoa(max(count, 1) - 1))
	return len(name) + n*(digits-len("{i}"))
}

// TableCells returns the columns of the widest markdown table of src and
// the cells its tables render in all, as the playground's Markdown reads
// them: a table is a line starting with "|" followed by a separator row
// (| --- | :---: |), then the lines starting with "|"; every row has the
// header's cells.
func TableCells(src string) (columns, cells int) {
	lines := strings.Split(src, "\n")
	for i := 0; i+1 < len(lines); i++ {
		if !strings.HasPrefix(strings.TrimSpace(lines[i]), "|") || !isSeparatorRow(lines[i+1]) {
			continue
		}
		cols := tableCellCount(lines[i])
		n := i + 2
		for n < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[n]), "|") {
			n++
		}
		columns = max(columns, cols)
		cells += cols * (n - i - 1) // the header and the rows
		i = n - 1
	}
	return columns, cells
}

// tableCellCount counts a table row's cells: its unescaped pipes, less the
// outer ones.
func tableCellCount(row string) int {
	row = strings.TrimPrefix(strings.TrimSpace(row), "|")
	if strings.HasSuffix(row, "|") && !strings.HasSuffix(row, `\|`) {
		row = row[:len(row)-1]
	}
	return 1 + strings.Count(row, "|") - strings.Count(row, `\|`)
}

// isSeparatorRow reports whether a line is a table's separator row.
func isSeparatorRow(line string) bool {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, "|") || !strings.Contains(t, "-") {
		return false
	}
	return strings.Trim(t, "|-: \t") == ""
}

// tableTooBig says how a markdown text's tables are over MaxTableColumns
// or MaxTableCells, or "".
func tableTooBig(src string) string {
	cols, cells := TableCells(src)
	switch {
	case cols > MaxTableColumns:
		return "a markdown table has " + strconv.Itoa(cols) + " columns; the limit is " + strconv.Itoa(MaxTableColumns) + " columns"
	case cells > MaxTableCells:
		return "its markdown tables have " + strconv.Itoa(cells) + " cells; the limit is " + strconv.Itoa(MaxTableCells) + " cells"
	}
	return ""
}

// budgets checks the limits on what the scenario's texts and names become.
func (v *validator) budgets() {
	sc := v.sc
	for _, f := range []struct{ path, text string }{{"description", sc.Description}, {"notes", sc.Notes}} {
		if msg := tableTooBig(f.text); msg != "" {
			v.add(f.path, 0, "%s", msg)
		}
	}
	for i := range sc.Steps {
		if msg := tableTooBig(sc.Steps[i].Note); msg != "" {
			v.add(v.stepPath(i)+".note", sc.Steps[i].Line, "%s", msg)
		}
	}
	for _, u := range sortedKeys(sc.Groups) {
		if msg := nameTooLong("user", u); msg != "" {
			v.add("groups", 0, "%s", msg)
		}
		for _, g := range sc.Groups[u] {
			if msg := nameTooLong("group", g); msg != "" {
				v.add("groups", 0, "%s", msg)
			}
		}
	}
}

// nodeNameTooLong says how a node spec's names, once expanded, or its
// rack are over MaxNameBytes, or "", before any name is made.
func nodeNameTooLong(n *NodeSpec) string {
	if l := expandedNameBytes(n.Name, n.Count); l > MaxNameBytes {
		return "node name " + strconv.Quote(n.Name[:min(len(n.Name), 32)]) + "... makes names of " + strconv.Itoa(l) + " bytes; the limit is " + strconv.Itoa(MaxNameBytes) + " bytes"
	}
	return nameTooLong("rack", n.Rack)
}

// submitNameTooLong says how a submit step's names are over MaxNameBytes.
func submitNameTooLong(s *Submit) string {
	for _, f := range []struct{ what, name string }{{"app", s.App}, {"user", s.User}, {"queue", s.Queue}} {
		if msg := nameTooLong(f.what, f.name); msg != "" {
			return msg
		}
	}
	return ""
}
