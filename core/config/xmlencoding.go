package config

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// xmlText turns a configuration file's bytes into the UTF-8 that
// encoding/xml reads, as Java's XML parser reads what Hadoop's
// Configuration loads: a UTF-8 byte order mark is dropped; UTF-16 (by its
// byte order mark, or by "<?" written in it) is decoded; a file that
// declares no encoding, or UTF-8, must be valid UTF-8, and an invalid byte
// is named by its offset and line. A declared ISO-8859-1 is
// charsetReader's.
//
// It is written by hand, with unicode/utf16, rather than with
// golang.org/x/text: the three encodings Hadoop's files come in are a few
// lines each, and not worth a dependency in the browser's binary.
func xmlText(data []byte) ([]byte, error) {
	switch {
	case bytes.HasPrefix(data, []byte("\xef\xbb\xbf")):
		data = data[3:]
	case bytes.HasPrefix(data, []byte("\xfe\xff")):
		return fromUTF16(data[2:], true, 2)
	case bytes.HasPrefix(data, []byte("\xff\xfe")):
		return fromUTF16(data[2:], false, 2)
	case bytes.HasPrefix(data, []byte("\x00<\x00?")):
		return fromUTF16(data, true, 0)
	case bytes.HasPrefix(data, []byte("<\x00?\x00")):
		return fromUTF16(data, false, 0)
	}
	if enc := declaredEncoding(data); enc == "" || strings.EqualFold(enc, "utf-8") || strings.EqualFold(enc, "utf8") {
		if err := validUTF8(data); err != nil {
			return nil, err
		}
	}
	return data, nil
}

// validUTF8 says where data stops being UTF-8, if it does.
func validUTF8(data []byte) error {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			line := 1 + bytes.Count(data[:i], []byte("\n"))
			return xmlErr(line, "invalid UTF-8 at byte %d (0x%02x): save the file as UTF-8, or declare its encoding (<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>)",
				i, data[i])
		}
		i += n
	}
	return nil
}

// fromUTF16 decodes UTF-16 text (big- or little-endian) to UTF-8; offset is
// where the text starts in the file (after its byte order mark), for the
// messages.
func fromUTF16(data []byte, bigEndian bool, offset int) ([]byte, error) {
	if len(data)%2 != 0 {
		return nil, xmlErr(1, "invalid UTF-16: the file has an odd number of bytes (%d)", len(data)+offset)
	}
	units := make([]uint16, len(data)/2)
	for i := range units {
		hi, lo := data[2*i], data[2*i+1]
		if !bigEndian {
			hi, lo = lo, hi
		}
		units[i] = uint16(hi)<<8 | uint16(lo)
	}
	out := make([]byte, 0, len(units))
	line := 1
	for i := 0; i < len(units); i++ {
		u := units[i]
		r := rune(u)
		switch {
		case utf16.IsSurrogate(r) && i+1 < len(units) && utf16.DecodeRune(r, rune(units[i+1])) != utf8.RuneError:
			r = utf16.DecodeRune(r, rune(units[i+1]))
			i++
		case utf16.IsSurrogate(r):
			return nil, xmlErr(line, "invalid UTF-16 at byte %d: an unpaired surrogate", offset+2*i)
		case r == '\n':
			line++
		}
		out = utf8.AppendRune(out, r)
	}
	return out, nil
}

// declaredEncoding is the encoding an XML declaration at the start of data
// names ("" when there is none).
func declaredEncoding(data []byte) string {
	if !bytes.HasPrefix(data, []byte("<?xml")) {
		return ""
	}
	end := bytes.Index(data, []byte("?>"))
	if end < 0 {
		return ""
	}
	decl := string(data[:end])
	i := strings.Index(decl, "encoding")
	if i < 0 {
		return ""
	}
	rest := strings.TrimLeft(decl[i+len("encoding"):], " \t\r\n")
	if !strings.HasPrefix(rest, "=") {
		return ""
	}
	rest = strings.TrimLeft(rest[1:], " \t\r\n")
	if rest == "" || (rest[0] != '"' && rest[0] != '\'') {
		return ""
	}
	q := rest[0]
	if j := strings.IndexByte(rest[1:], q); j >= 0 {
		return rest[1 : 1+j]
	}
	return ""
}

// charsetReader reads the encodings a configuration file may declare
// besides UTF-8: ISO-8859-1 (and US-ASCII, its subset), byte for byte;
// UTF-16, which xmlText has already decoded.
func charsetReader(label string, input io.Reader) (io.Reader, error) {
	switch strings.ToLower(label) {
	case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1", "us-ascii", "ascii":
		b, err := io.ReadAll(input)
		if err != nil {
			return nil, err
		}
		out := make([]byte, 0, len(b))
		for _, c := range b {
			out = utf8.AppendRune(out, rune(c))
		}
		return bytes.NewReader(out), nil
	case "utf-16", "utf16", "utf-16le", "utf-16be":
		return input, nil
	}
	return nil, fmt.Errorf("unsupported encoding %q: save the file as UTF-8", label)
}
