//go:build amd64 || 386

package measure

import "github.com/klauspost/cpuid/v2"

// processorInfo is what the processor states of itself through CPUID:
// its name, maker and family, whether it runs under a hypervisor, and
// its L1 data and L2 cache sizes (leaf 4 on Intel, leaves 0x80000005
// and 0x80000006 or 0x8000001D on AMD). It is the fallback where the
// OS lists no caches: a guest whose kernel exposes no
// /sys/devices/system/cpu/cpu0/cache (the Zen 5 guest of
// docs/hierarchy.md), and Windows or macOS on x86, where ReadOSInfo
// has no files to read.
//
// The first two levels are each core's own on every x86 design with a
// third level, so they are listed as CPUCaches (what osLevelSizes may
// set a level's size to); the third, shared with the other cores and on
// a guest with other guests, is left to the curves, as with the OS's
// list. On the few without a third level (a Core 2, whose L2 is shared
// and last) the L2 matches no step: the steps osLevelSizes sets lie at a
// quarter of the last cache or below (stepMerge), and the last cache is
// the L2 itself, read off the throughput curve.
func processorInfo() OSInfo {
	c := cpuid.CPU
	o := OSInfo{
		CPU:     c.BrandName,
		Vendor:  c.VendorString,
		Family:  c.Family,
		Virtual: c.Has(cpuid.HYPERVISOR),
	}
	for _, size := range []int{c.Cache.L1D, c.Cache.L2} {
		if size <= 0 {
			break // a level it does not state ends the list: sizes stay in order
		}
		o.CPUCaches = append(o.CPUCaches, int64(size))
	}
	return o
}
