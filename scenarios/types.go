package scenarios

import "yarnplay/internal/noeq"

// FormatVersion is the only scenario format version this package reads and
// writes. A file without `version` is version 1.
const FormatVersion = 1

// Profiles a scenario may name. An empty profile is ProfileHadoop3, and
// ProfileHadoop33 is another spelling of it (Hadoop 3.3); files keep the
// spelling they were written with.
const (
	ProfileHadoop3  = "hadoop-3"
	ProfileHadoop33 = "hadoop-3.3"
	ProfileHadoop34 = "hadoop-3.4"
	ProfileHadoop2  = "hadoop-2"
)

// Scenario is one scenario file: a cluster, a Capacity Scheduler
// configuration and a script of steps. Field names follow the format's keys
// (see the json tags); the zero value of an optional field means "left out".
type Scenario struct {
	// Version is the format version; Parse sets 1 when the file leaves it out.
	Version     int    `json:"version,omitempty"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	Source      string `json:"source,omitempty"`
	Notes       string `json:"notes,omitempty"`
	// Assumptions list what an imported snapshot did not say and the
	// importer chose (one sentence each); the playground shows them in a
	// banner.
	Assumptions []string `json:"assumptions,omitempty"`
	// Profile is "hadoop-3" (the default when empty) or "hadoop-2".
	Profile string `json:"profile,omitempty"`
	// Config holds Hadoop properties by their own keys; it is merged over
	// ConfigXML (a key in both takes Config's value).
	Config map[string]string `json:"config,omitempty"`
	// ConfigXML is the text of a capacity-scheduler.xml.
	ConfigXML string `json:"config_xml,omitempty"`
	// Groups maps a user to the groups it belongs to, for ACLs.
	Groups map[string][]string `json:"groups,omitempty"`
	// NodeLabels are the cluster's node labels (yarn rmadmin
	// -addToClusterNodeLabels), added before the nodes (hadoop-3 only).
	NodeLabels []NodeLabel `json:"node_labels,omitempty"`
	// Nodes are registered, in order, before the first step.
	Nodes []NodeSpec `json:"nodes,omitempty"`
	// ConfigError, when set, says the configuration must be refused at
	// start with an error containing every one of these texts.
	ConfigError Texts  `json:"config_error,omitempty"`
	Steps       []Step `json:"steps,omitempty"`

	// File is the name the scenario was loaded from (for messages); it is
	// not part of the scenario and never encoded.
	File string `json:"-"`
}

// Default node size and rack, used where a node spec leaves them out (or
// gives 0): YARN's yarn.nodemanager.resource.* defaults.
const (
	DefaultNodeMemoryMB = 8192
	DefaultNodeVCores   = 8
	DefaultRack         = "/default-rack"
)

// NodeSpec is a node, or with Count a run of nodes whose Name contains
// "{i}", replaced by 0..Count-1 ("n{i}" with count 3 is n0, n1, n2).
type NodeSpec struct {
	_    noeq.T
	Name string `json:"name"`
	// Rack is "/default-rack" when empty.
	Rack string `json:"rack,omitempty"`
	// MemoryMB and VCores are the node's capacity; 0 means 8192 MB / 8 vcores.
	MemoryMB int64 `json:"memory_mb,omitempty"`
	VCores   int64 `json:"vcores,omitempty"`
	// Count is how many nodes this spec stands for; 0 means one node.
	Count int `json:"count,omitempty"`
	// Label is the node's partition: one of the scenario's node_labels;
	// empty for the default partition.
	Label string `json:"label,omitempty"`

	// Line is where the spec was read (0 when built in code).
	Line int `json:"-"`
}

// NodeLabel is a cluster node label: a partition. Exclusive nil means
// true (Hadoop's default): an exclusive partition's idle resources go to
// its own asks only.
type NodeLabel struct {
	Name      string `json:"name"`
	Exclusive *bool  `json:"exclusive,omitempty"`
}

// Res is a resource in an input (an AM, an ask, a snapshot):
// {memory_mb, vcores}. A left-out component is 0.
type Res struct {
	MemoryMB int64 `json:"memory_mb"`
	VCores   int64 `json:"vcores"`
}

// Step is one step of a scenario. Exactly one kind field (Submit through
// Expect) is set; Error, ErrorAny and Note may accompany any kind.
type Step struct {
	Submit             *Submit          `json:"submit,omitempty"`
	Request            Asks             `json:"request,omitempty"`
	Heartbeat          Heartbeats       `json:"heartbeat,omitempty"`
	Tick               *int             `json:"tick,omitempty"`
	FinishContainer    *FinishContainer `json:"finish_container,omitempty"`
	FinishApp          string           `json:"finish_app,omitempty"`
	KillApp            *KillApp         `json:"kill_app,omitempty"`
	Refresh            *Refresh         `json:"refresh,omitempty"`
	AddNode            *NodeSpec        `json:"add_node,omitempty"`
	RemoveNode         *RemoveNode      `json:"remove_node,omitempty"`
	PreemptionSnapshot map[string]any   `json:"preemption_snapshot,omitempty"`
	PreemptionRound    *PreemptionRound `json:"preemption_round,omitempty"`
	Restore            *Restore         `json:"restore,omitempty"`
	Expect             *Expect          `json:"expect,omitempty"`

	// Error lists texts that must all appear (case-insensitively) in the
	// error the step fails with; the step must also change nothing.
	Error Texts `json:"error,omitempty"`
	// ErrorAny lists texts one of which must appear in the step's error.
	ErrorAny []string `json:"error_any,omitempty"`
	// Note is narration shown when the playground reaches this step.
	Note string `json:"note,omitempty"`

	// Line is where the step starts in its file (0 when built in code).
	Line int `json:"-"`
}

// Step kinds, as the format names them.
const (
	KindSubmit             = "submit"
	KindRequest            = "request"
	KindHeartbeat          = "heartbeat"
	KindTick               = "tick"
	KindFinishContainer    = "finish_container"
	KindFinishApp          = "finish_app"
	KindKillApp            = "kill_app"
	KindRefresh            = "refresh"
	KindAddNode            = "add_node"
	KindRemoveNode         = "remove_node"
	KindPreemptionSnapshot = "preemption_snapshot"
	KindPreemptionRound    = "preemption_round"
	KindRestore            = "restore"
	KindExpect             = "expect"
)

// StepKinds lists every step kind in the order the format's table gives them.
var StepKinds = []string{
	KindSubmit, KindRequest, KindHeartbeat, KindTick, KindFinishContainer,
	KindFinishApp, KindKillApp, KindRefresh, KindAddNode, KindRemoveNode,
	KindPreemptionSnapshot, KindPreemptionRound, KindRestore, KindExpect,
}

// Kinds returns the kinds set on the step, in StepKinds order; a valid
// step has exactly one.
func (st *Step) Kinds() []string {
	var ks []string
	st.eachKind(func(k string) { ks = append(ks, k) })
	return ks
}

// eachKind calls do with each kind the step sets, in StepKinds' order.
func (st *Step) eachKind(do func(string)) {
	add := func(set bool, k string) {
		if set {
			do(k)
		}
	}
	add(st.Submit != nil, KindSubmit)
	add(st.Request != nil, KindRequest)
	add(st.Heartbeat != nil, KindHeartbeat)
	add(st.Tick != nil, KindTick)
	add(st.FinishContainer != nil, KindFinishContainer)
	add(st.FinishApp != "", KindFinishApp)
	add(st.KillApp != nil, KindKillApp)
	add(st.Refresh != nil, KindRefresh)
	add(st.AddNode != nil, KindAddNode)
	add(st.RemoveNode != nil, KindRemoveNode)
	add(st.PreemptionSnapshot != nil, KindPreemptionSnapshot)
	add(st.PreemptionRound != nil, KindPreemptionRound)
	add(st.Restore != nil, KindRestore)
	add(st.Expect != nil, KindExpect)
}

// Kind returns the step's kind, or "" unless exactly one kind is set.
func (st *Step) Kind() string {
	kind, n := st.kind()
	if n == 1 {
		return kind
	}
	return ""
}

// kind returns the first kind the step sets and how many it sets, without
// making the list (a scenario at scale has tens of thousands of steps).
func (st *Step) kind() (first string, n int) {
	st.eachKind(func(k string) {
		if n == 0 {
			first = k
		}
		n++
	})
	return first, n
}

// Submit submits an application and adds its attempt.
type Submit struct {
	_     noeq.T
	App   string `json:"app"`
	User  string `json:"user"`
	Queue string `json:"queue"`
	// AM is the ApplicationMaster's resource; nil (null or left out) for an
	// application without an AM.
	AM *Res `json:"am,omitempty"`
	// AMContainerRequest false makes AM count only toward the AM limits;
	// nil means true.
	AMContainerRequest *bool `json:"am_container_request,omitempty"`
	// Priority is the application priority; nil takes the queue's default.
	Priority *int `json:"priority,omitempty"`
	// Label is the application's node label expression (its asks'
	// partition when they name none); AMLabel the AM container's, else
	// Label; empty: the queue's default-node-label-expression.
	Label   string `json:"label,omitempty"`
	AMLabel string `json:"am_label,omitempty"`
}

// Ask is one ResourceRequest of an allocate call (replace semantics).
type Ask struct {
	_        noeq.T
	App      string `json:"app"`
	Priority int    `json:"priority"`
	Resource Res    `json:"resource"`
	Count    int    `json:"count"`
	// Locality is a node name, a rack or "*"; empty means "*".
	Locality string `json:"locality,omitempty"`
	// RelaxLocality nil means true.
	RelaxLocality *bool `json:"relax_locality,omitempty"`
	// Duration, in ticks, makes the containers of this ask finish by
	// themselves; 0 means they run until released.
	Duration int64 `json:"duration,omitempty"`
	// Label is the ask's node label expression (a "*" ask only): nil
	// takes the application's, else the queue's default; "" is the
	// default partition.
	Label *string `json:"label,omitempty"`
}

// HeartbeatSpec is one node's heartbeats: Times in a row (0 means once).
type HeartbeatSpec struct {
	Node  string `json:"node"`
	Times int    `json:"times,omitempty"`
}

// FinishContainer completes the app's Count most recently allocated non-AM
// running containers (only those on Node, if set).
type FinishContainer struct {
	App   string `json:"app"`
	Count int    `json:"count"`
	Node  string `json:"node,omitempty"`
}

// KillApp kills an application on behalf of By.
type KillApp struct {
	App string `json:"app"`
	By  string `json:"by"`
}

// Refresh is `yarn rmadmin -refreshQueues` with a changed configuration:
// ReplaceConfig (when set) replaces the configuration in force, then Set
// and Unset change it.
type Refresh struct {
	Set           map[string]string `json:"set,omitempty"`
	Unset         []string          `json:"unset,omitempty"`
	ReplaceConfig map[string]string `json:"replace_config,omitempty"`
}

// RemoveNode removes a node, or with Count the run of nodes its "{i}" name
// stands for.
type RemoveNode struct {
	Name  string `json:"name"`
	Count int    `json:"count,omitempty"`
}

// PreemptionRound runs one round of the proportional preemption policy on
// the current preemption snapshot at time NowMS.
type PreemptionRound struct {
	NowMS int64 `json:"now_ms"`
}
