//go:build linux && (amd64 || 386)

package measure

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestProcessorInfoAgreesWithLinux checks what CPUID states against
// what the Linux kernel, which reads the same CPUID leaves its own way,
// lists in /proc/cpuinfo: the maker and the family (base family plus
// the extended family where the base is 15); and the L1 data and
// L2 sizes against sysfs's cache entries where the kernel has them, or
// else, on AMD, against /proc/cpuinfo's "cache size", which on AMD is
// the L2 (leaf 0x80000006; on Intel it is the last level, so it is not
// compared there).
func TestProcessorInfoAgreesWithLinux(t *testing.T) {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skip("no /proc/cpuinfo:", err)
	}
	first := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if k = strings.TrimSpace(k); ok && first[k] == "" {
			first[k] = strings.TrimSpace(v)
		}
	}
	p := processorInfo()
	if p.Vendor != first["vendor_id"] {
		t.Errorf("vendor %q, /proc/cpuinfo %q", p.Vendor, first["vendor_id"])
	}
	if fam, err := strconv.Atoi(first["cpu family"]); err == nil && p.Family != fam {
		t.Errorf("family %d, /proc/cpuinfo %d", p.Family, fam)
	}
	// The name is not compared: the Zen 5 guest's processor calls itself
	// "Oxide Virtual Turin-like Processor" where its kernel lists "AMD EPYC".
	if len(p.CPUCaches) != 2 {
		t.Fatalf("the processor states caches %v, want its L1 data cache and L2", p.CPUCaches)
	}
	sysfs := make([]int64, 2) // L1 data and L2 as the kernel lists them
	dirs, _ := filepath.Glob("/sys/devices/system/cpu/cpu0/cache/index*")
	for _, d := range dirs {
		read := func(name string) string {
			b, _ := os.ReadFile(filepath.Join(d, name))
			return strings.TrimSpace(string(b))
		}
		if level, err := strconv.Atoi(read("level")); err == nil && level >= 1 && level <= 2 && read("type") != "Instruction" {
			sysfs[level-1] = parseSysfsSize(read("size"))
		}
	}
	switch {
	case sysfs[0] > 0 && sysfs[1] > 0:
		if !slices.Equal(p.CPUCaches, sysfs) {
			t.Errorf("L1 and L2 %v, sysfs %v", p.CPUCaches, sysfs)
		}
	case p.Vendor == "AuthenticAMD" && first["cache size"] != "":
		kb, err := strconv.ParseInt(strings.TrimSuffix(first["cache size"], " KB"), 10, 64)
		if err != nil {
			t.Fatalf("cache size %q: %v", first["cache size"], err)
		}
		if p.CPUCaches[1] != kb<<10 {
			t.Errorf("L2 %d B, /proc/cpuinfo's cache size %d KB", p.CPUCaches[1], kb)
		}
	default:
		t.Skip("neither sysfs nor an AMD /proc/cpuinfo lists the L2 to compare with")
	}
}
