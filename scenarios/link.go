package scenarios

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"unicode"
)

// Share links carry a scenario, the step the viewer stands on and the
// selected queue in a URL fragment (never sent to a server):
//
//	#s=1.<base64url, no padding, of deflate-raw(canonical JSON)>&t=<step>&sel=<queue>
//
// The "1." prefix is the link version. Version 1 links must keep decoding
// forever: people keep links in tickets and course notes. A future encoding
// gets a new prefix and DecodeLink keeps reading "1." as it does now.

// LinkVersion is the version EncodeLink writes.
const LinkVersion = "1"

// Link bounds.
const (
	// MaxLinkBytes is the longest fragment DecodeLink reads: a quarter of
	// MaxFileBytes, what it may inflate to (DecodeSavedLink's bounds keep
	// the same ratio).
	MaxLinkBytes = MaxFileBytes / 4
	// maxSelection bounds the selected queue's name.
	maxSelection = 1024
	// bestLinkBytes is the largest canonical JSON EncodeLink compresses at
	// deflate's best level; larger work (ten thousand steps and more, which
	// the playground saves as a link after every change) is compressed at
	// the default level: at benchmark 5's 4 MB, 10% longer in a quarter of
	// the time (80 against 320 ms natively).
	bestLinkBytes = 1 << 20
)

// EncodeLink returns the fragment (without '#') that shares sc at step
// (0: before the first step; n: after step n) with the queue selection
// selected (may be empty).
func EncodeLink(sc *Scenario, step int, selection string) (string, error) {
	if step < 0 || step > len(sc.Steps) {
		return "", fmt.Errorf("link: step %d is outside 0..%d", step, len(sc.Steps))
	}
	payload, err := LinkPayload(sc)
	if err != nil {
		return "", err
	}
	return LinkFor(payload, step, selection), nil
}

// LinkPayload is the part of sc's share link that carries the scenario
// ("s=" and its encoding), the same for every step and selection: a
// caller that links to many steps of one scenario encodes it once.
func LinkPayload(sc *Scenario) (string, error) {
	data, err := sc.CanonicalJSON()
	if err != nil {
		return "", fmt.Errorf("link: %w", err)
	}
	if len(data) > MaxSavedBytes {
		return "", fmt.Errorf("link: the scenario is %d MiB of JSON; a link carries at most %d MiB", len(data)>>20, MaxSavedBytes>>20)
	}
	level := flate.BestCompression
	if len(data) > bestLinkBytes {
		level = flate.DefaultCompression
	}
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, level)
	if err != nil {
		return "", fmt.Errorf("link: %w", err)
	}
	if _, err := w.Write(data); err != nil {
		return "", fmt.Errorf("link: %w", err)
	}
	if err := w.Close(); err != nil {
		return "", fmt.Errorf("link: %w", err)
	}
	return "s=" + LinkVersion + "." + base64.RawURLEncoding.EncodeToString(b.Bytes()), nil
}

// LinkFor is EncodeLink's fragment of the scenario whose LinkPayload is
// payload, standing on step (within its steps) with selection selected.
func LinkFor(payload string, step int, selection string) string {
	frag := payload + "&t=" + strconv.Itoa(step)
	if selection != "" {
		frag += "&sel=" + url.QueryEscape(selection)
	}
	return frag
}

// DecodeLink reads a fragment made by EncodeLink, with or without its
// leading '#', and returns the scenario, the step and the selection. It
// refuses a fragment longer than MaxLinkBytes, a payload that inflates past
// MaxFileBytes ("link expands past 4 MiB"), an unknown link version and a
// scenario Parse refuses. Parameters it does not know are ignored, so that
// newer links with extra parameters still open.
func DecodeLink(fragment string) (*Scenario, int, string, error) {
	return decodeLink(fragment, MaxFileBytes)
}

// DecodeSavedLink is DecodeLink for the work a browser kept for itself
// (the playground saves its work as a link after every change): its
// scenario may inflate to MaxSavedBytes, and the link be a quarter of
// that. Playing work makes it longer (every tick is a step), and work
// that was saved must open again.
func DecodeSavedLink(fragment string) (*Scenario, int, string, error) {
	return decodeLink(fragment, MaxSavedBytes)
}

