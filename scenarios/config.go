package scenarios

import (
	"fmt"
	"maps"
	"strings"

	"yarnplay/core/config"
)

// capacityPrefix starts every Capacity Scheduler property.
const capacityPrefix = "yarn.scheduler.capacity."

// StartConfig returns the configuration the scenario starts with: its
// config_xml parsed with config.ParseXML, then its config map merged over
// it (a key in both takes the map's value).
func (sc *Scenario) StartConfig() (*config.Conf, error) {
	c := config.FromMap(nil)
	if strings.TrimSpace(sc.ConfigXML) != "" {
		x, err := config.ParseXML([]byte(sc.ConfigXML))
		if err != nil {
			return nil, fmt.Errorf("config_xml is not a valid Hadoop configuration file: %w", err)
		}
		c = x
	}
	for _, k := range sortedKeys(sc.Config) {
		c.Set(k, sc.Config[k])
	}
	return c, nil
}

// startConfigMap is StartConfig as a map (without going through the
// config package when there is no XML).
func (sc *Scenario) startConfigMap() (map[string]string, error) {
	if strings.TrimSpace(sc.ConfigXML) == "" {
		return maps.Clone(sc.Config), nil
	}
	c, err := sc.StartConfig()
	if err != nil {
		return nil, err
	}
	return c.Map(), nil
}

// countQueues counts the queues a configuration defines, from root down
// the `queues` lists, stopping past MaxQueues; it also returns the deepest
// queue path found and its depth below root (root is 0), or, at the first
// queue name over MaxNameBytes, that queue's path and minus its name's
// length.
func countQueues(conf map[string]string) (n int, deepest string, depth int) {
	type item struct {
		path  string
		depth int
	}
	deepest = "root"
	stack := []item{{"root", 0}}
	for len(stack) > 0 && n <= MaxQueues {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n++
		if it.depth > depth {
			deepest, depth = it.path, it.depth
		}
		for _, child := range strings.Split(conf[capacityPrefix+it.path+".queues"], ",") {
			if child = strings.TrimSpace(child); len(child) > MaxNameBytes {
				return n, it.path + "." + child, -len(child)
			} else if child != "" {
				stack = append(stack, item{it.path + "." + child, it.depth + 1})
			}
		}
	}
	return n, deepest, depth
}

// queueLimits describes how a configuration exceeds MaxQueues or
// MaxQueueDepth, or returns "".
func queueLimits(conf map[string]string) string {
	n, deepest, depth := countQueues(conf)
	switch {
	case depth < 0:
		return nameTooLong("queue", deepest[len(deepest)+depth:]) // a name over MaxNameBytes
	case n > MaxQueues:
		return fmt.Sprintf("the configuration defines more than %d queues; the limit is %d queues", MaxQueues, MaxQueues)
	case depth > MaxQueueDepth:
		if len(deepest) > 120 {
			deepest = deepest[:120] + "..."
		}
		return fmt.Sprintf("queue %s is %d levels below root; the limit is %d levels", deepest, depth, MaxQueueDepth)
	}
	return ""
}
