package measure

import "fmt"

// LevelOverlapOf is the share of each cache level's transfers that hides
// behind the longest level's on the processor info describes
// (machine.Machine.LevelOverlap), and why. It is not measured: every loop
// calibration can time moves a line through all the levels in turn, so
// the curves' steps hold the levels' costs only as a sum, whichever way
// the core overlaps them, and a loop that mixes levels is held back by
// how many misses the core's window keeps in flight, which the model
// does not describe (docs/hierarchy.md, the levels' overlap). It follows
// the execution-cache-memory (ECM) model's finding per architecture
// (Hofmann, Alappat, Hager, Fey and Wellein, "Bridging the architecture
// gap", 2020; the machine files of Kerncraft): AMD's Zen
// cores (family 23 and later, and Hygon's Zen-based family 24) overlap
// the transfers between their levels, Intel's cores and the others
// measured there do not.
func LevelOverlapOf(info OSInfo) (float64, string) {
	switch {
	case info.Vendor == "AuthenticAMD" && info.Family >= 23, info.Vendor == "HygonGenuine" && info.Family >= 24:
		return 1, fmt.Sprintf("level_overlap 1 from the processor (%s family %d, a Zen core): its levels' transfers overlap (the ECM model's finding for Zen), not measured", info.Vendor, info.Family)
	}
	return 0, ""
}
