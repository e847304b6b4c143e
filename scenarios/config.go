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
// the `queues` lists, stopping past MaxQueues.
func countQueues(conf map[string]string) int {
	n := 0
	stack := []string{"root"}
	for len(stack) > 0 && n <= MaxQueues {
		path := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n++
		for _, child := range strings.Split(conf[capacityPrefix+path+".queues"], ",") {
			if child = strings.TrimSpace(child); child != "" {
				stack = append(stack, path+"."+child)
			}
		}
	}
	return n
}
