package scenarios

import (
	"fmt"
	"io"
	"io/fs"
)

// Load reads the scenario file name from fsys (YAML or JSON) and checks it
// as Parse does.
func Load(fsys fs.FS, name string) (*Scenario, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.Size() > MaxFileBytes {
		return nil, &Error{File: name, Msg: tooBig(info.Size())}
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, &Error{File: name, Msg: err.Error()}
	}
	return Parse(name, data)
}

func tooBig(n int64) string {
	return fmt.Sprintf("the file is %.1f MiB; the limit is %d MiB", float64(n)/(1<<20), MaxFileBytes>>20)
}

// Parse reads a scenario from data (YAML, or JSON, which is YAML); name is
// used in messages. It refuses an unknown key or step kind, a value of the
// wrong type and anything past the limits (MaxFileBytes, MaxSteps,
// MaxNodes, MaxQueues and the others Validate names), then runs Validate:
// the returned error is an *Error
// or, from Validate, an Errors list, each naming the place and line.
func Parse(name string, data []byte) (*Scenario, error) {
	return parseUpTo(name, data, MaxFileBytes)
}

// parseUpTo is Parse for documents of up to limit bytes.
func parseUpTo(name string, data []byte, limit int) (*Scenario, error) {
	sc, err := decode(name, data, limit)
	if err != nil {
		return nil, err
	}
	if err := sc.Validate(); err != nil {
		return nil, err
	}
	return sc, nil
}

// decode reads a scenario of up to limit bytes without validating it: in
// one pass when it can (decodeOnePass), else by the tree.
func decode(name string, data []byte, limit int) (*Scenario, error) {
	if len(data) > limit {
		return nil, &Error{File: name, Msg: fmt.Sprintf("the file is larger than %d MiB, the limit", limit>>20)}
	}
	if sc, ok := decodeOnePass(name, data); ok {
		return sc, nil
	}
	return decodeTree(name, data)
}

// decodeTree reads a scenario through the tree of its values
// (readDocument), without validating it: what decodeOnePass does not read
// and every error, with its path and line.
func decodeTree(name string, data []byte) (*Scenario, error) {
	v, err := readDocument(data)
	if err != nil {
		if se, ok := err.(*syntaxError); ok {
			return nil, &Error{File: name, Line: se.line, Msg: se.msg}
		}
		return nil, &Error{File: name, Msg: err.Error()}
	}
	sc, err := (&decoder{file: name, errPaths: errPaths{quiet: true}}).scenario(v)
	if err != nil {
		// Again, with the paths, for the message.
		d := &decoder{file: name}
		if _, perr := d.scenario(v); perr != nil {
			err = perr
		}
	}
	return sc, err
}
