package snapshot

import "strings"

// Problem is something wrong in a snapshot file: the file, the place in
// the document (apps.app[3].allocatedMB) and what is wrong, in words that
// say what to fix.
type Problem struct {
	File string
	Path string
	Msg  string
}

// Error renders "file: path: message".
func (p *Problem) Error() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Path != "" {
		b.WriteString(": ")
		b.WriteString(p.Path)
	}
	b.WriteString(": ")
	b.WriteString(p.Msg)
	return b.String()
}

// Problems are every problem of an import that stops it, one per line.
type Problems []*Problem

// Error renders one problem per line.
func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "\n")
}

// maxProblems bounds the problems reported (a hostile file may have many).
const maxProblems = 50
