package protocol

import (
	"encoding/json"
	"errors"
	"fmt"

	"yarnplay/scenarios"
	"yarnplay/scenarios/snapshot"
)

// Version is the protocol's version, the first byte of every message. A
// message of another version is refused (the page and the worker come
// from the same app.wasm, so they differ only across an update).
const Version = 2

// Op names a command.
type Op string

// The commands: the store's actions (each publishes a frame) and its
// questions (Check, Link, ExportYAML, ExportXML, Save: no frame unless
// they fail).
const (
	// Time travel and selection.
	OpJump            Op = "jump"             // Step
	OpFirst           Op = "first"            //
	OpLast            Op = "last"             //
	OpBack            Op = "back"             //
	OpForward         Op = "forward"          //
	OpForwardTick     Op = "forward-tick"     //
	OpPlayStep        Op = "play-step"        // Reply.Played
	OpReset           Op = "reset"            //
	OpFork            Op = "fork"             //
	OpSelect          Op = "select"           // Queue ("" none); Toggle: a second select of the same queue selects none
	OpSelectUser      Op = "select-user"      // User
	OpSelectPartition Op = "select-partition" // Name: the node label ("" the default partition)
	OpClearError      Op = "clear-error"      //
	OpReport          Op = "report"           // Text: an error of the page's own, shown in the frame

	// Actions on the cluster and the work.
	OpSubmit           Op = "submit"            // Submit
	OpRequest          Op = "request"           // Asks
	OpHeartbeat        Op = "heartbeat"         // Node ("" the next)
	OpTick             Op = "tick"              // N
	OpFinishContainers Op = "finish-containers" // App, N, Node
	OpFinishApp        Op = "finish-app"        // App
	OpKillApp          Op = "kill-app"          // App, User (by)
	OpAddNodes         Op = "add-nodes"         // Nodes; Exclusive: a label they carry that is new is exclusive
	OpRemoveNode       Op = "remove-node"       // Node
	OpSetGroups        Op = "set-groups"        // User, Groups
	OpSetConfig        Op = "set-config"        // Conf
	OpImportScenario   Op = "import-scenario"   // Name, Data
	OpImportXML        Op = "import-xml"        // Data (a file's bytes)
	OpImportXMLText    Op = "import-xml-text"   // Text (pasted, already decoded)
	OpImportSnapshot   Op = "import-snapshot"   // Files (a ResourceManager's REST responses)
	OpBlank            Op = "blank"             //
	OpOpen             Op = "open"              // Name (the route's lesson), Text (the fragment), Saved: see Server.open; Reply.Played: the link opened; Reply.Data: Opened
	OpOpenLink         Op = "open-link"         // Text (the fragment); a link that does not open leaves the work
	OpRestoreSaved     Op = "restore-saved"     // Saved (the page's saved work); Reply.Data: Opened
	OpRestoreUndo      Op = "restore-undo"      // Point (an undo point's work)

	// Questions.
	OpCheckConfig    Op = "check-config"    // Conf: Reply.Err
	OpLink           Op = "link"            // Reply.Text
	OpExportYAML     Op = "export-yaml"     // Reply.Data
	OpExportXML      Op = "export-xml"      // Reply.Data
	OpSave           Op = "save"            // Reply.Text: the work as the page keeps it
	OpUndoPoint      Op = "undo-point"      // Reply.Data: Point, the work now
	OpWhy            Op = "why"             // App; Reply.Data: its why.Verdict, none when it does not wait
	OpExportSnapshot Op = "export-snapshot" // Reply.Data: []snapshot.File, the REST responses
	OpResync         Op = "resync"          // the page lost its frames (ErrResync): the reply's frame is whole
	OpCanvas         Op = "canvas"          // N: the node canvas's width, 0 when the page paints it; Toggle: dark; Node: the node opened (see Canvas)
	OpMemory         Op = "memory"          // Reply.Data: Memory, the bytes of one state and of the history (slow: for benchmarks)
)

