package snapshot

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// A REST response, JSON or XML, is read into one generic tree: an element
// is a map from child names to their values (a repeated name, or a JSON
// list, holds a list), a leaf is its text. JSON's `{"app": {...}}` (one
// item, as old Jersey writes single-item lists) and `{"app": [{...}]}` read
// the same, and so do `<app>` repeated in XML.

// elem is an element: child name to value ([]any for repeated ones).
type elem = map[string]any

// Limits on snapshot files.
const (
	// MaxFileBytes bounds one REST response read.
	MaxFileBytes = 512 << 20
	maxDepth     = 64
)

// parse reads a JSON or XML document.
func parse(file string, data []byte) (elem, error) {
	if len(data) > MaxFileBytes {
		return nil, &Problem{File: file, Msg: fmt.Sprintf("the file is larger than %d MiB", MaxFileBytes>>20)}
	}
	t := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(t) == 0 {
		return nil, &Problem{File: file, Msg: "the file is empty"}
	}
	if t[0] == '<' {
		return parseXML(file, t)
	}
	return parseJSON(file, t)
}

func parseJSON(file string, data []byte) (elem, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, &Problem{File: file, Msg: "not valid JSON: " + jsonMsg(err, data)}
	}
	if dec.More() {
		return nil, &Problem{File: file, Msg: "not valid JSON: more than one document"}
	}
	m, ok := v.(elem)
	if !ok {
		return nil, &Problem{File: file, Msg: fmt.Sprintf("the document must be a JSON object, not %s", describe(v))}
	}
	if d := depth(m, 0); d > maxDepth {
		return nil, &Problem{File: file, Msg: fmt.Sprintf("the document nests deeper than %d levels", maxDepth)}
	}
	return m, nil
}

// jsonMsg says where a JSON syntax error is, by line.
func jsonMsg(err error, data []byte) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line := 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n"))
		return fmt.Sprintf("%s (line %d)", se.Error(), line)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return te.Error()
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "the document ends too early"
	}
	return err.Error()
}

func depth(v any, d int) int {
	if d > maxDepth {
		return d
	}
	best := d
	switch x := v.(type) {
	case elem:
		for _, c := range x {
			best = max(best, depth(c, d+1))
		}
	case []any:
		for _, c := range x {
			best = max(best, depth(c, d+1))
		}
	}
	return best
}

// parseXML reads an XML document into the same tree; the root element's
// name becomes its one key. Attributes are children (xsi:type is "type").
func parseXML(file string, data []byte) (elem, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	type frame struct {
		name string
		m    elem
		text strings.Builder
	}
	var stack []*frame
	root := elem{}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &Problem{File: file, Msg: "not valid XML: " + err.Error()}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) >= maxDepth {
				return nil, &Problem{File: file, Msg: fmt.Sprintf("the document nests deeper than %d levels", maxDepth)}
			}
			if len(stack) == 0 && len(root) > 0 {
				return nil, &Problem{File: file, Msg: "not valid XML: more than one root element"}
			}
			f := &frame{name: t.Name.Local, m: elem{}}
			for _, a := range t.Attr {
				if a.Name.Space == "xmlns" || a.Name.Local == "xmlns" {
					continue
				}
				f.m[a.Name.Local] = a.Value
			}
			stack = append(stack, f)
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text.Write(t)
			}
		case xml.EndElement:
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			var v any = f.m
			if len(f.m) == 0 {
				v = strings.TrimSpace(f.text.String())
			}
			parent := root
			if len(stack) > 0 {
				parent = stack[len(stack)-1].m
			}
			addChild(parent, f.name, v)
		}
	}
	if len(root) == 0 {
		return nil, &Problem{File: file, Msg: "not valid XML: no root element"}
	}
	return root, nil
}

func addChild(m elem, name string, v any) {
	prev, ok := m[name]
	if !ok {
		m[name] = v
		return
	}
	if l, isList := prev.(xmlList); isList {
		m[name] = append(l, v)
		return
	}
	m[name] = xmlList{prev, v}
}

// xmlList is a repeated XML element (a JSON list reads as []any).
type xmlList []any

// items returns the values of a list-valued child: one value is a list of
// one; a missing or null child is empty.
func items(v any) []any {
	switch x := v.(type) {
	case nil:
		return nil
	case []any:
		return x
	case xmlList:
		return x
	case string:
		if x == "" {
			return nil // <users/> or <queues></queues>
		}
	}
	return []any{v}
}

// describe names a value's kind for messages.
func describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case elem:
		return "an object"
	case []any, xmlList:
		return "a list"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	}
	return fmt.Sprintf("%T", v)
}
