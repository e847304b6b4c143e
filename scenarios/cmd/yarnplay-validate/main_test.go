package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestValidate(t *testing.T) {
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run([]string{"-nodes", "4", "-node-mb", "8192", "-node-vcores", "4", "../../testdata/capacity-scheduler.xml"}, &out, &errOut))
	require.Equal(t, `OK ../../testdata/capacity-scheduler.xml: Hadoop accepts this configuration (hadoop-3 rules) and yarnplay simulates it.

On 4 nodes of 8192 MB and 4 vcores (cluster <memory:32768, vCores:16>):

queue          state    capacity  maximum-capacity  absolute capacity  absolute maximum  guaranteed           maximum              ordering
root           RUNNING  100.00%   100.00%           100.00%            100.00%           32768 MB, 16 vcores  32768 MB, 16 vcores  utilization
  engineering  RUNNING  60.00%    80.00%            60.00%             80.00%            19660 MB, 9 vcores   26214 MB, 12 vcores  utilization
    dev        RUNNING  25.00%    100.00%           15.00%             80.00%            4915 MB, 2 vcores    26214 MB, 12 vcores  fifo
    prod       RUNNING  75.00%    100.00%           45.00%             80.00%            14745 MB, 7 vcores   26214 MB, 12 vcores  fifo
  finance      RUNNING  40.00%    100.00%           40.00%             100.00%           13107 MB, 6 vcores   32768 MB, 16 vcores  fifo
`, out.String())

	out.Reset()
	require.Equal(t, 1, run([]string{"../../testdata/capacity-scheduler-bad.xml"}, &out, &errOut))
	require.Equal(t, "REFUSED ../../testdata/capacity-scheduler-bad.xml: Hadoop would not start with this configuration:\n"+
		"  Illegal capacity of 0.95 for children of queue engineering\n", out.String())

	require.Equal(t, 2, run(nil, &out, &errOut))
	require.Equal(t, 2, run([]string{"missing.xml"}, &out, &errOut))
	for _, p := range []string{"hadoop-3.3", "hadoop-3.4", "hadoop-2"} {
		out.Reset()
		require.Equal(t, 0, run([]string{"-profile", p, "../../testdata/capacity-scheduler.xml"}, &out, &errOut), p)
		require.Contains(t, out.String(), "Hadoop accepts this configuration ("+p+" rules)")
	}
	require.Equal(t, 2, run([]string{"-profile", "hadoop-9", "../../testdata/capacity-scheduler.xml"}, &out, &errOut))
}

