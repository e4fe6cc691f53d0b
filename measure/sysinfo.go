package measure

// OSInfo is what the operating system says about the machine, recorded
// beside the measured values and used by the self-checks. Zero values mean
// the OS does not say (for instance in a browser).
type OSInfo struct {
	CPU       string `json:"cpu,omitempty"`
	Memory    int64  `json:"memory,omitempty"`     // bytes of RAM
	LastCache int64  `json:"last_cache,omitempty"` // bytes, highest cache level
	LastLevel int    `json:"last_level,omitempty"`
	// LowerCache is the size of the level below the last (L2 when the
	// last is L3), for the self-check of a guest that sees only part of
	// the host's last cache (calibrate_test.go).
	LowerCache int64 `json:"lower_cache,omitempty"`
	Line       int64 `json:"line,omitempty"` // coherency line size of that level
	// Caches are the data (or unified) cache sizes by level, L1 first and
	// LastLevel last, 0 where the OS lists none: what calibration sets a
	// private level's size to when the latency curve shows its step
	// (osLevelSizes).
	Caches []int64 `json:"caches,omitempty"`
	// CPUCaches are the L1 data and L2 cache sizes as the processor
	// states them (CPUID, processorInfo), L1 first, where the OS lists no
	// caches: each core's own caches, which osLevelSizes may set a level
	// below the last to as it does the OS's.
	CPUCaches []int64 `json:"cpu_caches,omitempty"`
	Virtual   bool    `json:"virtual,omitempty"`
	// Vendor and Family are the processor's maker as it names itself
	// (GenuineIntel, AuthenticAMD) and its family number, which say
	// whether the levels' transfers overlap (LevelOverlapOf).
	Vendor string `json:"vendor,omitempty"`
	Family int    `json:"family,omitempty"`
}