// ops are the known commands, and whether each only asks (publishes no
// frame when it succeeds).
var ops = map[Op]bool{
	OpJump: false, OpFirst: false, OpLast: false, OpBack: false, OpForward: false, OpForwardTick: false,
	OpPlayStep: false, OpReset: false, OpFork: false, OpSelect: false, OpSelectUser: false, OpSelectPartition: false,
	OpClearError: false, OpReport: false,
	OpSubmit: false, OpRequest: false, OpHeartbeat: false, OpTick: false, OpFinishContainers: false,
	OpFinishApp: false, OpKillApp: false, OpAddNodes: false, OpRemoveNode: false, OpSetGroups: false,
	OpSetConfig: false, OpImportScenario: false, OpImportXML: false, OpImportXMLText: false,
	OpImportSnapshot: false, OpBlank: false, OpOpen: false, OpOpenLink: false, OpRestoreSaved: false,
	OpRestoreUndo: false,
	OpCheckConfig: true, OpLink: true, OpExportYAML: true, OpExportXML: true, OpSave: true,
	OpUndoPoint: true, OpWhy: true, OpExportSnapshot: true, OpResync: true, OpCanvas: true,
	OpMemory: true,
}

// Question reports whether op only asks: it changes nothing in the store.
func (op Op) Question() bool { return ops[op] }

// Command is one of the store's actions or questions, as data: Op says
// which, and the fields it uses (see the Op constants) say with what.
type Command struct {
	Op     Op                  `json:"op"`
	Step   int                 `json:"step,omitempty"`
	N      int                 `json:"n,omitempty"`
	Toggle bool                `json:"toggle,omitempty"`
	Repeat bool                `json:"repeat,omitempty"`
	Queue  string              `json:"queue,omitempty"`
	User   string              `json:"user,omitempty"`
	Node   string              `json:"node,omitempty"`
	App    string              `json:"app,omitempty"`
	Name   string              `json:"name,omitempty"`
	Text   string              `json:"text,omitempty"`
	Saved  string              `json:"saved,omitempty"`
	Groups []string            `json:"groups,omitempty"`
	Conf   map[string]string   `json:"conf,omitempty"`
	Data   []byte              `json:"data,omitempty"`
	Submit *scenarios.Submit   `json:"submit,omitempty"`
	Asks   []scenarios.Ask     `json:"asks,omitempty"`
	Nodes  *scenarios.NodeSpec `json:"nodes,omitempty"`
	// Exclusive says whether a node label add-nodes creates is exclusive.
	Exclusive bool            `json:"exclusive,omitempty"`
	Files     []snapshot.File `json:"files,omitempty"`
	Point     *Point          `json:"point,omitempty"`
}

// Coalesces reports whether c, sent while pending waits behind a command
// in flight, replaces pending rather than queueing after it: c is a
// repeat (a key held down, a slider dragged) of the same command, so that
// holding → or T queues at most one step behind the one under way, not
// fifty. Separate presses are all played.
func (c Command) Coalesces(pending Command) bool {
	return c.Repeat && pending.Op == c.Op
}

// Message kinds (the byte after the version).
const (
	kindCommand = 'C'
	kindReply   = 'R'
)

// EncodeCommand writes a command with its id (the reply carries it back).
func EncodeCommand(id uint32, c Command) ([]byte, error) {
	body, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	var w writer
	w.byte(Version)
	w.byte(kindCommand)
	w.uint(uint64(id))
	w.bytes(body)
	return w.b, nil
}

// ErrVersion is the error of a message of another version.
var ErrVersion = errors.New("protocol: a message of another version")

// DecodeCommand reads what EncodeCommand wrote. A message that is not a
// command of this version is refused, with why.
func DecodeCommand(data []byte) (id uint32, c Command, err error) {
	r := reader{b: data}
	if err := r.header(kindCommand); err != nil {
		return 0, Command{}, err
	}
	id = r.uint32()
	body := r.bytes()
	if err := r.end(); err != nil {
		return 0, Command{}, err
	}
	if err := json.Unmarshal(body, &c); err != nil {
		return 0, Command{}, fmt.Errorf("protocol: a command that does not decode: %w", err)
	}
	if _, ok := ops[c.Op]; !ok {
		return 0, Command{}, fmt.Errorf("protocol: no command %q", c.Op)
	}
	return id, c, nil
}
