package machine

import (
	"fmt"
	"math"
	"slices"

	"memwall/engine/field"
	"memwall/engine/units"
)

// Machine is the MBRAM parameter set. Sizes are bytes, bandwidths bytes per
// second, times seconds.
type Machine struct {
	ID          string `json:"id,omitempty"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Source says where the numbers came from: a paper table, a spec sheet,
	// "measured by memwall calibrate on ...", or "user".
	Source string `json:"source,omitempty"`

	Beta1 float64 `json:"beta1"` // sequential bandwidth, at most Mu1 streams
	Beta2 float64 `json:"beta2"` // bandwidth of a cache line from a random place
	Mu1   int     `json:"mu1"`   // concurrent sequential streams allowed
	C     int64   `json:"cache"` // size of the largest cache level
	B     int64   `json:"line"`  // its line (block) size
	M     float64 `json:"mispredict"`

	// Levels is the cache hierarchy, L1 first, for the hierarchy model
	// (engine/hier). A machine without levels is the paper's machine, one
	// cache level (C, B) filled from memory at β1 and β2; with levels, the
	// last one must be that cache: its size and line are C and B (see
	// Hierarchy and WithLevels).
	Levels []Level `json:"levels,omitempty"`
	// MemLatency is the load-to-use latency of memory in seconds: what a
	// dependent access (one whose address comes from a chain of loads)
	// waits for a line from a random place in memory. 0 means not given.
	MemLatency float64 `json:"mem_latency,omitempty"`
	// MemLatencyCurve, when given, is memory's latency by the span of
	// the dependent reads (LatencyPoint), past the last cache: the
	// hierarchy model charges a kernel's dependent lines from memory the
	// latency at its own span (MemLatencyAt), and MemLatency where the
	// machine has no curve.
	MemLatencyCurve []LatencyPoint `json:"mem_latency_curve,omitempty"`
	// GatherCurve, when given, is the time of independent reads at random
	// places by the span they fall over, past the last cache
	// (GatherPoint): the hierarchy model prices a kernel's reads spread
	// over a span the curve covers at its time there (GatherAt), in place
	// of the levels' hits and memory's random fill.
	GatherCurve []GatherPoint `json:"gather_curve,omitempty"`
	// ComputeRate is the simple operations per second of the core for
	// work other than memory traffic. 0 means not given.
	ComputeRate float64 `json:"compute_rate,omitempty"`
	// CoreRates, when given, are per kernel (by id) the operations per
	// second of its own loop when its data sit in the first level:
	// calibration measures them, as Kerncraft's in-core model analyses a
	// loop's instructions, because the rate of simple operations differs
	// several-fold between a loop of independent loads and one held up
	// by a division or a bumped counter. The hierarchy model uses a
	// kernel's own rate when the machine has it, else ComputeRate. Two
	// keys are not kernels: a kernel's rate at another shape (the
	// two-pass product's with several blocks, hier.TwoPassBlocksRate) and
	// the simple bucket sort's calls a second (hier.BucketCallsRate).
	CoreRates map[string]float64 `json:"core_rates,omitempty"`
	// Distribution, when given, is the measured cost of a counting
	// sort's two loops, and of the simple sorts' scatter when measured,
	// by the size of their arrays (DistPoint), which the hierarchy model
	// prices the distribution sorts' passes from.
	Distribution []DistPoint `json:"distribution,omitempty"`
	// Streams is how many sequential streams at once a core keeps
	// streaming beyond the caches, its reads and writes together: a
	// distribution pass into b buckets streams when b + 1 ≤ Streams, and
	// its bucket fills come from random places otherwise. Calibration
	// reads it off the scatter loop's time a line into 8 to 256 buckets
	// (measure). 0 means not measured: the hierarchy model then takes 16,
	// the fewest a current core's prefetcher follows.
	Streams int `json:"streams,omitempty"`
	// StreamCost, when given, is the scatter loop's time a line by the
	// number of buckets it fills at once beyond the caches (StreamPoint),
	// which the hierarchy model prices the lines a kernel moves through
	// many streams from (StreamExcess). Calibration measures it with
	// Streams.
	StreamCost []StreamPoint `json:"stream_cost,omitempty"`
	// FewBuckets, when given, is the distribution sorts' loops' time a
	// line into fewer buckets than the distribution curve's 64, in the
	// caches (FewPoint), where each key may wait for the counter the
	// key before it bumped: the hierarchy model charges a pass into so
	// few buckets at least that time (FewBucketsAt).
	FewBuckets []FewPoint `json:"few_buckets,omitempty"`
	// L1Fill and L1Exposed say how far the core's own work and the
	// filling of the first level hide each other: a core keeps many
	// misses of its first level in flight while it works, so the two run
	// side by side. L1Fill is the seconds one line of the first level's
	// fills takes on its own, L1Exposed (κ, 0 to 1) the share of the
	// shorter of the two, the work or the fills, that the longer does not
	// hide: the hierarchy model charges the core's work W and the fills F
	// together as max(W, F) + κ·min(W, F) (κ = 1: one after the other).
	// Calibration reads both off two loops that do different work a line
	// (measure). 0 means not measured: the first level's fills are then
	// charged after the work, at its β1 and β2.
	L1Fill    float64 `json:"l1_fill,omitempty"`
	L1Exposed float64 `json:"l1_exposed,omitempty"`
	// LevelOverlap (ω, 0 to 1) says how far a line's steps through the
	// levels it passes hide behind each other: all but its largest hide
	// ω of theirs, while lines that stop at different levels add
	// (hier.HideLevels; for a stream through every level, with A_i each
	// level's time, ΣA − ω·(ΣA − max A)). 0 is one after the other, the
	// form under which the levels' steps are read off the curves and
	// which Intel's cores follow; 1 is the largest step alone, as on AMD's
	// Zen cores (the execution-cache-memory model's finding). It is not measured:
	// calibration sets it from the processor (measure.LevelOverlapOf),
	// a Kerncraft file from its "transfers overlap". 0 is also the
	// default.
	LevelOverlap float64 `json:"level_overlap,omitempty"`
	// WalkInFlight is how many lines a walk down a binary heap keeps in
	// flight from a level below: the descendants of a node k levels down
	// lie in one line for k up to log2(B/w), so a core that runs ahead on
	// its guesses of the coin-toss branches loads the next lines of the
	// walk before it knows the way, as far as it runs ahead. Calibration
	// reads it off a walk down a heap of 4-byte keys eight times the last
	// cache (measure); a machine that has it has heapsort's walks wait in
	// full for their first line past each level, and the lines below it
	// a share 1/WalkInFlight of the latency step each, over the sort's
	// shrinking heap. 0 means not measured: every line a share
	// 1/log2(B/w), as far as the lines reach, at the heap's full size.
	WalkInFlight float64 `json:"walk_in_flight,omitempty"`
	// CrowdedRead is the seconds a read takes beyond a first-level hit
	// when its line takes the same place in its 4 KiB page as the lines
	// read around it (a matrix column whose rows are a multiple of
	// 4 KiB): every cache finds a line's set partly from that place, so
	// such lines share one set of the first level, and on some cores
	// their fills queue there whichever level they come from.
	// Calibration times independent reads of lines 4 KiB apart against
	// reads of lines side by side (measure); the hierarchy model charges
	// a column in one place at least this a read. 0 means not measured:
	// such reads cost what the levels' fills give.
	CrowdedRead float64 `json:"crowded_read,omitempty"`
	// ColumnCurve, when given, is the matrix product's inner loop timed
	// by the column's shape (ColumnPoint): the hierarchy model charges
	// the product at least the curve's time a step at its column's
	// places and lines, in place of CrowdedRead's floor.
	ColumnCurve []ColumnPoint `json:"column_curve,omitempty"`

	// Spread records, for measured machines, the relative spread of each
	// parameter over repetitions (keyed by the JSON field name).
	Spread map[string]float64 `json:"spread,omitempty"`
	// Notes carries free-form provenance such as CPU model and date.
	Notes map[string]string `json:"notes,omitempty"`
}

// Mu2 is the number of cache lines, C/B.
func (m Machine) Mu2() int64 {
	if m.B <= 0 {
		return 0
	}
	return m.C / m.B
}

// SameParameters reports whether two machines have the same MBRAM
// parameters and the same hierarchy (the numbers of its levels, the
// memory latency and the compute rate), whatever their ids, names and
// sources and the names of their levels.
func (m Machine) SameParameters(o Machine) bool {
	return m.Beta1 == o.Beta1 && m.Beta2 == o.Beta2 && m.Mu1 == o.Mu1 && m.C == o.C && m.B == o.B && m.M == o.M &&
		sameLevels(m.Levels, o.Levels) && m.MemLatency == o.MemLatency && slices.Equal(m.MemLatencyCurve, o.MemLatencyCurve) && m.ComputeRate == o.ComputeRate &&
		sameRates(m.CoreRates, o.CoreRates) && slices.Equal(m.Distribution, o.Distribution) && m.Streams == o.Streams && slices.Equal(m.StreamCost, o.StreamCost) && slices.Equal(m.FewBuckets, o.FewBuckets) &&
		m.L1Fill == o.L1Fill && m.L1Exposed == o.L1Exposed && m.LevelOverlap == o.LevelOverlap &&
		m.WalkInFlight == o.WalkInFlight && m.CrowdedRead == o.CrowdedRead && slices.Equal(m.ColumnCurve, o.ColumnCurve) && slices.Equal(m.GatherCurve, o.GatherCurve)
}

// Accepted ranges. They are wide enough for any real machine from the
// paper's Pentium II to a current server, and narrow enough that every
// formula stays finite.
const (
	MinBandwidth  = 1e3  // 1 KB/s
	MaxBandwidth  = 1e15 // 1 PB/s
	MinLine       = 4
	MaxLine       = 1 << 16
	MaxCache      = 1 << 40
	MaxMu1        = 1024
	MaxMispredict = 1e-6
)

// FieldError is a validation failure of one field, named by its JSON name.
type FieldError = field.Error

// Errors collects every field error of a machine, so a form can mark all of
// them at once.
type Errors = field.Errors

func bandwidthOK(v float64) bool {
	return !math.IsNaN(v) && v >= MinBandwidth && v <= MaxBandwidth
}

// Validate checks every parameter against the range the model accepts and
// returns nil or an Errors value naming each bad field. The hierarchy
// fields are checked by ValidateLevels, and the last level must agree
// with cache, line, beta1 and beta2.
func (m Machine) Validate() error {
	var es Errors
	add := es.Add
	if !bandwidthOK(m.Beta1) {
		add("beta1", "sequential bandwidth must be between 1 KB/s and 1 PB/s (e.g. 2.12 GB/s); got %s", fmtBW(m.Beta1))
	}
	if !bandwidthOK(m.Beta2) {
		add("beta2", "random-access bandwidth must be between 1 KB/s and 1 PB/s (e.g. 0.95 GB/s); got %s", fmtBW(m.Beta2))
	}
	if bandwidthOK(m.Beta1) && bandwidthOK(m.Beta2) && m.Beta2 > m.Beta1 {
		add("beta2", "random-access bandwidth (%s) must not exceed the sequential bandwidth beta1 (%s)", fmtBW(m.Beta2), fmtBW(m.Beta1))
	}
	if m.Mu1 < 1 || m.Mu1 > MaxMu1 {
		add("mu1", "concurrent sequential streams must be a whole number from 1 to %d; got %d", MaxMu1, m.Mu1)
	}
	lineOK := m.B >= MinLine && m.B <= MaxLine && units.IsPowerOfTwo(m.B)
	if !lineOK {
		add("line", "cache line size must be a power of two from 4 B to 64 KiB; got %d B", m.B)
	}
	switch {
	case m.C <= 0 || m.C > MaxCache:
		add("cache", "cache size must be from one line to 1 TiB; got %d B", m.C)
	case lineOK && m.C < m.B:
		add("cache", "cache size (%s) must be at least one line (line = %s)", units.FormatSize(m.C), units.FormatSize(m.B))
	case lineOK && m.C%m.B != 0:
		add("cache", "cache size (%s) must be a whole number of lines (line = %s)", units.FormatSize(m.C), units.FormatSize(m.B))
	}
	if math.IsNaN(m.M) || m.M < 0 || m.M > MaxMispredict {
		add("mispredict", "branch-misprediction penalty must be from 0 to 1 µs (e.g. 7.52 ns); got %s", fmtTime(m.M))
	}
	es = append(es, m.validateHierarchy()...)
	if len(es) == 0 {
		return nil
	}
	return es
}

func fmtBW(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Sprint(v)
	}
	return units.FormatBandwidth(v)
}

func fmtTime(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Sprint(v)
	}
	if v < 0 {
		return "-" + units.FormatSeconds(-v)
	}
	return units.FormatSeconds(v)
}

// NearestLines rounds a cache size to the nearest whole number of lines of
// b bytes, at least one: a size typed as shown ("10.42 MiB", to four
// digits) names the cache to within the display's rounding.
func NearestLines(c, b int64) int64 {
	if b <= 0 {
		return c
	}
	n := (c + b/2) / b
	if n < 1 {
		n = 1
	}
	return n * b
}
