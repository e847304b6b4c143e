// Package config reads Capacity Scheduler configurations the way Hadoop 3.3
// does: Hadoop configuration XML (ParseXML, Conf.XML), the global settings
// and the queue tree with every load-time check and derived static value
// (Parse), access control lists (ParseACL), and Java's number parsing and
// formatting (JavaFloatString, JavaDoubleString), so that numbers and
// messages match Hadoop's to the digit.
//
// Each rule names the Hadoop class and method it mirrors
// (CapacitySchedulerConfiguration, AbstractCSQueue.setupQueueConfigs,
// ParentQueue.setChildQueues, LeafQueue.setupQueueConfigs, CSQueueUtils,
// AccessControlList, Configuration). Capacities are Java 32-bit floats and
// are computed with the same operations in the same order.
//
// Hostile input is bounded: ParseXML refuses files over MaxXMLBytes or with
// more than MaxXMLProperties properties, Parse refuses trees of more than
// MaxQueues queues or deeper than MaxQueueDepth, and every refusal is an
// *Error naming the property and queue. Fuzz targets cover the XML, the
// queue tree, the resource strings of maximum-allocation and ACLs (make
// fuzz; make test runs their seeds in testdata/fuzz).
//
// The package imports only the standard library and yarnplay/core/resource.
package config
