package machine

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"memwall/engine/units"
)

// Level is one cache level of a memory hierarchy, from the core outwards
// (L1 first). Sizes are bytes, bandwidths bytes per second.
//
// Beta1 and Beta2 are the bandwidths of filling this level from the level
// below it (the next level, or memory for the last one): Beta1 for a line
// that continues a sequential stream, Beta2 for a line from a random place.
// A line fill costs Line/Beta on top of what a hit in this level costs, so
// an independent random read that misses levels 0..k−1 costs the sum of
// their Line/Beta2 more than an L1 hit; calibration measures them that way,
// as the steps between the plateaus of the throughput curves. The last
// level's bandwidths are therefore a little above the machine's β1 and β2,
// which the paper defines as the whole cost of a line from memory.
//
// Latency, when positive, is the load-to-use latency of a load that hits
// this level and whose address came from the load before it (a pointer
// chase); the hierarchy model charges dependent misses the step from one
// level's latency to the next (to Machine.MemLatency after the last).
type Level struct {
	Name    string  `json:"name"`
	Size    int64   `json:"size"`
	Line    int64   `json:"line"`
	Beta1   float64 `json:"beta1"`
	Beta2   float64 `json:"beta2"`
	Latency float64 `json:"latency,omitempty"`
}

// Lines is the number of lines of the level, Size/Line.
func (l Level) Lines() int64 {
	if l.Line <= 0 {
		return 0
	}
	return l.Size / l.Line
}

// Limits of a hierarchy.
const (
	// MaxLevels bounds the cache levels of a machine; real ones have three
	// or four.
	MaxLevels = 8
	// MaxLevelName bounds a level's name in bytes.
	MaxLevelName = 32
	// MaxMemLatency bounds the load-to-use latency of memory: real DRAM
	// takes 50–150 ns, memory behind a socket link or CXL some hundreds.
	MaxMemLatency = 1e-5
	// MinComputeRate and MaxComputeRate bound the simple operations per
	// second a core runs.
	MinComputeRate = 1e3
	MaxComputeRate = 1e15
)

// SingleLevelName is the name of the one level of a machine given by the
// paper's six numbers alone.
const SingleLevelName = "cache"

// Hierarchy is the machine's cache levels, L1 first: a copy of Levels, or,
// for a machine without Levels (the MBRAM paper's six numbers), the one
// level of size C and line B filled from memory at β1 and β2. Either way
// the last level has the machine's C and B (Validate holds a machine with
// Levels to that).
func (m Machine) Hierarchy() []Level {
	if len(m.Levels) > 0 {
		return append([]Level(nil), m.Levels...)
	}
	return []Level{{Name: SingleLevelName, Size: m.C, Line: m.B, Beta1: m.Beta1, Beta2: m.Beta2}}
}

// WithLevels is m with the hierarchy levels (copied) and with C and B taken
// from the last level, so that the paper's model and the hierarchy model
// see the same largest cache; β1 and β2 are taken from the last level only
// when m has none (they are the paper's whole cost of a line from memory,
// the levels' the step above the last cache). No levels gives the
// six-number machine, with C, B, β1 and β2 unchanged.
func (m Machine) WithLevels(levels []Level) Machine {
	if len(levels) == 0 {
		m.Levels = nil
		return m
	}
	m.Levels = append([]Level(nil), levels...)
	last := levels[len(levels)-1]
	m.C, m.B = last.Size, last.Line
	if m.Beta1 == 0 && m.Beta2 == 0 {
		m.Beta1, m.Beta2 = last.Beta1, last.Beta2
	}
	return m
}

// SizeSpreadKey is the key of Spread that holds the spread of level i's
// size over a calibration's rounds: "levels[i].size", but for the last
// level, whose size is the machine's C (WithLevels), "cache".
func (m Machine) SizeSpreadKey(i int) string {
	if i == len(m.Levels)-1 {
		return "cache"
	}
	return fmt.Sprintf("levels[%d].size", i)
}

// sameLevels compares the numbers of two hierarchies; names are labels.
func sameLevels(a, b []Level) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Size != b[i].Size || a[i].Line != b[i].Line || a[i].Beta1 != b[i].Beta1 || a[i].Beta2 != b[i].Beta2 || a[i].Latency != b[i].Latency {
			return false
		}
	}
	return true
}