// decodeLink decodes a link whose scenario may inflate to limit bytes.
func decodeLink(fragment string, limit int) (*Scenario, int, string, error) {
	l, err := readLink(fragment, limit)
	if err != nil {
		return nil, 0, "", err
	}
	sc, err := l.scenario()
	if err != nil {
		return nil, 0, "", err
	}
	step, err := l.step(len(sc.Steps))
	if err != nil {
		return nil, 0, "", err
	}
	if err := l.checkSelection(); err != nil {
		return nil, 0, "", err
	}
	return sc, step, l.selection, nil
}

// linkParts is a link read up to its scenario's document, inflated.
type linkParts struct {
	data      []byte
	limit     int
	stepText  string
	selection string
}

// readLink reads a link's parameters and inflates its scenario's document,
// of at most limit bytes.
func readLink(fragment string, limit int) (*linkParts, error) {
	if len(fragment) > limit/4 {
		return nil, fmt.Errorf("link: the link is %d bytes long; the limit is %d", len(fragment), limit/4)
	}
	fragment = strings.TrimPrefix(fragment, "#")
	l := &linkParts{limit: limit}
	var payload string
	seen := map[string]bool{}
	for _, part := range strings.Split(fragment, "&") {
		key, val, _ := strings.Cut(part, "=")
		if key == "s" || key == "t" || key == "sel" {
			if seen[key] {
				return nil, fmt.Errorf("link: parameter %q appears twice", key)
			}
			seen[key] = true
		}
		switch key {
		case "s":
			payload = val
		case "t":
			l.stepText = val
		case "sel":
			s, err := url.QueryUnescape(val)
			if err != nil {
				return nil, fmt.Errorf("link: the selection is not URL-encoded text: %v", err)
			}
			l.selection = s
		}
	}
	if payload == "" {
		return nil, errors.New("link: no scenario in the link (the s= parameter is missing)")
	}
	version, body, ok := strings.Cut(payload, ".")
	if !ok {
		return nil, errors.New("link: the scenario has no version prefix (expected s=1.…)")
	}
	if version != LinkVersion {
		return nil, fmt.Errorf("link: version %q is not known to this yarnplay (it reads version %s); the link may come from a newer release", truncate(version, 16), LinkVersion)
	}
	data, err := inflateLink(body, limit)
	if err != nil {
		return nil, err
	}
	l.data = data
	return l, nil
}

// checkSelection refuses a selection that cannot be a queue's name.
func (l *linkParts) checkSelection() error {
	if len(l.selection) > maxSelection || strings.ContainsFunc(l.selection, unicode.IsControl) {
		return errors.New("link: the selection is not a queue name")
	}
	return nil
}

// scenario parses and validates the link's whole scenario.
func (l *linkParts) scenario() (*Scenario, error) {
	sc, err := parseUpTo("", l.data, l.limit)
	if err != nil {
		return nil, fmt.Errorf("link: the scenario is not valid: %w", err)
	}
	return sc, nil
}

// step is the step the link stands on, in a scenario of steps steps.
func (l *linkParts) step(steps int) (int, error) {
	if l.stepText == "" {
		return 0, nil
	}
	step, err := strconv.Atoi(l.stepText)
	if err != nil || step < 0 || step > steps {
		return 0, fmt.Errorf("link: step %q is not a step of this scenario (0..%d)", truncate(l.stepText, 16), steps)
	}
	return step, nil
}

// inflateLink decodes base64url and inflates, bounded by limit bytes.
func inflateLink(body string, limit int) ([]byte, error) {
	raw, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil {
		return nil, fmt.Errorf("link: the scenario is not base64url text (was the link cut or changed?): %v", err)
	}
	r := flate.NewReader(bytes.NewReader(raw))
	defer r.Close()
	// Saved work inflates to megabytes, which io.ReadAll, starting small,
	// would allocate about twice over.
	var b bytes.Buffer
	b.Grow(min(inflateRatio*len(raw), limit+1))
	_, err = b.ReadFrom(io.LimitReader(r, int64(limit)+1))
	data := b.Bytes()
	if err != nil {
		return nil, fmt.Errorf("link: the scenario is damaged (was the link cut short?): %v", err)
	}
	if len(data) > limit {
		return nil, fmt.Errorf("link: link expands past %d MiB", limit>>20)
	}
	return data, nil
}

// inflateRatio is about how many times larger a link's scenario is than
// its deflated bytes (benchmark 5's saved work: 15).
const inflateRatio = 16

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
