package snapshot

import (
	"encoding/json"
	"encoding/xml"
	"fmt"

	"yarnplay/core"
	"yarnplay/core/resource"
	"yarnplay/internal/noeq"
)

// Export is a simulated state written as a ResourceManager's REST
// responses: /ws/v1/cluster/scheduler, /ws/v1/cluster/nodes,
// /ws/v1/cluster/apps, every attempt's containers in one containers
// response, and the configuration as a capacity-scheduler.xml. Import
// reads them back to the same state (the round trip).
type Export struct {
	Scheduler, Nodes, Apps, Containers []byte
	Conf                               []byte
}

// Formats of an export.
const (
	JSON = "json"
	XML  = "xml"
)

// ExportState writes s's state in format (JSON or XML). Reservations,
// delay-scheduling counters and container durations are not part of the
// REST responses and are not written.
func ExportState(s *core.Scheduler, format string) (*Export, error) {
	if format != JSON && format != XML {
		return nil, fmt.Errorf("export: format %q: use json or xml", format)
	}
	apps := s.Apps()
	ex := &Export{Conf: s.Conf().XML()}
	var err error
	enc := func(v any) []byte {
		if err != nil {
			return nil
		}
		var out []byte
		if format == JSON {
			out, err = json.MarshalIndent(v, "", "  ")
		} else {
			out, err = xml.MarshalIndent(v, "", "  ")
			out = append([]byte(xml.Header), out...)
		}
		return out
	}
	ex.Scheduler = enc(schedulerDoc(s, format))
	ex.Nodes = enc(nodesDoc(s))
	ex.Apps = enc(appsDoc(apps))
	ex.Containers = enc(containersDoc(apps))
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	return ex, nil
}

type resInfo struct {
	Memory int64 `json:"memory" xml:"memory"`
	VCores int64 `json:"vCores" xml:"vCores"`
}

func ri(r resource.Resource) *resInfo { return &resInfo{r.MemoryMB, r.VCores} }

// JSON documents wrap their root: {"scheduler": {...}}; XML ones are the
// root element.

type schedulerJSON struct {
	Scheduler struct {
		Info queueInfo `json:"schedulerInfo"`
	} `json:"scheduler"`
}

type schedulerXML struct {
	XMLName xml.Name  `xml:"scheduler"`
	Info    queueInfo `xml:"schedulerInfo"`
}

type queueInfo struct {
	_                    noeq.T
	XSI                  string      `json:"-" xml:"xmlns:xsi,attr,omitempty"`
	Type                 string      `json:"type" xml:"xsi:type,attr"`
	Capacity             float32     `json:"capacity" xml:"capacity"`
	UsedCapacity         float32     `json:"usedCapacity" xml:"usedCapacity"`
	MaxCapacity          float32     `json:"maxCapacity" xml:"maxCapacity"`
	AbsoluteCapacity     float32     `json:"absoluteCapacity" xml:"absoluteCapacity"`
	AbsoluteMaxCapacity  float32     `json:"absoluteMaxCapacity" xml:"absoluteMaxCapacity"`
	AbsoluteUsedCapacity float32     `json:"absoluteUsedCapacity" xml:"absoluteUsedCapacity"`
	NumApplications      int         `json:"numApplications" xml:"numApplications"`
	QueueName            string      `json:"queueName" xml:"queueName"`
	QueuePath            string      `json:"queuePath" xml:"queuePath"`
	State                string      `json:"state" xml:"state"`
	Queues               *queuesInfo `json:"queues,omitempty" xml:"queues,omitempty"`
	ResourcesUsed        *resInfo    `json:"resourcesUsed" xml:"resourcesUsed"`
	*leafInfo
}

type queuesInfo struct {
	Queue []queueInfo `json:"queue" xml:"queue"`
}

