// Command yarnplay-why imports a running cluster's state from its
// ResourceManager's REST responses and says why each waiting application
// waits:
//
//	go run ./scenarios/cmd/yarnplay-why -scheduler scheduler.json -nodes nodes.json -apps apps.json \
//	    [-conf capacity-scheduler.xml] [-containers c1.json,c2.json] [-o scenario.yaml] [-rounds 3] \
//	    [-export DIR -format json|xml]
//	go run ./scenarios/cmd/yarnplay-why -scenario lesson.yaml [-step N] [-export DIR -format json|xml]
//
// It prints one line per waiting application: its id, queue, user, the
// rule that stops it (one word: am-limit, user-am-limit, user-limit,
// queue-max-capacity, parent-max-capacity, max-applications,
// max-parallel-apps, no-node-fits, reserved, locality-delay,
// queue-stopped, acl, partition; "-" when nothing did in the heartbeats
// played) and its numbers, then the sentence. The assumptions the import
// made go to standard error, each line starting with "assumption:". -o
// writes the imported scenario (for the playground); -export writes the
// state as REST responses (scheduler, nodes, apps, containers and
// capacity-scheduler.xml). With -scenario it plays a scenario file to step
// N (its end by default) instead of importing.
//
// The exit status is 0, or 2 on a usage error or unreadable input (each
// problem names the file, the path inside it and what is wrong).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"yarnplay/core"
	"yarnplay/core/resource"
	"yarnplay/scenarios"
	"yarnplay/scenarios/snapshot"
	"yarnplay/scenarios/why"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

type options struct {
	scheduler, nodes, apps, conf, containers string
	out, export, format, scenario            string
	step, rounds                             int
}

func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("yarnplay-why", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var o options
	fl.StringVar(&o.scheduler, "scheduler", "", "the /ws/v1/cluster/scheduler response (JSON or XML)")
	fl.StringVar(&o.nodes, "nodes", "", "the /ws/v1/cluster/nodes response")
	fl.StringVar(&o.apps, "apps", "", "the /ws/v1/cluster/apps response")
	fl.StringVar(&o.conf, "conf", "", "capacity-scheduler.xml, or the /ws/v1/cluster/scheduler-conf response (optional)")
	fl.StringVar(&o.containers, "containers", "", "attempts' containers responses, comma-separated (optional)")
	fl.StringVar(&o.out, "o", "", "write the imported scenario (YAML) to this file")
	fl.StringVar(&o.export, "export", "", "write the state as REST responses into this directory")
	fl.StringVar(&o.format, "format", "json", "format of -export: json or xml")
	fl.StringVar(&o.scenario, "scenario", "", "play this scenario file instead of importing a snapshot")
	fl.IntVar(&o.step, "step", -1, "with -scenario: the step to stand on (default: the end)")
	fl.IntVar(&o.rounds, "rounds", 3, "rounds of heartbeats (every node once) to play for the answer")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: yarnplay-why -scheduler FILE -nodes FILE -apps FILE [-conf FILE] [-containers FILES] [-o scenario.yaml]")
		fmt.Fprintln(stderr, "       yarnplay-why -scenario FILE [-step N]")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() > 0 || o.rounds < 1 || o.rounds > 1000 || (o.format != snapshot.JSON && o.format != snapshot.XML) {
		fl.Usage()
		return 2
	}
	var (
		s   *core.Scheduler
		err error
	)
	if o.scenario != "" {
		s, err = playScenario(o)
	} else {
		if o.scheduler == "" || o.nodes == "" || o.apps == "" {
			fmt.Fprintln(stderr, "yarnplay-why: -scheduler, -nodes and -apps are required (or -scenario)")
			fl.Usage()
			return 2
		}
		s, err = importSnapshot(o, stderr)
	}
	if err != nil {
		var ps snapshot.Problems
		if errors.As(err, &ps) {
			for _, p := range ps {
				fmt.Fprintln(stderr, "yarnplay-why:", p)
			}
		} else {
			fmt.Fprintln(stderr, "yarnplay-why:", err)
		}
		return 2
	}
	for _, v := range why.Explain(s, o.rounds) {
		fmt.Fprintln(stdout, line(v))
	}
	if o.export != "" {
		if err := export(s, o); err != nil {
			fmt.Fprintln(stderr, "yarnplay-why:", err)
			return 2
		}
	}
	return 0
}

