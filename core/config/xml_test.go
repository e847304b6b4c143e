package config

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseXMLFile(t *testing.T) {
	data, err := os.ReadFile("testdata/yarnrollers.xml")
	require.NoError(t, err)
	c, err := ParseXML(data)
	require.NoError(t, err)
	v, ok := c.Get("yarn.scheduler.capacity.root.queues")
	require.True(t, ok, "names are trimmed")
	require.Equal(t, "grumpy-engineers,finance-wizards,marketing-moguls", v)
	v, _ = c.Get("yarn.scheduler.capacity.root.acl_submit_applications")
	require.Equal(t, " ", v, "a single space survives")
	v, _ = c.Get("yarn.scheduler.capacity.root.finance-wizards.acl_submit_applications")
	require.Equal(t, "sherlock cfo-group", v, "CDATA")
	_, ok = c.Get("yarn.scheduler.capacity.queue-mappings")
	require.False(t, ok, "Hadoop does not set a property with an empty <value>")
	v, _ = c.Get("yarn.acl.enable")
	require.Equal(t, "true", v, "short form")
	require.Equal(t, 21, c.Len())

	parsed, err := Parse(c, Hadoop3)
	require.NoError(t, err)
	require.True(t, parsed.Settings.ACLEnabled)
	require.InDelta(t, 0.4, parsed.Queue("root.grumpy-engineers.infinite-monkeys").AbsMaxCapacity, 1e-6)
	require.Equal(t, []string{"sherlock"}, parsed.Queue("root.finance-wizards").SubmitACL.Users)

	back, err := ParseXML(c.XML())
	require.NoError(t, err)
	require.Equal(t, c.Map(), back.Map())
}

func TestParseXML(t *testing.T) {
	for _, tc := range []struct {
		name string
		xml  string
		want map[string]string
	}{
		{"empty configuration", `<configuration/>`, map[string]string{}},
		{"values kept as written", `<configuration><property><name>a</name><value>  x
 y </value></property></configuration>`, map[string]string{"a": "  x\n y "}},
		{"entities and character references", `<configuration><property><name>a&amp;b</name><value>&lt;&gt;&quot;&apos;&#13;&#x41;</value></property></configuration>`,
			map[string]string{"a&b": "<>\"'\rA"}},
		{"later overrides earlier", `<configuration><property><name>a</name><value>1</value></property><property><name>a</name><value>2</value></property></configuration>`,
			map[string]string{"a": "2"}},
		{"final keeps the first value", `<configuration><property><name>a</name><value>1</value><final>true</final></property><property><name>a</name><value>2</value></property></configuration>`,
			map[string]string{"a": "1"}},
		{"final attribute", `<configuration><property name="a" value="1" final="true"/><property name="a" value="2"/></configuration>`,
			map[string]string{"a": "1"}},
		{"short form with an empty value", `<configuration><property name=" a " value=""/></configuration>`, map[string]string{"a": ""}},
		{"element overrides attribute", `<configuration><property name="a" value="1"><name>b</name><value>2</value></property></configuration>`,
			map[string]string{"b": "2"}},
		{"empty <value> keeps the attribute", `<configuration><property value=""><name>a</name><value/></property></configuration>`,
			map[string]string{"a": ""}},
		{"no value: not set", `<configuration><property><name>a</name></property><property><name>b</name><value></value></property></configuration>`,
			map[string]string{}},
		{"description, source, tag and unknown children ignored", `<configuration><property><name>a</name><value>1</value>
			<description>some <b>text</b></description><source>x</source><tag>t</tag><other/></property></configuration>`,
			map[string]string{"a": "1"}},
		{"comments, processing instructions, doctype, BOM", "\ufeff<?xml version=\"1.0\" encoding=\"UTF-8\"?><!DOCTYPE configuration><!-- c --><configuration><!-- c --><property><name>a</name><value>1<!-- c -->2</value></property></configuration>",
			map[string]string{"a": "12"}},
		{"latin-1", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><configuration><property><name>a</name><value>caf\xe9</value></property></configuration>",
			map[string]string{"a": "café"}},
		{"CRLF line ends", "<configuration>\r\n<property><name>a</name><value>x\r\ny</value></property></configuration>",
			map[string]string{"a": "x\ny"}},
	} {
		c, err := ParseXML([]byte(tc.xml))
		require.NoError(t, err, tc.name)
		require.Equal(t, tc.want, c.Map(), tc.name)
	}
}

