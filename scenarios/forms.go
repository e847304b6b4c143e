package scenarios

import "encoding/json"

// The format lets several values be written in a short or a long form (a
// string or a list of strings; one map or a list of maps). These types hold
// the long form and encode the shortest one, so canonical JSON and links
// stay small; the loader reads both.

// Texts is a list of texts written as one string or a list of strings
// (`config_error`, a step's `error`). It encodes as a string when it has
// one element.
type Texts []string

// MarshalJSON encodes one text as a string, several as a list.
func (t Texts) MarshalJSON() ([]byte, error) {
	if len(t) == 1 {
		return json.Marshal(t[0])
	}
	return json.Marshal([]string(t))
}

// Asks is the value of a `request` step: one ask (a map) or a list of asks
// that form one allocate call. It encodes as a map when it has one element.
type Asks []Ask

// MarshalJSON encodes one ask as a map, several as a list.
func (a Asks) MarshalJSON() ([]byte, error) {
	if len(a) == 1 {
		return json.Marshal(a[0])
	}
	return json.Marshal([]Ask(a))
}

// Heartbeats is the value of a `heartbeat` step: a node name, {node, times},
// or a list whose items are node names or {node, times} maps. It encodes in
// the shortest of those forms.
type Heartbeats []HeartbeatSpec

// MarshalJSON encodes a single heartbeat as "node" or {node, times}, several
// as a list of such items.
func (h Heartbeats) MarshalJSON() ([]byte, error) {
	if len(h) == 1 {
		return json.Marshal(h[0])
	}
	return json.Marshal([]HeartbeatSpec(h))
}

// MarshalJSON encodes a single heartbeat as the node's name, repeated ones
// as {node, times}.
func (h HeartbeatSpec) MarshalJSON() ([]byte, error) {
	if h.Times <= 1 {
		return json.Marshal(h.Node)
	}
	type plain HeartbeatSpec
	return json.Marshal(plain(h))
}
