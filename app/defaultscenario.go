package app

import "yarnplay/core/resource"

// TODO(scenarios): replace this file with the built-in lesson from package
// scenarios when it lands; it exists only so the walking skeleton has data.

// Scenario is the cluster and the capacity-scheduler configuration the page
// shows: the part of a scenario the queue tree needs.
type Scenario struct {
	// Name is the scenario's title.
	Name string
	// Nodes is the number of NodeManagers in the cluster.
	Nodes int64
	// NodeResource is what each NodeManager offers.
	NodeResource resource.Resource
	// Properties are capacity-scheduler.xml properties, full keys
	// (yarn.scheduler.capacity.root.queues and so on).
	Properties map[string]string
}

// ClusterResource is the whole cluster: Nodes times NodeResource.
func (s Scenario) ClusterResource() resource.Resource {
	return s.NodeResource.Times(s.Nodes)
}

// DefaultScenario returns the book's YARNRollers cluster: 100 nodes of
// 10240 MB and 8 vcores, three departments under root and two teams under
// each. It returns a fresh map on every call, so callers may change it.
//
// To be replaced by the built-in lesson from package scenarios.
func DefaultScenario() Scenario {
	const p = "yarn.scheduler.capacity."
	return Scenario{
		Name:         "YARNRollers",
		Nodes:        100,
		NodeResource: resource.New(10240, 8),
		Properties: map[string]string{
			p + "root.queues":                    "grumpy-engineers,finance-wizards,marketing-moguls",
			p + "root.grumpy-engineers.capacity": "60",
			p + "root.finance-wizards.capacity":  "10",
			p + "root.marketing-moguls.capacity": "30",

			p + "root.grumpy-engineers.queues":                    "infinite-monkeys,pesky-testers",
			p + "root.grumpy-engineers.infinite-monkeys.capacity": "20",
			p + "root.grumpy-engineers.pesky-testers.capacity":    "80",

			p + "root.finance-wizards.queues":                          "meticulous-accountants,thrifty-treasurers",
			p + "root.finance-wizards.meticulous-accountants.capacity": "50",
			p + "root.finance-wizards.thrifty-treasurers.capacity":     "50",

			p + "root.marketing-moguls.queues":                   "brand-exploders,social-savants",
			p + "root.marketing-moguls.brand-exploders.capacity": "50",
			p + "root.marketing-moguls.social-savants.capacity":  "50",
		},
	}
}
