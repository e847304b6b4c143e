package snapshot

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"strings"
)

// Classify sorts files dropped or pasted together (in any order, under any
// name) by what they hold: the document's top-level key or root element
// (scheduler, nodes, apps, containers or container, configuration or
// property). It refuses a file it cannot tell, two files of one kind
// (containers excepted) and a set without scheduler, nodes and apps, each
// problem naming the file.
func Classify(files []File) (Files, error) {
	var out Files
	var probs Problems
	seen := map[string]string{}
	for _, f := range files {
		kind := sniff(f.Data)
		if prev, dup := seen[kind]; dup && kind != "containers" && kind != "" {
			probs = append(probs, &Problem{File: f.Name, Msg: fmt.Sprintf("is a second %s response (the first is %s)", kind, prev)})
			continue
		}
		seen[kind] = f.Name
		switch kind {
		case "scheduler":
			out.Scheduler = f
		case "nodes":
			out.Nodes = f
		case "apps":
			out.Apps = f
		case "containers":
			out.Containers = append(out.Containers, f)
		case "conf":
			c := f
			out.Conf = &c
		default:
			probs = append(probs, &Problem{File: f.Name, Msg: "is not a ResourceManager response yarnplay reads (scheduler, nodes, apps, an attempt's containers) nor a configuration"})
		}
	}
	for _, k := range []string{"scheduler", "nodes", "apps"} {
		if _, ok := seen[k]; !ok && len(probs) < maxProblems {
			probs = append(probs, &Problem{File: "the snapshot", Msg: fmt.Sprintf("has no %s response (/ws/v1/cluster/%s)", k, k)})
		}
	}
	if len(probs) > 0 {
		return Files{}, probs
	}
	return out, nil
}

// sniff names a document's kind from its first key or root element.
func sniff(data []byte) string {
	t := bytes.TrimLeft(data, " \t\r\n\ufeff")
	var name string
	if len(t) > 0 && t[0] == '<' {
		dec := xml.NewDecoder(bytes.NewReader(t))
		for {
			tok, err := dec.Token()
			if err != nil {
				return ""
			}
			if se, ok := tok.(xml.StartElement); ok {
				name = se.Name.Local
				break
			}
		}
	} else {
		dec := json.NewDecoder(bytes.NewReader(t))
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			return ""
		}
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		name, _ = tok.(string)
	}
	switch strings.ToLower(name) {
	case "scheduler", "nodes", "apps":
		return strings.ToLower(name)
	case "containers", "container":
		return "containers"
	case "configuration", "property":
		return "conf"
	}
	return ""
}
