package snapshot

import "yarnplay/internal/noeq"

// Res is a resource as the RM reports it: memory in MB and vcores.
type Res struct {
	MemoryMB int64
	VCores   int64
}

func (r Res) add(o Res) Res { return Res{r.MemoryMB + o.MemoryMB, r.VCores + o.VCores} }
func (r Res) sub(o Res) Res { return Res{r.MemoryMB - o.MemoryMB, r.VCores - o.VCores} }
func (r Res) fits(o Res) bool {
	return r.MemoryMB <= o.MemoryMB && r.VCores <= o.VCores
}
func (r Res) zero() bool { return r.MemoryMB == 0 && r.VCores == 0 }

// Snapshot is a running cluster as its ResourceManager's REST responses
// describe it, decoded and checked value by value.
type Snapshot struct {
	// Queues are the Capacity Scheduler's queues, pre-order, root first.
	Queues []Queue
	Nodes  []Node
	// Apps are the live applications (NEW to RUNNING), in the order read.
	Apps []App
	// Containers are the running containers the attempts' containers
	// responses list (none when no such file was given).
	Containers []Container
	// Conf is the configuration file's properties (nil without one).
	Conf map[string]string
	// ConfFile names the configuration file.
	ConfFile string
	// Ended counts the finished applications the apps response held.
	Ended int
}

// Queue is one queue of /ws/v1/cluster/scheduler.
type Queue struct {
	Path, Name, Parent string
	Leaf               bool
	State              string
	// Capacity and MaxCapacity are percentages of the parent.
	Capacity, MaxCapacity float64
	// Leaf queues only; -1 where the response leaves a number out.
	UserLimit, UserLimitFactor, MaxAMPercent float64
	MaxApplications, DefaultPriority         int64
	Used, AMUsed                             Res
	NumActive, NumPending                    int64
	Users                                    []User
	where                                    string
}

// User is a leaf queue's user.
type User struct {
	Name         string
	Used, AMUsed Res
	Active       int64
	Pending      int64
}

// Node is one node of /ws/v1/cluster/nodes.
type Node struct {
	ID, Host, HTTPAddress, Rack, State string
	Used, Avail                        Res
	NumContainers                      int64
	Labels                             []string
	where                              string
}

// App is one application of /ws/v1/cluster/apps.
type App struct {
	ID, User, Queue, State string
	Priority               int64
	Allocated, Reserved    Res
	RunningContainers      int64
	AMHost                 string
	// AMUsed is resourceInfo's amUsed in the default partition (Hadoop
	// 3): the AM resource of an activated application.
	AMUsed Res
	// Asks are its resourceRequests; HasAsks says whether the response
	// carried the field at all (Hadoop 2.7 does not).
	Asks    []Ask
	HasAsks bool
	where   string
}

// Ask is one ResourceRequest.
type Ask struct {
	_             noeq.T
	Priority      int64
	Resource      Res
	Count         int64
	Locality      string
	RelaxLocality bool
	Label         string
}

// Container is one container of an attempt's containers response.
type Container struct {
	_             noeq.T
	ID, App, Node string
	Size          Res
	Priority      int64
	AM            bool
	where         string
}
