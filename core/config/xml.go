package config

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Limits of ParseXML.
const (
	MaxXMLBytes      = 4 << 20 // 4 MiB
	MaxXMLProperties = 20000
)

func xmlErr(line int, format string, args ...any) *Error {
	return &Error{Line: line, Message: fmt.Sprintf("line %d: ", line) + fmt.Sprintf(format, args...)}
}

// ParseXML reads a Hadoop configuration file (capacity-scheduler.xml,
// yarn-site.xml): <configuration> holding <property> elements with <name>
// and <value> (or Hadoop's short form <property name=".." value=".."/>);
// <description>, <source> and <tag> are ignored. As Hadoop's
// Configuration.Parser does, it trims names but keeps values exactly as
// written (" " stays " "), skips a property whose <value> is empty or
// missing (Hadoop does not set it), keeps the first value of a property
// marked <final>true</final>, and lets a later property override an earlier
// one otherwise.
//
// It is stricter than Hadoop where Hadoop silently drops text: a <property>
// without a name, an element other than <property> in <configuration>,
// markup inside <name> or <value>, and <xi:include> are errors naming their
// line. Input over MaxXMLBytes or with more than MaxXMLProperties properties
// is refused.
func ParseXML(data []byte) (*Conf, error) { return parseXML(data, false) }

// ParseXMLText is ParseXML for text already decoded (pasted into the
// page): the encoding its declaration names is not applied again.
func ParseXMLText(text string) (*Conf, error) { return parseXML([]byte(text), true) }

func parseXML(data []byte, decoded bool) (*Conf, error) {
	if len(data) > MaxXMLBytes {
		return nil, &Error{Message: fmt.Sprintf("configuration XML too large: %d bytes, the limit is %d bytes (4 MiB)",
			len(data), MaxXMLBytes)}
	}
	data, err := xmlText(data)
	if err != nil {
		return nil, err
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	d.CharsetReader = charsetReader
	if decoded {
		d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	}

	c := New()
	finals := map[string]bool{}
	var (
		depth, count, propLine int
		sawRoot, rootClosed    bool
		field                  string // "name", "value", "final" or "" while in a property
		text                   strings.Builder
		attrName, attrValue    *string
		elemName, elemValue    *string
		final                  bool
	)
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		line, _ := d.InputPos()
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return nil, xmlErr(se.Line, "invalid XML: %s", se.Msg)
			}
			return nil, xmlErr(line, "invalid XML: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			switch depth {
			case 1:
				if rootClosed {
					return nil, xmlErr(line, "element <%s> after </configuration>", t.Name.Local)
				}
				if t.Name.Local != "configuration" {
					return nil, xmlErr(line, "the root element must be <configuration>, not <%s>", t.Name.Local)
				}
				sawRoot = true
			case 2:
				switch t.Name.Local {
				case "property":
					if count++; count > MaxXMLProperties {
						return nil, xmlErr(line, "too many properties: the limit is %d", MaxXMLProperties)
					}
					propLine, field, final = line, "", false
					attrName, attrValue, elemName, elemValue = nil, nil, nil, nil
					for _, a := range t.Attr {
						v := a.Value
						switch a.Name.Local {
						case "name":
							attrName = &v
						case "value":
							attrValue = &v
						case "final":
							final = v == "true"
						}
					}
				case "include":
					return nil, xmlErr(line, "<%s:include> is not supported: put the included properties in this file",
						t.Name.Space)
				default:
					return nil, xmlErr(line, "unexpected element <%s> in <configuration>: expected <property>", t.Name.Local)
				}
			case 3:
				switch t.Name.Local {
				case "name", "value", "final":
					field = t.Name.Local
					text.Reset()
				default: // description, source, tag and anything else: ignored
					field = ""
				}
			default:
				if field != "" {
					return nil, xmlErr(line, "unexpected element <%s> inside <%s>", t.Name.Local, field)
				}
			}
		case xml.EndElement:
			switch depth {
			case 1:
				rootClosed = true
			case 2:
				name := attrName
				if elemName != nil {
					name = elemName
				}
				if name == nil {
					return nil, xmlErr(propLine, "<property> without a <name>")
				}
				key := javaTrim(*name)
				if key == "" {
					return nil, xmlErr(propLine, "<property> with an empty <name>")
				}
				value := attrValue
				if elemValue != nil {
					value = elemValue
				}
				if value != nil && !finals[key] {
					c.Set(key, *value)
				}
				if final {
					finals[key] = true
				}
			case 3:
				s := text.String()
				switch field {
				case "name":
					if s != "" {
						n := javaTrim(s)
						elemName = &n
					}
				case "value":
					if s != "" {
						elemValue = &s
					}
				case "final":
					final = s == "true"
				}
				field = ""
			}
			depth--
		case xml.CharData:
			switch {
			case depth == 0:
				if len(bytes.TrimSpace(t)) > 0 {
					return nil, xmlErr(line, "text outside <configuration>")
				}
			case depth == 3 && field != "":
				text.Write(t)
			}
		}
	}
	if !sawRoot {
		return nil, xmlErr(1, "no <configuration> element")
	}
	return c, nil
}

