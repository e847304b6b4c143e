package snapshot

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func fixture(t *testing.T, name string) File {
	t.Helper()
	data, err := os.ReadFile("testdata/rules/" + name)
	require.NoError(t, err)
	return File{Name: name, Data: data}
}

func rulesFiles(t *testing.T) Files {
	return Files{Scheduler: fixture(t, "scheduler.json"), Nodes: fixture(t, "nodes.json"), Apps: fixture(t, "apps.json")}
}

const oneQueue = `{"scheduler": {"schedulerInfo": {"type": "capacityScheduler", "queueName": "root", "capacity": 100,
  "queues": {"queue": [{"queueName": "default", "capacity": 100, "maxCapacity": 100, "userLimitFactor": 1,
  "resourcesUsed": {"memory": 0, "vCores": 0}}]}}}}`

const oneNode = `{"nodes": {"node": {"id": "h1:1", "rack": "/r", "state": "RUNNING", "usedMemoryMB": 0, "availMemoryMB": 8192,
  "usedVirtualCores": 0, "availableVirtualCores": 8}}}`

func app(fields string) string {
	return `{"apps": {"app": [{"id": "application_1_0001", "user": "u", "queue": "default", "state": "RUNNING", ` + fields + `}]}}`
}

// TestHostileValuesAreRefusedByName: every unusable value is one problem
// naming the file, the path and what is wrong.
func TestHostileValuesAreRefusedByName(t *testing.T) {
	cases := []struct{ name, apps, want string }{
		{"NaN text", app(`"allocatedMB": "NaN"`), "apps.json: apps.app[0].allocatedMB: must be a finite number, not NaN"},
		{"negative", app(`"allocatedMB": -5`), "apps.json: apps.app[0].allocatedMB: must not be negative, not -5"},
		{"huge", app(`"allocatedVCores": 1e300`), "apps.json: apps.app[0].allocatedVCores: 1e+300 is larger than 1099511627776"},
		{"overflow", app(`"runningContainers": 1e400`), "apps.app[0].runningContainers: must be a finite number"},
		{"fraction", app(`"runningContainers": 1.5`), "apps.app[0].runningContainers: must be a whole number, not 1.5"},
		{"object for number", app(`"allocatedMB": {}`), "apps.app[0].allocatedMB: must be a number, not an object"},
		{"no user", `{"apps": {"app": [{"id": "x", "queue": "q", "state": "RUNNING"}]}}`, "apps.app[0].user: application x needs its user"},
		{"not an app", `{"apps": {"app": [3]}}`, "apps.app[0]: must be an application (an object), not a number"},
		{"wrong document", `{"nodes": {}}`, `apps.json: this is not a /ws/v1/cluster/apps response: it has no "apps" at the top (found nodes)`},
		{"not JSON", `{"apps": `, "apps.json: not valid JSON"},
		{"JSON NaN", `{"apps": {"app": [{"allocatedMB": NaN}]}}`, "apps.json: not valid JSON"},
		{"empty", ``, "apps.json: the file is empty"},
		{"ask NaN", app(`"resourceRequests": [{"capability": {"memory": "NaN", "vCores": 1}, "numContainers": 1, "priority": 1, "resourceName": "*"}]`), "apps.app[0].resourceRequests[0].capability.memory: must be a finite number"},
		{"deep", strings.Repeat(`{"a":`, 100) + "1" + strings.Repeat("}", 100), "nests deeper than 64 levels"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Import(Files{Scheduler: File{"scheduler.json", []byte(oneQueue)}, Nodes: File{"nodes.json", []byte(oneNode)}, Apps: File{"apps.json", []byte(c.apps)}})
			require.Error(t, err)
			require.Contains(t, err.Error(), c.want)
		})
	}
}