// ValidateLevels checks a hierarchy on its own: at most MaxLevels levels,
// each named, with a line that is a power of two from 4 B to 64 KiB, a
// size that is a whole number of lines up to 1 TiB, and bandwidths from
// 1 KB/s to 1 PB/s with β2 ≤ β1; going outwards the sizes strictly grow,
// the lines do not shrink and neither does the number of lines. The last
// rule keeps the hierarchy inclusive: a fully associative LRU level holds
// every line that a level above it with fewer or as many lines holds,
// even when its lines are longer, so an access that hits a level hits
// every level below it. Errors name the field as levels[i].size.
func ValidateLevels(levels []Level) Errors {
	var es Errors
	add := es.Add
	if len(levels) > MaxLevels {
		add("levels", "a machine has at most %d cache levels; got %d", MaxLevels, len(levels))
		return es
	}
	// The levels are few (MaxLevels): each one's name, where it is a good
	// one, is kept by index, and an earlier level of the same name is
	// looked for among them, the latest first, rather than in a map.
	var named [MaxLevels]string
	for i, l := range levels {
		at := func(field string) string { return fieldAt("levels", i, field) }
		name := strings.TrimSpace(l.Name)
		switch {
		case name == "":
			add(at("name"), "a cache level needs a name such as L1, L2 or L3")
		case len(l.Name) > MaxLevelName:
			add(at("name"), "a level's name must be at most %d bytes; got %d", MaxLevelName, len(l.Name))
		case hasControl(l.Name):
			add(at("name"), "holds a control character; names are printable")
		default:
			for j := i - 1; j >= 0; j-- {
				if named[j] == name {
					add(at("name"), "%q already names levels[%d]; give each level its own name", name, j)
					break
				}
			}
			named[i] = name
		}
		lineOK := l.Line >= MinLine && l.Line <= MaxLine && units.IsPowerOfTwo(l.Line)
		if !lineOK {
			add(at("line"), "line size must be a power of two from 4 B to 64 KiB; got %d B", l.Line)
		}
		sizeOK := false
		switch {
		case l.Size <= 0 || l.Size > MaxCache:
			add(at("size"), "level size must be from one line to 1 TiB; got %d B", l.Size)
		case lineOK && l.Size < l.Line:
			add(at("size"), "level size (%s) must be at least one line (line = %s)", units.FormatSize(l.Size), units.FormatSize(l.Line))
		case lineOK && l.Size%l.Line != 0:
			add(at("size"), "level size (%s) must be a whole number of lines (line = %s)", units.FormatSize(l.Size), units.FormatSize(l.Line))
		default:
			sizeOK = lineOK
		}
		b1OK, b2OK := bandwidthOK(l.Beta1), bandwidthOK(l.Beta2)
		if !b1OK {
			add(at("beta1"), "sequential fill bandwidth must be between 1 KB/s and 1 PB/s (e.g. 100 GB/s); got %s", fmtBW(l.Beta1))
		}
		if !b2OK {
			add(at("beta2"), "random fill bandwidth must be between 1 KB/s and 1 PB/s (e.g. 50 GB/s); got %s", fmtBW(l.Beta2))
		}
		if math.IsNaN(l.Latency) || l.Latency < 0 || l.Latency > MaxMemLatency {
			add(at("latency"), "a level's latency must be 0 (not given) or up to 10 µs (e.g. 4 ns); got %s", fmtTime(l.Latency))
		}
		if b1OK && b2OK && l.Beta2 > l.Beta1 {
			add(at("beta2"), "random fill bandwidth (%s) must not exceed the level's sequential fill bandwidth beta1 (%s)", fmtBW(l.Beta2), fmtBW(l.Beta1))
		}
		if i == 0 || !sizeOK {
			continue
		}
		p := levels[i-1]
		pLineOK := p.Line >= MinLine && p.Line <= MaxLine && units.IsPowerOfTwo(p.Line)
		pSizeOK := pLineOK && p.Size >= p.Line && p.Size <= MaxCache && p.Size%p.Line == 0
		switch {
		case pLineOK && l.Line < p.Line:
			add(at("line"), "a level's line must be at least the line of the level above it, levels[%d] (%s); got %s", i-1, units.FormatSize(p.Line), units.FormatSize(l.Line))
		case pSizeOK && l.Size <= p.Size:
			add(at("size"), "a level must be larger than the level above it, levels[%d] (%s); got %s", i-1, units.FormatSize(p.Size), units.FormatSize(l.Size))
		case pSizeOK && l.Lines() < p.Lines():
			add(at("size"), "a level must hold at least as many lines as the level above it, levels[%d] (%d lines of %s); got %d lines of %s", i-1, p.Lines(), units.FormatSize(p.Line), l.Lines(), units.FormatSize(l.Line))
		}
	}
	return es
}

