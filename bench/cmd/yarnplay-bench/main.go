// Command yarnplay-bench runs yarnplay's performance benchmarks (package
// yarnplay/bench, through go test -bench, one goroutine) and prints each
// figure beside its target, then writes every metric as JSON.
//
//	go run ./bench/cmd/yarnplay-bench [-bench regexp] [-o dist/bench.json] [-compare before.json]
//
// `make bench` runs it with the defaults: all benchmarks, about five minutes
// on a 2-core machine. -compare adds a column with the figures of an
// earlier JSON file (such as bench/results/baseline.json).
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Results are the metrics of every benchmark, by name then unit.
type Results struct {
	Machine    string                        `json:"machine"`
	Go         string                        `json:"go"`
	Date       string                        `json:"date"`
	Benchmarks map[string]map[string]float64 `json:"benchmarks"`
}

func main() {
	bench := flag.String("bench", ".", "the benchmarks to run (go test -bench)")
	out := flag.String("o", filepath.Join("dist", "bench.json"), "where to write the results as JSON")
	compare := flag.String("compare", "", "a JSON file of earlier results to print beside these")
	parse := flag.String("parse", "", "read go test -bench output from this file instead of running the benchmarks")
	flag.Parse()
	if err := run(*bench, *out, *compare, *parse); err != nil {
		fmt.Fprintln(os.Stderr, "yarnplay-bench:", err)
		os.Exit(1)
	}
}

func run(bench, out, compare, parse string) error {
	res := Results{Machine: machine(), Go: runtime.Version(), Date: time.Now().UTC().Format(time.RFC3339), Benchmarks: map[string]map[string]float64{}}
	var in io.Reader
	var cmd *exec.Cmd
	if parse != "" {
		f, err := os.Open(parse)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	} else {
		cmd = exec.Command("go", "test", "-run", "^$", "-bench", bench, "-benchtime", "1x", "-cpu", "1", "-timeout", "40m", "./bench/")
		cmd.Stderr = os.Stderr
		pipe, err := cmd.StdoutPipe()
		if err != nil {
			return err
		}
		if err := cmd.Start(); err != nil {
			return err
		}
		in = pipe
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		fmt.Println(line)
		if name, metrics, ok := parseLine(line); ok {
			res.Benchmarks[name] = metrics
		}
	}
	var runErr error
	if cmd != nil {
		runErr = cmd.Wait()
	}
	var before *Results
	if compare != "" {
		b, err := os.ReadFile(compare)
		if err != nil {
			return err
		}
		before = &Results{}
		if err := json.Unmarshal(b, before); err != nil {
			return fmt.Errorf("%s: %w", compare, err)
		}
	}
	fmt.Println()
	printTable(os.Stdout, &res, before)
	if out != "" {
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		b, _ := json.MarshalIndent(res, "", "  ")
		if err := os.WriteFile(out, append(b, '\n'), 0o644); err != nil {
			return err
		}
		fmt.Printf("\nresults written to %s\n", out)
	}
	if runErr != nil {
		return errors.Join(errors.New("go test -bench failed"), runErr)
	}
	return nil
}

// parseLine reads a result line of go test -bench: the name, the
// iterations, then value-unit pairs.
func parseLine(line string) (string, map[string]float64, bool) {
	f := strings.Fields(line)
	if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
		return "", nil, false
	}
	if _, err := strconv.Atoi(f[1]); err != nil {
		return "", nil, false
	}
	name := strings.TrimPrefix(f[0], "Benchmark")
	if i := strings.LastIndex(name, "-"); i > 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			name = name[:i] // the -cpu suffix
		}
	}
	m := map[string]float64{}
	for i := 2; i+1 < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return "", nil, false
		}
		m[f[i+1]] = v
	}
	return name, m, true
}

func machine() string {
	cpu := ""
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	mem := ""
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && k == "MemTotal" {
				kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
				mem = fmt.Sprintf(", %.0f GiB", kb/(1<<20))
			}
		}
	}
	return fmt.Sprintf("%s/%s, %d cores, %s%s", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), cpu, mem)
}
