package config

import (
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/require"
)

// utf16Bytes writes s as UTF-16, with a byte order mark when bom is set.
func utf16Bytes(s string, bigEndian, bom bool) []byte {
	units := utf16.Encode([]rune(s))
	if bom {
		units = append([]uint16{0xfeff}, units...)
	}
	out := make([]byte, 0, 2*len(units))
	for _, u := range units {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

// TestParseXMLReadsTheEncodingsHadoopReads: UTF-8 (with or without its
// byte order mark), UTF-16 either way round (by its mark, or by the "<?"
// of its declaration) and ISO-8859-1 all give café, and a character
// outside the BMP survives UTF-16.
func TestParseXMLReadsTheEncodingsHadoopReads(t *testing.T) {
	doc := func(enc string) string {
		return `<?xml version="1.0" encoding="` + enc + `"?>` + "\n<configuration><property><name>a</name><value>café 𝄞</value></property></configuration>"
	}
	for name, data := range map[string][]byte{
		"utf-8":                 []byte(doc("UTF-8")),
		"utf-8, no declaration": []byte("<configuration><property><name>a</name><value>café 𝄞</value></property></configuration>"),
		"utf-8 with a BOM":      append([]byte("\xef\xbb\xbf"), doc("utf-8")...),
		"utf-16be with a BOM":   utf16Bytes(doc("UTF-16"), true, true),
		"utf-16le with a BOM":   utf16Bytes(doc("UTF-16"), false, true),
		"utf-16le, no BOM":      utf16Bytes(doc("UTF-16LE"), false, false),
		"utf-16be, no BOM":      utf16Bytes(doc("UTF-16BE"), true, false),
	} {
		c, err := ParseXML(data)
		require.NoError(t, err, name)
		require.Equal(t, map[string]string{"a": "café 𝄞"}, c.Map(), name)
	}
	for _, enc := range []string{"ISO-8859-1", "iso-8859-1", "latin1", "ISO_8859-1"} {
		c, err := ParseXML([]byte(`<?xml version='1.0' encoding='` + enc + `'?><configuration><property><name>a</name><value>caf` + "\xe9" + `</value></property></configuration>`))
		require.NoError(t, err, enc)
		require.Equal(t, map[string]string{"a": "café"}, c.Map(), enc)
	}
}

func TestParseXMLSaysWhereBytesAreInvalid(t *testing.T) {
	for _, tc := range []struct {
		data []byte
		msg  string
		line int
	}{
		{[]byte("<configuration>\n<property><name>a</name><value>caf\xe9</value></property></configuration>"),
			"line 2: invalid UTF-8 at byte 50 (0xe9): save the file as UTF-8, or declare its encoding (<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>)", 2},
		{[]byte(`<?xml version="1.0" encoding="UTF-8"?><configuration><property><name>yarn.scheduler.capacity.root.queues</name><value>a` + "\xff" + `</value></property></configuration>`),
			"line 1: invalid UTF-8 at byte 119 (0xff): save the file as UTF-8, or declare its encoding (<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>)", 1},
		{[]byte("\xff\xfe<\x00c"), "line 1: invalid UTF-16: the file has an odd number of bytes (5)", 1},
		{append(utf16Bytes("<configuration>\n", false, true), 0x00, 0xd8, 'a', 0), "line 2: invalid UTF-16 at byte 34: an unpaired surrogate", 2},
	} {
		_, err := ParseXML(tc.data)
		var e *Error
		require.ErrorAs(t, err, &e, "%q", tc.data)
		require.Equal(t, tc.msg, e.Error())
		require.Equal(t, tc.line, e.Line)
	}
}

// Pasted text is already decoded: a declared ISO-8859-1 is not applied
// again (café would become cafÃ©).
func TestParseXMLTextIgnoresTheDeclaredEncoding(t *testing.T) {
	text := `<?xml version="1.0" encoding="ISO-8859-1"?><configuration><property><name>a</name><value>café</value></property></configuration>`
	c, err := ParseXMLText(text)
	require.NoError(t, err)
	require.Equal(t, map[string]string{"a": "café"}, c.Map())
	c, err = ParseXML([]byte(text))
	require.NoError(t, err)
	require.Equal(t, map[string]string{"a": "cafÃ©"}, c.Map(), "as bytes, the declaration applies")
}