func TestOtherSchedulersAndBrokenXML(t *testing.T) {
	_, err := Import(Files{Scheduler: File{"s.json", []byte(`{"scheduler": {"schedulerInfo": {"type": "fairScheduler"}}}`)}, Nodes: File{"n.json", []byte(oneNode)}, Apps: File{"a.json", []byte(app(""))}})
	require.ErrorContains(t, err, `s.json: scheduler.schedulerInfo.type: "fairScheduler": yarnplay reads the Capacity Scheduler's state only`)
	_, err = Import(Files{Scheduler: File{"s.xml", []byte(`<scheduler><schedulerInfo>`)}, Nodes: File{"n.json", []byte(oneNode)}, Apps: File{"a.json", []byte(app(""))}})
	require.ErrorContains(t, err, "s.xml: not valid XML")
	// Every file's problems are reported together.
	_, err = Import(Files{Scheduler: File{"s.json", []byte(`[]`)}, Nodes: File{"n.json", []byte(`{`)}, Apps: File{"a.json", []byte(app(`"allocatedMB": -2`))}})
	require.ErrorContains(t, err, "s.json: the document must be a JSON object, not a list")
	require.ErrorContains(t, err, "n.json: not valid JSON")
	require.ErrorContains(t, err, "a.json: apps.app[0].allocatedMB: must not be negative")
}

// TestInconsistentSnapshotsImportWithNotes: what does not add up is left
// out or adjusted, and said, never a panic.
func TestInconsistentSnapshotsImportWithNotes(t *testing.T) {
	apps := `{"apps": {"app": [
	  {"id": "application_1_0001", "user": "u", "queue": "nosuch", "state": "RUNNING", "allocatedMB": 1024, "allocatedVCores": 1, "runningContainers": 1},
	  {"id": "application_1_0002", "user": "u", "queue": "root", "state": "ACCEPTED"},
	  {"id": "application_1_0003", "user": "u", "queue": "default", "state": "RUNNING", "allocatedMB": 65536, "allocatedVCores": 64, "runningContainers": 8},
	  {"id": "application_1_0003", "user": "u", "queue": "default", "state": "RUNNING"},
	  {"id": "application_1_0004", "user": "v", "queue": "default", "state": "RUNNING", "allocatedMB": 1024, "allocatedVCores": 1, "runningContainers": 1000000000},
	  {"id": "application_1_0005", "user": "v", "queue": "default", "state": "RUNNING", "allocatedMB": 1024, "allocatedVCores": 1, "runningContainers": 1}
	]}}`
	nodes := `{"nodes": {"node": [
	  {"id": "h1:1", "state": "RUNNING", "usedMemoryMB": 9000, "availMemoryMB": 0, "usedVirtualCores": 8, "availableVirtualCores": 0},
	  {"id": "h1:1", "state": "RUNNING", "usedMemoryMB": 0, "availMemoryMB": 8192, "usedVirtualCores": 0, "availableVirtualCores": 8},
	  {"id": "h2:1", "state": "RUNNING", "usedMemoryMB": 0, "availMemoryMB": 0, "usedVirtualCores": 0, "availableVirtualCores": 0},
	  {"id": "h4:1", "state": "RUNNING", "usedMemoryMB": 4096, "availMemoryMB": -1024, "usedVirtualCores": 2, "availableVirtualCores": 2},
	  {"id": "h3:1", "state": "DECOMMISSIONED", "usedMemoryMB": 0, "availMemoryMB": 8192}
	]}}`
	containers := `{"containers": {"container": [
	  {"containerId": "container_1_0009_01_000001", "allocatedMB": 1024, "allocatedVCores": 1, "assignedNodeId": "h1:1"},
	  {"containerId": "container_e3_1_0005_01_000002", "allocatedMB": 1024, "allocatedVCores": 1, "assignedNodeId": "h9:1"},
	  {"containerId": "bogus", "allocatedMB": 1024, "allocatedVCores": 1, "assignedNodeId": "h1:1"}
	]}}`
	_, err := Import(Files{Scheduler: File{"s.json", []byte(oneQueue)}, Nodes: File{"n.json", []byte(nodes)}, Apps: File{"a.json", []byte(apps)},
		Containers: []File{{"c.json", []byte(containers)}}})
	require.ErrorContains(t, err, `c.json: containers.container[2].containerId: "bogus" is not a container id`)
	containers = strings.Replace(containers, `"bogus"`, `"container_1_0001_01_000009"`, 1)
	sc, err := Import(Files{Scheduler: File{"s.json", []byte(oneQueue)}, Nodes: File{"n.json", []byte(nodes)}, Apps: File{"a.json", []byte(apps)},
		Containers: []File{{"c.json", []byte(containers)}}})
	require.NoError(t, err)
	all := strings.Join(sc.Assumptions, "\n")
	for _, want := range []string{
		`application application_1_0001 is left out: queue "nosuch" is not in the configuration`,
		`application application_1_0002 is left out: queue "root" is a parent queue`,
		"application application_1_0003 is listed twice",
		"node h1:1 is listed twice",
		"node h2:1 reports no memory or no vcores",
		"node h4:1 reports 4096 MB, 2 vcores used but -1024 MB, 2 vcores available (over-allocated",
		"1 nodes that are not RUNNING",
		"container container_1_0009_01_000001 belongs to application_1_0009, which is not a live application",
		"container container_1_0001_01_000009 belongs to application_1_0001, which is not a live application",
		"is on node h9:1, which is not a running node",
		"fits no node (usage above capacity)",
		"application application_1_0004 reports 1000000000 running containers for 1024 MB: 2 containers are assumed",
		"node h1:1 (nodes.node[0]): the snapshot says 9000 MB, 8 vcores used",
	} {
		require.Contains(t, all, want)
	}
}