// TestValidateVerdicts holds the exit codes of the three outcomes on
// configurations as admins write them (testdata/validate).
func TestValidateVerdicts(t *testing.T) {
	tests := []struct {
		file string
		code int
		says []string
	}{
		{"fs2cs-fair.xml", 0, []string{"OK ", "and yarnplay simulates it",
			"did you mean yarn.scheduler.capacity.root.default.maximum-capacity?",
			"yarn.scheduler.capacity.users.queues: no configured queue is users",
			"fair, max-parallel-apps 4"}},
		{"llap-priority.xml", 0, []string{"OK ", "priority-utilization", "fifo, priority 10"}},
		{"auto-create.xml", 0, []string{"OK ", "and yarnplay simulates it",
			"root.users: auto-create enabled parent; its leaves are created from its leaf-queue-template"}},
		{"auto-create-docs.xml", 0, []string{"OK ", "root.parent1: auto-create enabled parent"}},
		{"auto-create-static-children.xml", 3, []string{"does not allow pre-configured queues next to auto-created ones"}},
		{"auto-create-bad-template.xml", 1, []string{"REFUSED ", "Illegal capacity of 120.0 for queue root.users.leaf-queue-template"}},
		{"mapping-parent-not-managed.xml", 1, []string{"REFUSED ",
			"mapping contains leaf queue [%user] and invalid parent queue which does not have auto creation of leaf queues enabled [etl]"}},
		{"absolute.xml", 0, []string{"OK ", "and yarnplay simulates it",
			"  b    RUNNING  10.00%    25.00%            10.00%             25.00%            4096 MB, 4 vcores    10240 MB, 8 vcores",
			"root.b: absolute, configured 4096 MB, 4 vcores, at most 10240 MB, 8 vcores; its capacities are derived from the cluster."}},
		{"absolute-mixed.xml", 1, []string{"REFUSED ", "Illegal capacity of 0.5 for children of queue eng"}},
		{"label-capacity.xml", 1, []string{"REFUSED ",
			"Illegal capacity of -1.0 for node-label=default in queue=root, valid capacity should in range of [0, 100]."}},
		{"labels-docs.xml", 0, []string{"OK ",
			"the parent root configures no capacity for node label GPU, so root.engineering's guarantee in GPU is 0 (set yarn.scheduler.capacity.root.accessible-node-labels.GPU.capacity)",
			"root.engineering: accessible GPU, default-node-label-expression GPU; GPU: capacity 50.00%"}},
		{"labels-partitions.xml", 0, []string{"OK ", "Node labels (partitions) the queues configure: Lx, Ly",
			"root.Qa: accessible: the default partition only",
			"root.Qc.Qc1: accessible Lx,Ly, default-node-label-expression Lx; Lx: capacity 40.00%, maximum 100.00%, absolute 28.00%, absolute maximum 100.00%; Ly: capacity 50.00%, maximum 75.00%, absolute 50.00%, absolute maximum 75.00%"}},
		{"labels-sum.xml", 1, []string{"REFUSED ", "Illegal capacity of 0.90000004 for children of queue root for label=gpu"}},
		{"mapping-missing-queue.xml", 1, []string{"REFUSED ",
			"Failed to initialize queues: mapping contains invalid or non-leaf queue analytics"}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			var out, errOut bytes.Buffer
			require.Equal(t, tc.code, run([]string{"-nodes", "4", "../../testdata/validate/" + tc.file}, &out, &errOut), out.String())
			for _, s := range tc.says {
				require.Contains(t, out.String(), s)
			}
			if tc.code != 1 {
				require.NotContains(t, out.String(), "Hadoop would not start", "only Hadoop's refusals say so")
			}
		})
	}
}

// TestValidateWeights: Hadoop 3.4 accepts weights and refuses siblings
// that mix them with percentages; Hadoop 3.3 refuses "1w" as a number.
func TestValidateWeights(t *testing.T) {
	tests := []struct {
		file, profile string
		code          int
		says          []string
	}{
		{"weights.xml", "hadoop-3.4", 0, []string{"OK ", "(hadoop-3.4 rules)",
			"  eng            RUNNING  3.0w      100.00%           60.00%             100.00%           24576 MB, 19 vcores",
			"root.eng.batch: weight 2.0w, 66.67% of its parent"}},
		{"weights.xml", "hadoop-3", 1, []string{"REFUSED ", `For input string: "1w" (weights such as 2w came with Hadoop 3.4`}},
		{"mixed-modes.xml", "hadoop-3.4", 0, []string{"OK ",
			"  eng    RUNNING  37.50%    100.00%           37.50%             100.00%           15360 MB, 12 vcores",
			"root.adhoc: weight 2.0w, 66.67% of what its parent has left after its absolute and percentage siblings."}},
		{"flexible-auto-queues.xml", "hadoop-3.4", 0, []string{"OK ", "(hadoop-3.4 rules)",
			"root.users: flexible auto-queue creation (Hadoop 3.4); leaves are created under it, up to 200 children"}},
		{"flexible-auto-queues.xml", "hadoop-3", 1, []string{"REFUSED ", "weights such as 2w came with Hadoop 3.4"}},
		{"flexible-auto-queues-bad.xml", "hadoop-3.4", 1, []string{"REFUSED ", "auto-queue-creation-v2.max-queues"}},
		{"weights-mixed.xml", "hadoop-3.4", 1, []string{"REFUSED ",
			"Parent queue 'root' have children queue used mixed of  weight mode, percentage and absolute mode"}},
	}
	for _, tc := range tests {
		t.Run(tc.file+"/"+tc.profile, func(t *testing.T) {
			var out, errOut bytes.Buffer
			require.Equal(t, tc.code, run([]string{"-nodes", "4", "-profile", tc.profile, "../../testdata/validate/" + tc.file}, &out, &errOut), out.String())
			for _, s := range tc.says {
				require.Contains(t, out.String(), s)
			}
		})
	}
}