// XML returns the configuration as a capacity-scheduler.xml Hadoop reads:
// global yarn.* properties first, sorted; then each queue's properties, in
// queue-tree order (root first, depth first in `queues` list order), sorted
// within a queue; then every other property, sorted. Names and values are
// XML-escaped (a carriage return as &#13;, so that it survives; characters
// XML 1.0 cannot carry become U+FFFD). A property whose value is empty is
// written in Hadoop's short form, <property value=""><name>..</name></property>,
// because Hadoop skips a property with an empty <value> element.
// ParseXML(c.XML()) gives back c's properties.
func (c *Conf) XML() []byte {
	var b bytes.Buffer
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<configuration>\n")
	global, queues, order, rest := c.sections()
	writeAll := func(keys []string) {
		for _, k := range keys {
			v := c.props[k]
			if v == "" {
				b.WriteString("  <property value=\"\">\n    <name>")
				xmlEscape(&b, k)
				b.WriteString("</name>\n  </property>\n")
				continue
			}
			b.WriteString("  <property>\n    <name>")
			xmlEscape(&b, k)
			b.WriteString("</name>\n    <value>")
			xmlEscape(&b, v)
			b.WriteString("</value>\n  </property>\n")
		}
	}
	writeAll(global)
	for _, path := range order {
		if keys := queues[path]; len(keys) > 0 {
			if commentSafe(path) {
				fmt.Fprintf(&b, "  <!-- queue %s -->\n", path)
			}
			writeAll(keys)
		}
	}
	writeAll(rest)
	b.WriteString("</configuration>\n")
	return b.Bytes()
}

// queueSubtrees are the dotted per-queue suffixes (the others have no dot),
// used to tell a queue's own property from one of a queue not in the tree.
var queueSubtrees = []string{SuffixUserSettings, SuffixAccessibleNodeLabels, SuffixOrderingPolicy,
	"auto-create-child-queue", "leaf-queue-template", "auto-queue-creation-v2", "intra-queue-preemption"}

// sections splits the property names for XML: global yarn.* names, names
// per queue path, the queue paths in tree order, and the rest; all sorted.
func (c *Conf) sections() (global []string, queues map[string][]string, order []string, rest []string) {
	queues = map[string][]string{}
	inTree := map[string]bool{}
	var walk func(path string)
	walk = func(path string) {
		inTree[path] = true
		order = append(order, path)
		v, _ := c.Get(QueueKey(path, SuffixQueues))
		for _, n := range splitQueueNames(v) {
			if child := path + "." + n; n != "" && !strings.Contains(n, ".") && !inTree[child] {
				walk(child)
			}
		}
	}
	walk(RootQueue)
	for _, k := range c.Keys() {
		if path, ok := keyQueue(k, inTree); ok {
			queues[path] = append(queues[path], k)
		} else if strings.HasPrefix(k, "yarn.") && !strings.HasPrefix(k, Prefix+RootQueue+".") {
			global = append(global, k)
		} else {
			rest = append(rest, k)
		}
	}
	return global, queues, order, rest
}

// keyQueue finds the queue of the tree a per-queue property belongs to: the
// longest queue path P with the name Prefix + P + "." + suffix, where suffix
// has no dot or starts with a known dotted per-queue setting.
func keyQueue(k string, inTree map[string]bool) (string, bool) {
	body, ok := strings.CutPrefix(k, Prefix)
	if !ok {
		return "", false
	}
	best := ""
	for i := 0; i < len(body); i++ {
		if body[i] == '.' && inTree[body[:i]] {
			best = body[:i]
		}
	}
	if best == "" {
		return "", false
	}
	suffix := body[len(best)+1:]
	first, _, dotted := strings.Cut(suffix, ".")
	if !dotted {
		return best, true
	}
	for _, s := range queueSubtrees {
		if first == s {
			return best, true
		}
	}
	return "", false
}

// xmlEscape writes s as XML 1.0 character data.
func xmlEscape(b *bytes.Buffer, s string) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '\r':
			b.WriteString("&#13;")
		case r == utf8.RuneError && size == 1, !isXMLChar(r):
			b.WriteRune('\uFFFD')
		default:
			b.WriteRune(r)
		}
	}
}

func isXMLChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// commentSafe reports whether s can be written inside an XML comment.
func commentSafe(s string) bool {
	if strings.Contains(s, "--") || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !isXMLChar(r) {
			return false
		}
	}
	return true
}
