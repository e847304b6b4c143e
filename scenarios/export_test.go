package scenarios

// DecodeBothWays returns what the one-pass reader (ok false when it gave
// up) and the tree make of data, for the tests of package scenarios_test.
func DecodeBothWays(data []byte) (fast *Scenario, ok bool, tree *Scenario, err error) {
	fast, ok = decodeOnePass("both", data)
	tree, err = decodeTree("both", data)
	return fast, ok, tree, err
}
