package measure

import "testing"

// TestParseSysfsSize: the sizes sysfs writes for caches, by hand.
func TestParseSysfsSize(t *testing.T) {
	for in, want := range map[string]int64{"48K": 48 << 10, "107520K": 107520 << 10, "2M": 2 << 20, "64": 64, "x": 0, "-1K": 0} {
		if got := parseSysfsSize(in); got != want {
			t.Errorf("parseSysfsSize(%q) = %d, want %d", in, got, want)
		}
	}
}
