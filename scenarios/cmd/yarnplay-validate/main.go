// Command yarnplay-validate reads a real capacity-scheduler.xml and says
// what Hadoop (3.3 by default; -profile hadoop-3.4 or hadoop-2) and
// yarnplay make of it (config.Check): accepted, refused
// by Hadoop (with Hadoop's message), or accepted by Hadoop but using a
// feature yarnplay cannot simulate (naming it, and what yarnplay does
// instead). It prints the warnings (properties Hadoop ignores, probable
// typos), and for an accepted file the queue tree with each queue's capacity, maximum capacity,
// absolute capacity and absolute maximum capacity, and what they mean in
// resources on a cluster of -nodes nodes of -node-mb MB and -node-vcores
// vcores:
//
//	go run ./scenarios/cmd/yarnplay-validate [-nodes 100] [-node-mb 10240] [-node-vcores 8] [-profile hadoop-3.3] capacity-scheduler.xml
//
// The exit status is 0 when the file is accepted, 1 when Hadoop would
// refuse it, 3 when Hadoop accepts it but yarnplay cannot simulate it, 2
// on a usage error or an unreadable file.
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"text/tabwriter"

	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/core/resource"
	"yarnplay/scenarios"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("yarnplay-validate", flag.ContinueOnError)
	fl.SetOutput(stderr)
	nodes := fl.Int("nodes", 100, "number of nodes of the cluster to size the queues on")
	nodeMB := fl.Int64("node-mb", 10240, "memory of each node, in MB")
	nodeVCores := fl.Int64("node-vcores", 8, "virtual cores of each node")
	profileName := fl.String("profile", scenarios.ProfileHadoop3, "rules to apply: "+config.ProfileNames)
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: yarnplay-validate [-nodes N] [-node-mb MB] [-node-vcores N] [-profile hadoop-2|hadoop-3.3|hadoop-3.4] capacity-scheduler.xml")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() != 1 || *nodes < 0 || *nodes > scenarios.MaxNodes || *nodeMB <= 0 || *nodeVCores <= 0 {
		fl.Usage()
		return 2
	}
	path := fl.Arg(0)
	data, err := readBounded(path)
	if err != nil {
		fmt.Fprintln(stderr, "yarnplay-validate:", err)
		return 2
	}
	profile, err := config.ParseProfile(*profileName)
	if err != nil {
		fmt.Fprintln(stderr, "yarnplay-validate:", err)
		return 2
	}
	conf, err := config.ParseXML(data)
	if err != nil {
		fmt.Fprintf(stdout, "REFUSED %s: not a Hadoop configuration file:\n  %v\n", path, err)
		return 1
	}
	res := config.Check(conf, profile)
	switch res.Verdict {
	case config.Refused:
		fmt.Fprintf(stdout, "REFUSED %s: Hadoop would not start with this configuration:\n  %v\n", path, res.Err)
		printWarnings(stdout, res.Warnings)
		return res.Verdict.ExitCode()
	case config.NotSimulated:
		fmt.Fprintf(stdout, "NOT SIMULATED %s: Hadoop accepts this configuration (%s rules), but yarnplay cannot simulate %s:\n  %v\n  %s.\n",
			path, *profileName, res.Err.Feature, res.Err, res.Err.Instead)
		printWarnings(stdout, res.Warnings)
		return res.Verdict.ExitCode()
	}
	s, err := core.New(conf, profile)
	if err != nil { // Check accepted it: New parses the same way
		fmt.Fprintln(stderr, "yarnplay-validate:", err)
		return 2
	}
	for i := range *nodes {
		spec := core.NodeSpec{Name: fmt.Sprintf("n%d", i), Capacity: resource.New(*nodeMB, *nodeVCores)}
		if err := s.AddNode(spec); err != nil {
			fmt.Fprintln(stderr, "yarnplay-validate:", err)
			return 2
		}
	}
	fmt.Fprintf(stdout, "OK %s: Hadoop accepts this configuration (%s rules) and yarnplay simulates it.\n", path, *profileName)
	printWarnings(stdout, res.Warnings)
	cluster := s.ClusterResource()
	fmt.Fprintf(stdout, "\nOn %d nodes of %d MB and %d vcores (cluster %s):\n\n", *nodes, *nodeMB, *nodeVCores, cluster)
	printTree(stdout, s.Queues(), s.Settings().MixedQueueMode)
	printLabels(stdout, res.Parsed.Root)
	return 0
}