func TestParseXMLErrors(t *testing.T) {
	for _, tc := range []struct {
		xml, msg string
		line     int
	}{
		{"", "line 1: no <configuration> element", 1},
		{"<conf/>", "line 1: the root element must be <configuration>, not <conf>", 1},
		{"<configuration>\n<property>\n<value>1</value>\n</property></configuration>", "line 2: <property> without a <name>", 2},
		{"<configuration><property><name> </name><value>1</value></property></configuration>", "line 1: <property> with an empty <name>", 1},
		{"<configuration>\n\n<propery><name>a</name></propery></configuration>", "line 3: unexpected element <propery> in <configuration>: expected <property>", 3},
		{"<configuration><property><name>a</name><value>1<b/></value></property></configuration>", "line 1: unexpected element <b> inside <value>", 1},
		{"<configuration xmlns:xi=\"http://www.w3.org/2001/XInclude\"><xi:include href=\"x.xml\"/></configuration>",
			"line 1: <http://www.w3.org/2001/XInclude:include> is not supported: put the included properties in this file", 1},
		{"<configuration>\n<property><name>a</name><value>1</value></property>", "line 2: invalid XML: unexpected EOF", 2},
		{"<configuration><property><name>a</name><value>&nbsp;</value></property></configuration>", "line 1: invalid XML: invalid character entity &nbsp;", 1},
		{"<configuration/><configuration/>", "line 1: element <configuration> after </configuration>", 1},
		{"<configuration/>junk", "line 1: text outside <configuration>", 1},
		{"<?xml version=\"1.0\" encoding=\"EBCDIC\"?><configuration/>", `line 1: invalid XML: xml: opening charset "EBCDIC": unsupported encoding "EBCDIC": save the file as UTF-8`, 1},
		{"<configuration><property><name>a</name><value>\x01</value></property></configuration>", "line 1: invalid XML: illegal character code U+0001", 1},
	} {
		_, err := ParseXML([]byte(tc.xml))
		var e *Error
		require.ErrorAs(t, err, &e, tc.xml)
		require.Equal(t, tc.msg, e.Error(), tc.xml)
		require.Equal(t, tc.line, e.Line, tc.xml)
	}
}

func TestParseXMLLimits(t *testing.T) {
	big := make([]byte, MaxXMLBytes+1)
	_, err := ParseXML(big)
	require.EqualError(t, err, "configuration XML too large: 4194305 bytes, the limit is 4194304 bytes (4 MiB)")

	var b strings.Builder
	b.WriteString("<configuration>\n")
	for i := 0; i <= MaxXMLProperties; i++ {
		b.WriteString("<property name=\"k\" value=\"v\"/>\n")
	}
	b.WriteString("</configuration>")
	_, err = ParseXML([]byte(b.String()))
	require.EqualError(t, err, "line 20002: too many properties: the limit is 20000")
}