// validateHierarchy adds the errors of the hierarchy fields of m: the
// levels, the last level's agreement with C and B, the memory
// latency and the compute rate.
func (m Machine) validateHierarchy() Errors {
	es := ValidateLevels(m.Levels)
	add := es.Add
	if n := len(m.Levels); n > 0 && n <= MaxLevels {
		last := m.Levels[n-1]
		at := func(field string) string { return fieldAt("levels", n-1, field) }
		if last.Size != m.C && es.Field(at("size")) == "" {
			add(at("size"), "the last level is the machine's cache: its size must equal cache (%s); got %s", units.FormatSize(m.C), units.FormatSize(last.Size))
		}
		if last.Line != m.B && es.Field(at("line")) == "" {
			add(at("line"), "the last level is the machine's cache: its line must equal line (%s); got %s", units.FormatSize(m.B), units.FormatSize(last.Line))
		}
	}
	if math.IsNaN(m.MemLatency) || m.MemLatency < 0 || m.MemLatency > MaxMemLatency {
		add("mem_latency", "memory latency must be 0 (not given) or up to 10 µs (e.g. 80 ns); got %s", fmtTime(m.MemLatency))
	}
	if r := m.ComputeRate; math.IsNaN(r) || r != 0 && (r < MinComputeRate || r > MaxComputeRate) {
		add("compute_rate", "compute rate must be 0 (not given) or from 1000 to 10^15 operations per second (e.g. 3e9); got %g", r)
	}
	es = append(es, ValidateDistribution(m.Distribution)...)
	es = append(es, ValidateLatencyCurve(m.MemLatencyCurve)...)
	if m.Streams != 0 && (m.Streams < MinStreams || m.Streams > MaxStreams) {
		add("streams", "%s", streamsMsg(float64(m.Streams)))
	}
	es = append(es, ValidateStreamCost(m.StreamCost)...)
	es = append(es, ValidateFewBuckets(m.FewBuckets)...)
	es = append(es, ValidateColumnCurve(m.ColumnCurve)...)
	es = append(es, ValidateGatherCurve(m.GatherCurve)...)
	es = append(es, m.ValidateOverlap()...)
	if len(m.CoreRates) > MaxCoreRates {
		add("core_rates", "at most %d kernels may have their own rate; got %d", MaxCoreRates, len(m.CoreRates))
		return es
	}
	for _, k := range coreRateKeys(m.CoreRates) {
		switch r := m.CoreRates[k]; {
		case !kernelIDOK(k):
			add("core_rates", "a kernel id must be 1 to %d printable bytes; got %q", MaxLevelName, k)
		case !coreRateOK(r):
			add("core_rates."+k, "a kernel's rate must be from 1000 to 10^15 operations per second (e.g. 2e10); got %g", r)
		}
	}
	return es
}

// CrowdedLines is the lines, 4 KiB apart, whose reads Machine.CrowdedRead
// is timed over (measure): 2 MiB, in L2 or L3 of current cores.
const CrowdedLines = 512

// MaxWalkInFlight bounds Machine.WalkInFlight: more lines in flight than
// a core has miss buffers (a few dozen) cannot be.
const MaxWalkInFlight = 64

// MaxL1Fill bounds Machine.L1Fill: a line of the first level takes a
// fraction of a nanosecond to fill on a current core and 100 ns on the
// slowest bus.
const MaxL1Fill = 1e-6

// ValidateOverlap returns the errors of L1Fill and L1Exposed (both given
// or neither, on a machine with levels: the first one's fills) and of
// LevelOverlap (0 to 1; with fewer than two levels it has nothing to
// hide, and is kept, so that an edit that takes levels away and puts them
// back loses nothing), of WalkInFlight (0, or 1 to MaxWalkInFlight) and
// of CrowdedRead (0, or above 0 and up to MaxL1Fill).
func (m Machine) ValidateOverlap() Errors {
	var es Errors
	add := es.Add
	if w := m.LevelOverlap; math.IsNaN(w) || w < 0 || w > 1 {
		add("level_overlap", "the levels' overlap must be from 0 (the levels' fills one after the other) to 1 (the longest alone); got %g", w)
	}
	if k := m.WalkInFlight; k != 0 && !(k >= 1 && k <= MaxWalkInFlight) {
		add("walk_in_flight", "a heap walk's lines in flight must be 0 (not measured) or from 1 (one at a time) to %d; got %g", MaxWalkInFlight, k)
	}
	if r := m.CrowdedRead; math.IsNaN(r) || r < 0 || r > MaxL1Fill {
		add("crowded_read", "a crowded read's time must be 0 (not measured) or above 0 and up to 1 µs (e.g. 1.9 ns); got %s", fmtTime(r))
	}
	if m.L1Fill == 0 && m.L1Exposed == 0 {
		return es
	}
	switch f := m.L1Fill; {
	case math.IsNaN(f) || f <= 0 || f > MaxL1Fill:
		add("l1_fill", "the first level's fill time must be 0 (not measured) or above 0 and up to 1 µs a line (e.g. 0.38 ns), given with l1_exposed; got %s", fmtTime(f))
	case len(m.Levels) == 0:
		add("l1_fill", "the first level's fill time needs levels (it is the first level's); this machine has none")
	}
	if k := m.L1Exposed; math.IsNaN(k) || k <= 0 || k > 1 {
		add("l1_exposed", "the exposed share must be above 0 and at most 1 (1: the fills wait for the work), given with l1_fill; got %g", k)
	}
	return es
}