// printLabels lists the queues' node-label settings: accessible labels,
// default label expression, and each label's capacities (as fractions of
// the partition, absolute down the path).
func printLabels(w io.Writer, root *config.QueueConf) {
	labels := config.ConfiguredLabels(root)
	any := len(labels) > 0
	root.Walk(func(q *config.QueueConf) {
		any = any || q.Labels.DefaultExpression != "" || q.Parent != nil && q.AccessibleString() != config.Any
	})
	if !any {
		return
	}
	fmt.Fprintf(w, "\nNode labels (partitions) the queues configure: %s\n", strings.Join(labels, ", "))
	root.Walk(func(q *config.QueueConf) {
		line := q.Path + ": accessible " + q.AccessibleString()
		if len(q.Labels.Accessible) == 0 {
			line = q.Path + ": accessible: the default partition only"
		}
		if q.Labels.DefaultExpression != "" {
			line += ", default-node-label-expression " + q.Labels.DefaultExpression
		}
		for _, l := range labels {
			if lc, ok := q.Labels.ByLabel[l]; ok {
				line += fmt.Sprintf("; %s: capacity %s, maximum %s, absolute %s, absolute maximum %s", l,
					pct(lc.Capacity), pct(lc.MaxCapacity), pct(lc.AbsCapacity), pct(lc.AbsMaxCapacity))
			}
		}
		fmt.Fprintln(w, line)
	})
}

func printWarnings(w io.Writer, warnings []string) {
	for _, m := range warnings {
		fmt.Fprintf(w, "warning: %s\n", m)
	}
}

func printTree(w io.Writer, queues []core.QueueView, mixed bool) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "queue\tstate\tcapacity\tmaximum-capacity\tabsolute capacity\tabsolute maximum\tguaranteed\tmaximum\tordering")
	for _, q := range queues {
		name := strings.Repeat("  ", q.Depth) + q.Name
		if q.Depth == 0 {
			name = q.Path
		}
		ordering := q.OrderingPolicy
		if q.Priority != 0 {
			ordering += fmt.Sprintf(", priority %d", q.Priority)
		}
		if q.MaxParallelApps != math.MaxInt32 {
			ordering += fmt.Sprintf(", max-parallel-apps %d", q.MaxParallelApps)
		}
		capacity := pct(q.Capacity)
		if q.Weighted {
			capacity = config.JavaFloatString(q.Weight) + "w"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name, q.State,
			capacity, pct(q.MaxCapacity), pct(q.AbsCapacity), pct(q.AbsMaxCapacity),
			res(q.EffectiveMin), res(q.EffectiveMax), ordering)
	}
	tw.Flush()
	for _, q := range queues {
		if q.Absolute {
			max := "its parent's maximum"
			if !q.ConfiguredMax.IsZero() {
				max = res(q.ConfiguredMax)
			}
			fmt.Fprintf(w, "%s: absolute, configured %s, at most %s; its capacities are derived from the cluster.\n",
				q.Path, res(q.ConfiguredMin), max)
		}
		switch {
		case q.Weighted && mixed:
			fmt.Fprintf(w, "%s: weight %sw, %s of what its parent has left after its absolute and percentage siblings.\n",
				q.Path, config.JavaFloatString(q.Weight), pct(q.NormalizedWeight))
		case q.Weighted:
			fmt.Fprintf(w, "%s: weight %sw, %s of its parent (its weight over the sum of its siblings' weights).\n",
				q.Path, config.JavaFloatString(q.Weight), pct(q.NormalizedWeight))
		}
		if q.ManagedParent {
			fmt.Fprintf(w, "%s: auto-create enabled parent; its leaves are created from its leaf-queue-template "+
				"when the queue mappings place applications in them.\n", q.Path)
		}
		if q.FlexibleParent {
			fmt.Fprintf(w, "%s: flexible auto-queue creation (Hadoop 3.4); leaves are created under it, up to %d children, "+
				"with its template's properties (weight 1w unless set), when applications are placed in queues that do not exist.\n",
				q.Path, q.MaxChildQueues)
		}
	}
}

func pct(f float32) string { return fmt.Sprintf("%.2f%%", float64(f)*100) }

func res(r resource.Resource) string { return fmt.Sprintf("%d MB, %d vcores", r.MemoryMB, r.VCores) }

func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, scenarios.MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > scenarios.MaxFileBytes {
		return nil, fmt.Errorf("%s is larger than %d MiB", path, scenarios.MaxFileBytes>>20)
	}
	return data, nil
}
