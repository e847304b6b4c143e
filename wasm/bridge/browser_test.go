//go:build js && wasm

package bridge

import (
	"testing"

	"github.com/hack-pad/safejs"
	"github.com/stretchr/testify/require"
)

// These tests run under Node (GOOS=js GOARCH=wasm go test -exec=...
// go_js_wasm_exec), which has neither localStorage nor location: they
// check the errors, then install small stand-ins written in JavaScript.

// install sets globalThis[name] to the value of the JavaScript expression
// src until the test ends.
func install(t *testing.T, name, src string) {
	t.Helper()
	fn, err := safejs.Global().Get("Function")
	require.NoError(t, err)
	factory, err := fn.New("return " + src)
	require.NoError(t, err)
	v, err := factory.Invoke()
	require.NoError(t, err)
	require.NoError(t, safejs.Global().Set(name, v))
	t.Cleanup(func() { _ = safejs.Global().Delete(name) })
}

func TestBrowserStorageWithoutLocalStorage(t *testing.T) {
	_, _, err := LocalStorage().Get("k")
	require.ErrorContains(t, err, "localStorage is not available")
	require.ErrorContains(t, LocalStorage().Set("k", "v"), "localStorage is not available")
}

func TestBrowserStorage(t *testing.T) {
	install(t, "localStorage", `{
		m: new Map(),
		getItem(k) { return this.m.has(k) ? this.m.get(k) : null; },
		setItem(k, v) { this.m.set(k, String(v)); },
	}`)
	s := LocalStorage()
	_, ok, err := s.Get("theme")
	require.NoError(t, err)
	require.False(t, ok)
	require.NoError(t, s.Set("theme", "dark"))
	v, ok, err := s.Get("theme")
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, "dark", v)
}

func TestBrowserStorageReportsExceptions(t *testing.T) {
	install(t, "localStorage", `{
		getItem(k) { return null; },
		setItem(k, v) { throw new Error("QuotaExceededError"); },
	}`)
	err := LocalStorage().Set("big", "value")
	require.ErrorContains(t, err, `localStorage.setItem("big")`)
	require.ErrorContains(t, err, "QuotaExceededError")
}

func TestBrowserFragmentWithoutAPage(t *testing.T) {
	_, err := LocationHash().Get()
	require.ErrorContains(t, err, "location is not available")
	require.ErrorContains(t, LocationHash().Set("x"), "history is not available")
}

func TestBrowserFragment(t *testing.T) {
	install(t, "location", `{hash: "#s=1.abc", pathname: "/lesson", search: "?q=1"}`)
	install(t, "history", `{
		calls: [],
		replaceState(state, title, url) {
			this.calls.push(url);
			const i = url.indexOf("#");
			globalThis.location.hash = i < 0 ? "" : url.slice(i);
		},
	}`)
	f := LocationHash()
	got, err := f.Get()
	require.NoError(t, err)
	require.Equal(t, "s=1.abc", got)

	for _, tt := range []struct{ set, want, url string }{
		{"t=4", "t=4", "#t=4"},
		{"#sel=root.a", "sel=root.a", "#sel=root.a"},
		{"", "", "/lesson?q=1"},
	} {
		require.NoError(t, f.Set(tt.set))
		got, err := f.Get()
		require.NoError(t, err)
		require.Equal(t, tt.want, got, "Set(%q)", tt.set)

		history, err := safejs.Global().Get("history")
		require.NoError(t, err)
		calls, err := history.Get("calls")
		require.NoError(t, err)
		n, err := calls.Length()
		require.NoError(t, err)
		last, err := calls.Index(n - 1)
		require.NoError(t, err)
		url, err := last.String()
		require.NoError(t, err)
		require.Equal(t, tt.url, url, "replaceState's URL for Set(%q)", tt.set)
	}
}