// TestConfigurationsThatDoNotMatch: a configuration file that lacks the
// snapshot's queues leaves their apps out; one Hadoop refuses stops the
// import, naming the file.
func TestConfigurationsThatDoNotMatch(t *testing.T) {
	f := rulesFiles(t)
	f.Conf = &File{"capacity-scheduler.xml", []byte(`<configuration>
	  <property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>
	  <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>50</value></property>
	  <property><name>yarn.scheduler.capacity.root.b.capacity</name><value>50</value></property>
	</configuration>`)}
	sc, err := Import(f)
	require.NoError(t, err)
	all := strings.Join(sc.Assumptions, "\n")
	require.Contains(t, all, `application application_1476912658570_0003 is left out: queue "p1" is not in the configuration`)
	f.Conf.Data = []byte(`<configuration><property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>
	  <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>70</value></property>
	  <property><name>yarn.scheduler.capacity.root.b.capacity</name><value>70</value></property></configuration>`)
	_, err = Import(f)
	require.ErrorContains(t, err, "capacity-scheduler.xml: the configuration is refused")
	f.Conf.Data = []byte(`{"property": [{"name": "yarn.scheduler.capacity.root.queues", "value": 3}]}`)
	f.Conf.Name = "scheduler-conf.json"
	_, err = Import(f)
	require.Error(t, err)
	require.NotContains(t, err.Error(), "panic")
}

// TestStoppedQueueAndMaxApplicationsLeaveAppsOut: submissions Hadoop
// refuses now are left out with the refusal.
func TestStoppedQueueAndMaxApplicationsLeaveAppsOut(t *testing.T) {
	sched := strings.Replace(oneQueue, `"queueName": "default",`, `"queueName": "default", "state": "STOPPED",`, 1)
	sc, err := Import(Files{Scheduler: File{"s.json", []byte(sched)}, Nodes: File{"n.json", []byte(oneNode)}, Apps: File{"a.json", []byte(app(`"allocatedMB": 1024, "allocatedVCores": 1, "runningContainers": 1`))}})
	require.NoError(t, err)
	require.Contains(t, strings.Join(sc.Assumptions, "\n"), "application application_1_0001 is left out: Queue root.default is STOPPED. Cannot accept submission")
}
