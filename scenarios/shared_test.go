package scenarios

import (
	"os"
	"testing"
)

// conformanceDir holds the conformance cases, beside the repository (CI
// checks shared/ out next to it).
const conformanceDir = "../../shared/conformance"

// requireConformanceDir skips the test when the conformance cases are
// missing on a developer's machine, and fails it in CI (CI=true).
func requireConformanceDir(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(conformanceDir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("conformance cases missing in CI: %v", err)
		}
		t.Skipf("conformance cases not found at %s: %v", conformanceDir, err)
	}
}
