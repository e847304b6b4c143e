// Command yarnplay-check runs scenario files through the headless runner
// and checks their expectations:
//
//	go run ./scenarios/cmd/yarnplay-check [-narrate] FILE|DIR...
//
// For each scenario it prints `PASS name` or `FAIL name` followed by one
// indented line per mismatch, then a last line `N passed, M failed`. A
// directory stands for its *.yaml, *.yml and *.json files. The exit status
// is 0 when all pass, 1 when any fails, 2 on a usage error.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"yarnplay/scenarios"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("yarnplay-check", flag.ContinueOnError)
	fl.SetOutput(stderr)
	narrate := fl.Bool("narrate", false, "print the decision record of every step")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: yarnplay-check [-narrate] FILE|DIR...")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() == 0 {
		fl.Usage()
		return 2
	}
	files, err := expand(fl.Args())
	if err != nil {
		fmt.Fprintln(stderr, "yarnplay-check:", err)
		return 2
	}
	passed, failed := 0, 0
	for _, f := range files {
		if check(f, *narrate, stdout) {
			passed++
		} else {
			failed++
		}
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return 1
	}
	return 0
}

// expand replaces directories by their scenario files, sorted.
func expand(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		info, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			out = append(out, a)
			continue
		}
		entries, err := os.ReadDir(a)
		if err != nil {
			return nil, err
		}
		var found []string
		for _, e := range entries {
			switch strings.ToLower(filepath.Ext(e.Name())) {
			case ".yaml", ".yml", ".json":
				if !e.IsDir() {
					found = append(found, filepath.Join(a, e.Name()))
				}
			}
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
}

// check runs one file and prints its verdict; true when it passes.
func check(path string, narrate bool, w io.Writer) bool {
	sc, err := loadFile(path)
	if err != nil {
		fmt.Fprintf(w, "FAIL %s\n", path)
		for _, line := range strings.Split(err.Error(), "\n") {
			fmt.Fprintf(w, "  %s\n", line)
		}
		return false
	}
	res := scenarios.Run(sc, scenarios.RunOptions{Narrate: narrate})
	verdict := "PASS"
	if !res.Passed {
		verdict = "FAIL"
	}
	fmt.Fprintf(w, "%s %s\n", verdict, res.Name)
	for _, m := range res.Mismatches {
		fmt.Fprintf(w, "  %s\n", m)
	}
	if narrate {
		fmt.Fprint(w, res.NarrationText("    "))
	}
	return res.Passed
}

// loadFile reads a scenario file from disk, bounded like scenarios.Load,
// naming it by the path given in messages.
func loadFile(path string) (*scenarios.Scenario, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, scenarios.MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	return scenarios.Parse(path, data)
}