type leafInfo struct {
	NumActiveApplications        int        `json:"numActiveApplications" xml:"numActiveApplications"`
	NumPendingApplications       int        `json:"numPendingApplications" xml:"numPendingApplications"`
	MaxApplications              int        `json:"maxApplications" xml:"maxApplications"`
	MaxApplicationsPerUser       int        `json:"maxApplicationsPerUser" xml:"maxApplicationsPerUser"`
	UserLimit                    float32    `json:"userLimit" xml:"userLimit"`
	Users                        *usersInfo `json:"users" xml:"users"`
	UserLimitFactor              float32    `json:"userLimitFactor" xml:"userLimitFactor"`
	ConfiguredMaxAMResourceLimit float32    `json:"configuredMaxAMResourceLimit" xml:"configuredMaxAMResourceLimit"`
	AMResourceLimit              *resInfo   `json:"AMResourceLimit" xml:"AMResourceLimit"`
	UsedAMResource               *resInfo   `json:"usedAMResource" xml:"usedAMResource"`
	UserAMResourceLimit          *resInfo   `json:"userAMResourceLimit" xml:"userAMResourceLimit"`
	DefaultPriority              int        `json:"defaultPriority" xml:"defaultPriority"`
}

type usersInfo struct {
	User []userInfo `json:"user" xml:"user"`
}

type userInfo struct {
	Username               string   `json:"username" xml:"username"`
	ResourcesUsed          *resInfo `json:"resourcesUsed" xml:"resourcesUsed"`
	NumActiveApplications  int      `json:"numActiveApplications" xml:"numActiveApplications"`
	NumPendingApplications int      `json:"numPendingApplications" xml:"numPendingApplications"`
	AMResourceUsed         *resInfo `json:"AMResourceUsed" xml:"AMResourceUsed"`
	UserResourceLimit      *resInfo `json:"userResourceLimit" xml:"userResourceLimit"`
}

func schedulerDoc(s *core.Scheduler, format string) any {
	qs := s.Queues()
	byPath := make(map[string]core.QueueView, len(qs))
	for _, q := range qs {
		byPath[q.Path] = q
	}
	var build func(q core.QueueView) queueInfo
	build = func(q core.QueueView) queueInfo {
		out := queueInfo{
			Type:     "capacitySchedulerLeafQueueInfo",
			Capacity: q.Capacity * 100, UsedCapacity: q.UsedCapacity * 100, MaxCapacity: q.MaxCapacity * 100,
			AbsoluteCapacity: q.AbsCapacity * 100, AbsoluteMaxCapacity: q.AbsMaxCapacity * 100, AbsoluteUsedCapacity: q.AbsUsedCapacity * 100,
			NumApplications: q.NumApps, QueueName: q.Name, QueuePath: q.Path, State: string(q.State), ResourcesUsed: ri(q.Used),
		}
		if !q.Leaf {
			out.Type = "capacitySchedulerQueueInfo"
			out.Queues = &queuesInfo{}
			for _, c := range q.Children {
				out.Queues.Queue = append(out.Queues.Queue, build(byPath[c]))
			}
			return out
		}
		li := &leafInfo{
			NumActiveApplications: q.NumActiveApps, NumPendingApplications: q.NumPendingApps,
			MaxApplications: q.MaxApps, MaxApplicationsPerUser: q.MaxAppsPerUser, UserLimit: q.MinUserLimitPercent,
			UserLimitFactor: q.UserLimitFactor, ConfiguredMaxAMResourceLimit: q.MaxAMPercent,
			AMResourceLimit: ri(q.AMLimit), UsedAMResource: ri(q.AMUsed), UserAMResourceLimit: ri(q.UserAMLimit),
			DefaultPriority: q.DefaultAppPriority,
		}
		if len(q.Users) > 0 {
			li.Users = &usersInfo{}
			for _, u := range q.Users {
				li.Users.User = append(li.Users.User, userInfo{
					Username: u.Name, ResourcesUsed: ri(u.Used), NumActiveApplications: u.ActiveApps,
					NumPendingApplications: u.PendingApps, AMResourceUsed: ri(u.AMUsed), UserResourceLimit: ri(u.UserLimit),
				})
			}
		}
		out.leafInfo = li
		return out
	}
	root := build(qs[0])
	root.Type = "capacityScheduler"
	if format == XML {
		root.XSI = "http://www.w3.org/2001/XMLSchema-instance"
		return schedulerXML{Info: root}
	}
	var d schedulerJSON
	d.Scheduler.Info = root
	return d
}