// The accepted Machine.Streams besides 0: a read and a write stream at
// least, and far more than any prefetcher follows at most.
const (
	MinStreams = 2
	MaxStreams = 1024
)

func streamsMsg(v float64) string {
	return fmt.Sprintf("streams must be 0 (not measured) or a whole number from %d to %d (e.g. 33); got %g", MinStreams, MaxStreams, v)
}

// MaxCoreRates bounds the kernels of CoreRates.
const MaxCoreRates = 64

// fieldAt names field of element i of the list key, as levels[2].size:
// made only for a message, since Model validates its machine on every
// call and a name built for every element took most of its time.
func fieldAt(key string, i int, field string) string {
	return key + "[" + strconv.Itoa(i) + "]." + field
}

// coreRateKeys is the kernels of rates whose entries validateHierarchy
// rejects, in order; nil when it rejects none, the common case, which so
// takes no sort.
func coreRateKeys(rates map[string]float64) []string {
	for k, r := range rates {
		if !kernelIDOK(k) || !coreRateOK(r) {
			return sortedKeys(rates)
		}
	}
	return nil
}

// kernelIDOK says k may key Machine.CoreRates: 1 to MaxLevelName
// printable bytes.
func kernelIDOK(k string) bool { return k != "" && len(k) <= MaxLevelName && !hasControl(k) }

// coreRateOK says r is a rate Machine.CoreRates may hold.
func coreRateOK(r float64) bool { return !math.IsNaN(r) && r >= MinComputeRate && r <= MaxComputeRate }

// hasControl says whether s holds a control character (isControl),
// reading bytes while they are ASCII.
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x80:
			return strings.IndexFunc(s[i:], isControl) >= 0
		case c != '\t' && (c < 0x20 || c == 0x7f):
			return true
		}
	}
	return false
}

func sortedKeys(m map[string]float64) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func sameRates(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// LevelSizes is the sizes of levels, the first level's first, as
// PlateauPoints takes them.
func LevelSizes(levels []Level) []int64 {
	out := make([]int64, len(levels))
	for i, l := range levels {
		out[i] = l.Size
	}
	return out
}

// PlateauPoints returns where calibration reads each level of sizes
// (smallest first) off the random-read curve, in bytes of the array read;
// memory is read at MemoryPoint. Each level's plateau is read at the
// geometric mean of its size and the level below's (a quarter of its
// size for the first), at most half its size, and for the last level at
// most a quarter of it. The random-read curve has no flat plateau in the
// middle levels (1.39 to 1.70 ns a read over 3.4 to 6.7 MiB on the
// development guest), and its geometric mean stands for the level as a
// whole: a point near the lower end gave the permutation product at 2^24
// keys 4 % less time. The last level's point also sets the step to
// memory, and its own size is the steadiest of the levels' (the cache,
// read off the throughput curve); the level below it can be a share of
// something the neighbours use too (17 to 27 MiB in a day on the
// development guest), and a point tied to it moved the last plateau along
// the slope of the last level's own step (65 to 85 MiB; 2.40 to 2.44 ns a
// line), and the third level's β1 with it by a fifth.
func PlateauPoints(sizes []int64) []float64 {
	out := make([]float64, len(sizes))
	for i, s := range sizes {
		c := float64(s)
		lo := c / 4
		if i > 0 {
			lo = float64(sizes[i-1])
		}
		p := math.Min(math.Sqrt(lo*c), c/2)
		if i == len(sizes)-1 && i > 0 {
			p = math.Min(p, c/4)
		}
		out[i] = p
	}
	return out
}

// MemoryPoint is the array size, in bytes, at which calibration reads
// memory's random reads off the curve for a last cache of c bytes: eight
// times it, where the cache holds an eighth, or the curve's largest array
// when that is less (a gibibyte in memwall's curves, which the machine
// file does not keep).
func MemoryPoint(c int64) float64 { return 8 * float64(c) }