// line is one waiting app: id, queue, user, rule and numbers, sentence.
func line(v why.Verdict) string {
	rule := string(v.Rule)
	if rule == "" {
		rule = "-"
	}
	f := []string{v.App, v.Queue, v.User, rule}
	if v.Rule != why.None && v.Rule != why.MaxApplications && v.Rule != why.ACL && v.Rule != why.QueueStopped {
		f = append(f, "used="+res(v.Used), "limit="+res(v.Limit))
	}
	f = append(f, "need="+res(v.Need), fmt.Sprintf("outstanding=%d", v.Outstanding))
	if v.Allocated > 0 {
		f = append(f, fmt.Sprintf("allocated=%d", v.Allocated))
	}
	return strings.Join(f, " ") + ": " + v.Sentence
}

func res(r resource.Resource) string { return fmt.Sprintf("%dMB,%dvc", r.MemoryMB, r.VCores) }

func readFile(name string) (snapshot.File, error) {
	info, err := os.Stat(name)
	if err != nil {
		return snapshot.File{}, snapshot.Problems{{File: name, Msg: "cannot be read: " + errText(err)}}
	}
	if info.Size() > snapshot.MaxFileBytes {
		return snapshot.File{}, snapshot.Problems{{File: name, Msg: fmt.Sprintf("the file is larger than %d MiB", snapshot.MaxFileBytes>>20)}}
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return snapshot.File{}, snapshot.Problems{{File: name, Msg: "cannot be read: " + errText(err)}}
	}
	return snapshot.File{Name: name, Data: data}, nil
}

func errText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func importSnapshot(o options, stderr io.Writer) (*core.Scheduler, error) {
	var f snapshot.Files
	var probs snapshot.Problems
	get := func(name string) snapshot.File {
		file, err := readFile(name)
		if err != nil {
			probs = append(probs, err.(snapshot.Problems)...)
		}
		return file
	}
	f.Scheduler, f.Nodes, f.Apps = get(o.scheduler), get(o.nodes), get(o.apps)
	if o.conf != "" {
		c := get(o.conf)
		f.Conf = &c
	}
	if o.containers != "" {
		for _, name := range strings.Split(o.containers, ",") {
			f.Containers = append(f.Containers, get(strings.TrimSpace(name)))
		}
	}
	if len(probs) > 0 {
		return nil, probs
	}
	sc, p, err := snapshot.Restore(f)
	if err != nil {
		return nil, err
	}
	for _, a := range sc.Assumptions {
		fmt.Fprintln(stderr, "assumption:", a)
	}
	if o.out != "" {
		y, err := sc.YAML()
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(o.out, y, 0o644); err != nil {
			return nil, err
		}
		if len(y) > scenarios.MaxFileBytes {
			fmt.Fprintf(stderr, "note: %s is %.1f MiB; the playground opens scenario files of up to %d MiB\n", o.out, float64(len(y))/(1<<20), scenarios.MaxFileBytes>>20)
		}
	}
	return p.Scheduler(), nil
}

func playScenario(o options) (*core.Scheduler, error) {
	sc, err := scenarios.Load(os.DirFS(filepath.Dir(o.scenario)), filepath.Base(o.scenario))
	if err != nil {
		return nil, err
	}
	p, err := scenarios.NewPlayer(sc)
	if err != nil {
		return nil, err
	}
	p.SetNarrate(false)
	for !p.Done() && (o.step < 0 || p.Pos() < o.step) {
		if r := p.Next(); r.Stop {
			return nil, fmt.Errorf("%s: step %d fails: %v", o.scenario, r.Step, r.Err)
		}
	}
	return p.Scheduler(), nil
}

func export(s *core.Scheduler, o options) error {
	ex, err := snapshot.ExportState(s, o.format)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(o.export, 0o755); err != nil {
		return err
	}
	files := map[string][]byte{
		"scheduler." + o.format: ex.Scheduler, "nodes." + o.format: ex.Nodes, "apps." + o.format: ex.Apps,
		"containers." + o.format: ex.Containers, "capacity-scheduler.xml": ex.Conf,
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(o.export, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