type nodesDocT struct {
	XMLName xml.Name   `json:"-" xml:"nodes"`
	Nodes   *nodesList `json:"nodes" xml:"-"`
	Node    []nodeInfo `json:"-" xml:"node"`
}

type nodesList struct {
	Node []nodeInfo `json:"node"`
}

type nodeInfo struct {
	_                     noeq.T
	Rack                  string `json:"rack" xml:"rack"`
	State                 string `json:"state" xml:"state"`
	ID                    string `json:"id" xml:"id"`
	NodeHostName          string `json:"nodeHostName" xml:"nodeHostName"`
	NodeHTTPAddress       string `json:"nodeHTTPAddress" xml:"nodeHTTPAddress"`
	NumContainers         int    `json:"numContainers" xml:"numContainers"`
	UsedMemoryMB          int64  `json:"usedMemoryMB" xml:"usedMemoryMB"`
	AvailMemoryMB         int64  `json:"availMemoryMB" xml:"availMemoryMB"`
	UsedVirtualCores      int64  `json:"usedVirtualCores" xml:"usedVirtualCores"`
	AvailableVirtualCores int64  `json:"availableVirtualCores" xml:"availableVirtualCores"`
}

func nodesDoc(s *core.Scheduler) any {
	var ns []nodeInfo
	for _, n := range s.Nodes() {
		free := n.Capacity.Sub(n.Allocated)
		ns = append(ns, nodeInfo{
			Rack: n.Rack, State: "RUNNING", ID: n.Name, NodeHostName: n.Name, NodeHTTPAddress: n.Name + ":" + nodeHTTPPort,
			NumContainers: len(n.Containers), UsedMemoryMB: n.Allocated.MemoryMB, AvailMemoryMB: free.MemoryMB,
			UsedVirtualCores: n.Allocated.VCores, AvailableVirtualCores: free.VCores,
		})
	}
	return nodesDocT{Nodes: &nodesList{Node: ns}, Node: ns}
}

type appsDocT struct {
	XMLName xml.Name  `json:"-" xml:"apps"`
	Apps    *appsList `json:"apps" xml:"-"`
	App     []appInfo `json:"-" xml:"app"`
}

type appsList struct {
	App []appInfo `json:"app"`
}

type appInfo struct {
	ID                string        `json:"id" xml:"id"`
	User              string        `json:"user" xml:"user"`
	Name              string        `json:"name" xml:"name"`
	Queue             string        `json:"queue" xml:"queue"`
	State             string        `json:"state" xml:"state"`
	FinalStatus       string        `json:"finalStatus" xml:"finalStatus"`
	AMHostHTTPAddress string        `json:"amHostHttpAddress,omitempty" xml:"amHostHttpAddress,omitempty"`
	AllocatedMB       int64         `json:"allocatedMB" xml:"allocatedMB"`
	AllocatedVCores   int64         `json:"allocatedVCores" xml:"allocatedVCores"`
	ReservedMB        int64         `json:"reservedMB" xml:"reservedMB"`
	ReservedVCores    int64         `json:"reservedVCores" xml:"reservedVCores"`
	RunningContainers int           `json:"runningContainers" xml:"runningContainers"`
	Priority          int           `json:"priority" xml:"priority"`
	ResourceRequests  []askInfo     `json:"resourceRequests" xml:"resourceRequests"`
	ResourceInfo      *resourceInfo `json:"resourceInfo,omitempty" xml:"resourceInfo,omitempty"`
}

type askInfo struct {
	Capability    *resInfo `json:"capability" xml:"capability"`
	NumContainers int      `json:"numContainers" xml:"numContainers"`
	Priority      int      `json:"priority" xml:"priority"`
	RelaxLocality bool     `json:"relaxLocality" xml:"relaxLocality"`
	ResourceName  string   `json:"resourceName" xml:"resourceName"`
}

