//go:build js && wasm

package bridge

import (
	"fmt"
	"strings"

	"github.com/hack-pad/safejs"
)

// LocalStorage returns the browser's window.localStorage. Its methods return
// an error when the page has no localStorage (some private modes, Node) or
// the browser refuses access.
func LocalStorage() Storage { return browserStorage{} }

// LocationHash returns the page address's fragment (window.location.hash).
// Set replaces the current history entry rather than adding one, so that
// stepping through a scenario does not fill the back button's history.
func LocationHash() Fragment { return browserFragment{} }

type browserStorage struct{}

func (browserStorage) storage() (safejs.Value, error) {
	s, err := safejs.Global().Get("localStorage")
	if err != nil {
		return safejs.Value{}, fmt.Errorf("localStorage: %w", err)
	}
	if s.IsUndefined() || s.IsNull() {
		return safejs.Value{}, fmt.Errorf("localStorage is not available in this page (private mode, or not a browser)")
	}
	return s, nil
}

func (b browserStorage) Get(key string) (string, bool, error) {
	s, err := b.storage()
	if err != nil {
		return "", false, err
	}
	v, err := s.Call("getItem", key)
	if err != nil {
		return "", false, fmt.Errorf("localStorage.getItem(%q): %w", key, err)
	}
	if v.IsNull() || v.IsUndefined() {
		return "", false, nil
	}
	str, err := v.String()
	if err != nil {
		return "", false, fmt.Errorf("localStorage.getItem(%q): %w", key, err)
	}
	return str, true, nil
}

func (b browserStorage) Set(key, value string) error {
	s, err := b.storage()
	if err != nil {
		return err
	}
	if _, err := s.Call("setItem", key, value); err != nil {
		// Browsers throw QuotaExceededError when the origin's storage is full.
		return fmt.Errorf("localStorage.setItem(%q): %w", key, err)
	}
	return nil
}

type browserFragment struct{}

func (browserFragment) Get() (string, error) {
	loc, err := safejs.Global().Get("location")
	if err != nil {
		return "", fmt.Errorf("location: %w", err)
	}
	if loc.IsUndefined() || loc.IsNull() {
		return "", fmt.Errorf("location is not available (not a browser page)")
	}
	h, err := loc.Get("hash")
	if err != nil {
		return "", fmt.Errorf("location.hash: %w", err)
	}
	s, err := h.String()
	if err != nil {
		return "", fmt.Errorf("location.hash: %w", err)
	}
	return strings.TrimPrefix(s, "#"), nil
}

func (browserFragment) Set(v string) error {
	history, err := safejs.Global().Get("history")
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	if history.IsUndefined() || history.IsNull() {
		return fmt.Errorf("history is not available (not a browser page)")
	}
	frag := strings.TrimPrefix(v, "#")
	url := "#" + frag
	if frag == "" {
		// An empty fragment: keep the path and query, drop the '#'.
		loc, err := safejs.Global().Get("location")
		if err != nil {
			return fmt.Errorf("location: %w", err)
		}
		p, err := loc.Get("pathname")
		if err != nil {
			return fmt.Errorf("location.pathname: %w", err)
		}
		q, err := loc.Get("search")
		if err != nil {
			return fmt.Errorf("location.search: %w", err)
		}
		ps, err := p.String()
		if err != nil {
			return fmt.Errorf("location.pathname: %w", err)
		}
		qs, err := q.String()
		if err != nil {
			return fmt.Errorf("location.search: %w", err)
		}
		url = ps + qs
	}
	if _, err := history.Call("replaceState", nil, "", url); err != nil {
		return fmt.Errorf("history.replaceState(%q): %w", url, err)
	}
	return nil
}
