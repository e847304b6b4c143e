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
	// MaxLinkBytes is the longest fragment DecodeLink reads.
	MaxLinkBytes = 1 << 20
	// maxSelection bounds the selected queue's name.
	maxSelection = 1024
)

// EncodeLink returns the fragment (without '#') that shares sc at step
// (0: before the first step; n: after step n) with the queue selection
// selected (may be empty).
func EncodeLink(sc *Scenario, step int, selection string) (string, error) {
	if step < 0 || step > len(sc.Steps) {
		return "", fmt.Errorf("link: step %d is outside 0..%d", step, len(sc.Steps))
	}
	data, err := sc.CanonicalJSON()
	if err != nil {
		return "", fmt.Errorf("link: %w", err)
	}
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, flate.BestCompression)
	if err != nil {
		return "", fmt.Errorf("link: %w", err)
	}
	if _, err := w.Write(data); err != nil {
		return "", fmt.Errorf("link: %w", err)
	}
	if err := w.Close(); err != nil {
		return "", fmt.Errorf("link: %w", err)
	}
	frag := "s=" + LinkVersion + "." + base64.RawURLEncoding.EncodeToString(b.Bytes()) + "&t=" + strconv.Itoa(step)
	if selection != "" {
		frag += "&sel=" + url.QueryEscape(selection)
	}
	return frag, nil
}

// DecodeLink reads a fragment made by EncodeLink, with or without its
// leading '#', and returns the scenario, the step and the selection. It
// refuses a fragment longer than MaxLinkBytes, a payload that inflates past
// MaxFileBytes ("link expands past 4 MiB"), an unknown link version and a
// scenario Parse refuses. Parameters it does not know are ignored, so that
// newer links with extra parameters still open.
func DecodeLink(fragment string) (*Scenario, int, string, error) {
	if len(fragment) > MaxLinkBytes {
		return nil, 0, "", fmt.Errorf("link: the link is %d bytes long; the limit is %d", len(fragment), MaxLinkBytes)
	}
	fragment = strings.TrimPrefix(fragment, "#")
	var payload, stepText, selection string
	seen := map[string]bool{}
	for _, part := range strings.Split(fragment, "&") {
		key, val, _ := strings.Cut(part, "=")
		if key == "s" || key == "t" || key == "sel" {
			if seen[key] {
				return nil, 0, "", fmt.Errorf("link: parameter %q appears twice", key)
			}
			seen[key] = true
		}
		switch key {
		case "s":
			payload = val
		case "t":
			stepText = val
		case "sel":
			s, err := url.QueryUnescape(val)
			if err != nil {
				return nil, 0, "", fmt.Errorf("link: the selection is not URL-encoded text: %v", err)
			}
			selection = s
		}
	}
	if payload == "" {
		return nil, 0, "", errors.New("link: no scenario in the link (the s= parameter is missing)")
	}
	version, body, ok := strings.Cut(payload, ".")
	if !ok {
		return nil, 0, "", errors.New("link: the scenario has no version prefix (expected s=1.…)")
	}
	if version != LinkVersion {
		return nil, 0, "", fmt.Errorf("link: version %q is not known to this yarnplay (it reads version %s); the link may come from a newer release", truncate(version, 16), LinkVersion)
	}
	data, err := inflateLink(body)
	if err != nil {
		return nil, 0, "", err
	}
	sc, err := Parse("", data)
	if err != nil {
		return nil, 0, "", fmt.Errorf("link: the scenario is not valid: %w", err)
	}
	step := 0
	if stepText != "" {
		step, err = strconv.Atoi(stepText)
		if err != nil || step < 0 || step > len(sc.Steps) {
			return nil, 0, "", fmt.Errorf("link: step %q is not a step of this scenario (0..%d)", truncate(stepText, 16), len(sc.Steps))
		}
	}
	if len(selection) > maxSelection || strings.ContainsFunc(selection, unicode.IsControl) {
		return nil, 0, "", errors.New("link: the selection is not a queue name")
	}
	return sc, step, selection, nil
}

// inflateLink decodes base64url and inflates, bounded by MaxFileBytes.
func inflateLink(body string) ([]byte, error) {
	raw, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil {
		return nil, fmt.Errorf("link: the scenario is not base64url text (was the link cut or changed?): %v", err)
	}
	r := flate.NewReader(bytes.NewReader(raw))
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("link: the scenario is damaged (was the link cut short?): %v", err)
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("link: link expands past %d MiB", MaxFileBytes>>20)
	}
	return data, nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