type resourceInfo struct {
	Partitions []partitionUsage `json:"resourceUsagesByPartition" xml:"resourceUsagesByPartition"`
}

type partitionUsage struct {
	PartitionName string   `json:"partitionName" xml:"partitionName"`
	Used          *resInfo `json:"used" xml:"used"`
	Reserved      *resInfo `json:"reserved" xml:"reserved"`
	AMUsed        *resInfo `json:"amUsed" xml:"amUsed"`
}

func appsDoc(apps []core.AppView) any {
	out := []appInfo{}
	for _, a := range apps {
		if a.State != core.AppAccepted && a.State != core.AppRunning {
			continue
		}
		ai := appInfo{
			ID: a.ID, User: a.User, Name: a.ID, Queue: a.Queue, State: string(a.State), FinalStatus: "UNDEFINED",
			AllocatedMB: a.Consumption.MemoryMB, AllocatedVCores: a.Consumption.VCores,
			ReservedMB: a.Reserved.MemoryMB, ReservedVCores: a.Reserved.VCores,
			RunningContainers: a.LiveContainers, Priority: a.Priority, ResourceRequests: []askInfo{},
		}
		for _, c := range a.Containers {
			if c.IsAM && !c.Reserved {
				ai.AMHostHTTPAddress = c.Node + ":" + nodeHTTPPort
			}
		}
		for _, r := range a.Requests {
			for _, l := range r.Locations {
				ai.ResourceRequests = append(ai.ResourceRequests, askInfo{
					Capability: ri(r.Resource), NumContainers: l.Count, Priority: r.Priority,
					RelaxLocality: l.RelaxLocality, ResourceName: l.Name,
				})
			}
		}
		am := resource.Resource{}
		if a.Activated {
			am = a.AMResource
		}
		ai.ResourceInfo = &resourceInfo{Partitions: []partitionUsage{{
			Used: ri(a.Consumption.Add(a.Reserved)), Reserved: ri(a.Reserved), AMUsed: ri(am),
		}}}
		out = append(out, ai)
	}
	return appsDocT{Apps: &appsList{App: out}, App: out}
}

type containersDocT struct {
	XMLName    xml.Name        `json:"-" xml:"containers"`
	Containers *containersList `json:"containers" xml:"-"`
	Container  []containerInfo `json:"-" xml:"container"`
}

type containersList struct {
	Container []containerInfo `json:"container"`
}

type containerInfo struct {
	_               noeq.T
	ContainerID     string `json:"containerId" xml:"containerId"`
	AllocatedMB     int64  `json:"allocatedMB" xml:"allocatedMB"`
	AllocatedVCores int64  `json:"allocatedVCores" xml:"allocatedVCores"`
	AssignedNodeID  string `json:"assignedNodeId" xml:"assignedNodeId"`
	Priority        int    `json:"priority" xml:"priority"`
	ContainerState  string `json:"containerState" xml:"containerState"`
	// AppID is a yarnplay extension, written only for an application
	// whose id is not a Hadoop one (application_<cluster>_<n>), whose
	// container ids cannot then name it.
	AppID string `json:"appId,omitempty" xml:"appId,omitempty"`
}

func containersDoc(apps []core.AppView) any {
	out := []containerInfo{}
	for _, a := range apps {
		prefix, ext := "container_0_0_01_", a.ID
		if cluster, seq, ok := hadoopAppIDParts(a.ID); ok {
			prefix, ext = "container_"+cluster+"_"+seq+"_01_", ""
		}
		n := 2
		for _, c := range a.Containers {
			if c.Reserved {
				continue
			}
			seq := n
			if c.IsAM {
				seq = 1
			} else {
				n++
			}
			out = append(out, containerInfo{
				ContainerID: fmt.Sprintf("%s%06d", prefix, seq), AllocatedMB: c.Size.MemoryMB, AllocatedVCores: c.Size.VCores,
				AssignedNodeID: c.Node, Priority: c.Priority, ContainerState: "RUNNING", AppID: ext,
			})
		}
	}
	return containersDocT{Containers: &containersList{Container: out}, Container: out}
}