func TestXMLOrderAndRoundTrip(t *testing.T) {
	c := yarnRollers(
		"yarn.scheduler.minimum-allocation-mb", "1024",
		"yarn.acl.enable", "true",
		Prefix+"maximum-applications", "100",
		p+"acl_submit_applications", " ",
		p+"finance-wizards.acl_submit_applications", "",
		p+"finance-wizards.user-settings.bob.weight", "1",
		p+"ghost.capacity", "5",
		"hadoop.tmp.dir", "/tmp/<x> & \"y\"\r\n\tz]]>",
		"zzz", "\x01bad",
	)
	out := string(c.XML())
	require.True(t, strings.HasPrefix(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<configuration>\n"))
	var names []string
	for _, line := range strings.Split(out, "\n") {
		if n, ok := strings.CutPrefix(strings.TrimSpace(line), "<name>"); ok {
			names = append(names, strings.TrimSuffix(n, "</name>"))
		}
	}
	require.Equal(t, []string{
		"yarn.acl.enable",
		"yarn.scheduler.capacity.maximum-applications",
		"yarn.scheduler.minimum-allocation-mb",
		p + "acl_submit_applications",
		p + "queues",
		p + "grumpy-engineers.capacity",
		p + "grumpy-engineers.queues",
		p + "grumpy-engineers.infinite-monkeys.capacity",
		p + "grumpy-engineers.pesky-testers.capacity",
		p + "finance-wizards.acl_submit_applications",
		p + "finance-wizards.capacity",
		p + "finance-wizards.queues",
		p + "finance-wizards.user-settings.bob.weight",
		p + "finance-wizards.meticulous-accountants.capacity",
		p + "finance-wizards.thrifty-treasurers.capacity",
		p + "marketing-moguls.capacity",
		p + "marketing-moguls.queues",
		p + "marketing-moguls.brand-exploders.capacity",
		p + "marketing-moguls.social-savants.capacity",
		"hadoop.tmp.dir",
		p + "ghost.capacity",
		"zzz",
	}, names)
	require.Contains(t, out, "  <property value=\"\">\n    <name>"+p+"finance-wizards.acl_submit_applications</name>\n  </property>\n")
	require.Contains(t, out, "<value>/tmp/&lt;x&gt; &amp; \"y\"&#13;\n\tz]]&gt;</value>")
	require.Contains(t, out, "  <!-- queue root.grumpy-engineers.infinite-monkeys -->\n")

	back, err := ParseXML([]byte(out))
	require.NoError(t, err)
	want := c.Map()
	want["zzz"] = "\uFFFDbad" // XML 1.0 cannot carry U+0001
	require.Equal(t, want, back.Map())
	require.Equal(t, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<configuration>\n</configuration>\n", string(New().XML()))

	odd := kv(p+"queues", "a\x01b,c--d", p+"a\x01b.capacity", "50", p+"c--d.capacity", "50")
	out = string(odd.XML())
	require.NotContains(t, out, "<!-- queue root.a")
	require.NotContains(t, out, "<!-- queue root.c--d")
	back, err = ParseXML([]byte(out))
	require.NoError(t, err)
	require.Len(t, back.Map(), 3)

	var zero Conf
	zero.Set("k", "v")
	require.Equal(t, map[string]string{"k": "v"}, zero.Map())
}

func FuzzParseXML(f *testing.F) {
	if data, err := os.ReadFile("testdata/yarnrollers.xml"); err == nil {
		f.Add(data)
	}
	f.Add([]byte(`<configuration><property><name>a</name><value> </value></property><property name="b" value=""/></configuration>`))
	f.Add([]byte("<configuration><property><name>a&#13;</name><value>&#13;x\r\n</value><final>true</final></property></configuration>"))
	f.Add([]byte(`<configuration><property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property></configuration>`))
	f.Add([]byte(`<?xml version="1.0" encoding="latin1"?><configuration><property name="x" value="&lt;"/></configuration>`))
	f.Add(utf16Bytes(`<?xml version="1.0" encoding="UTF-16"?><configuration><property name="x" value="é"/></configuration>`, false, true))
	f.Add([]byte("<configuration><property><name>a</name><value>caf\xe9</value></property></configuration>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseXML(data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error is not *Error: %T %v", err, err)
			}
			return
		}
		out := c.XML()
		back, err := ParseXML(out)
		if err != nil {
			t.Fatalf("re-parse failed: %v\n%s", err, out)
		}
		require.Equal(t, c.Map(), back.Map())
		_, _ = Parse(c, Hadoop3) // must not panic
	})
}
