package machine

import "testing"

// TestDuplicateKeysRefused: a key given twice, in a Kerncraft YAML file or
// a machine JSON file, is refused with the key and its lines, instead of
// one of the two values winning silently.
func TestDuplicateKeysRefused(t *testing.T) {
	const head = "model name: X\nclock: 2 GHz\ncacheline size: 64 B\n"
	_, err := ParseKerncraft([]byte(head + "clock: 3 GHz\n"))
	if got, want := err.Error(), `kerncraft: "clock": the key appears twice (lines 2 and 4); give it once`; got != want {
		t.Errorf("top-level YAML key: %q, want %q", got, want)
	}
	_, err = ParseKerncraft([]byte(head + "memory hierarchy:\n- level: L2\n  size per group: 1 MB\n  size per group: 2 MB\n"))
	if got, want := err.Error(), `kerncraft: "memory hierarchy[0].size per group": the key appears twice (lines 6 and 7); give it once`; got != want {
		t.Errorf("nested YAML key: %q, want %q", got, want)
	}
	_, err = ParseJSON([]byte("{\"name\": \"a\",\n \"name\": \"b\"}"))
	if got, want := err.Error(), `machine file: key "name" appears twice in the top-level object (line 2); give each key once`; got != want {
		t.Errorf("JSON key: %q, want %q", got, want)
	}
}
