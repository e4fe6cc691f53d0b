package measure

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"time"

	"memwall/engine/machine"
	"memwall/engine/units"
)

// Options sets how much a calibration measures.
type Options struct {
	// Quick uses fewer sizes, steps and repetitions: seconds instead of a
	// minute, for tests and for a first look.
	Quick bool
	// MaxBytes caps the one buffer every memory benchmark shares (0: four
	// four times the last cache the OS reports, at least 512 MiB, rounded up to a
	// power of two, at most 1 GiB and a quarter of RAM). A browser should
	// pass something like 256 MiB.
	MaxBytes int64
	// Progress, when set, is called before each step.
	Progress func(Progress)
	// OS is what the platform reports; zero means ReadOSInfo().
	OS *OSInfo
	// Now is the date recorded in the notes; zero means time.Now().
	Now time.Time
}

// Progress reports one step of a calibration.
type Progress struct {
	Step  string // what is being measured now
	Done  int    // steps finished
	Total int    // steps in all
}

// Result is a calibration: the machine and the raw curves behind it.
type Result struct {
	Machine    machine.Machine   `json:"machine"`
	OS         OSInfo            `json:"os"`
	Latency    []LatencyPoint    `json:"latency"`
	Throughput []ThroughputPoint `json:"throughput"`
	// SeqLines is the sequential-line curve (levels.go), over the
	// throughput curve's sizes.
	SeqLines []SeqPoint `json:"sequential_lines"`
	// Distribution is the distribution sorts' loops by array size
	// (distcurve.go), measured once the last cache is known.
	Distribution []DistPointStat `json:"distribution,omitempty"`
	// Streams is the scatter by buckets over the curve's largest
	// arrays (streams.go).
	Streams []StreamPointStat `json:"streams,omitempty"`
	// FewBuckets is the distribution sorts' loops into 2 to 32 buckets
	// in L2 (fewbuckets.go), timed in the curve's rounds.
	FewBuckets []FewPointStat  `json:"few_buckets,omitempty"`
	CoreRates  map[string]Stat `json:"core_rates,omitempty"`
	// Gather is the random reads by index at the last level's plateau
	// and memory's point (gather.go).
	Gather *GatherResult `json:"gather,omitempty"`
	// Walk is the walk down a heap past the last cache (walk.go).
	Walk *WalkResult `json:"walk,omitempty"`
	// Crowded is the reads crowded into one place of their pages
	// (crowded.go).
	Crowded *CrowdedResult `json:"crowded,omitempty"`
	// Column is the matrix product's loop by its column's shape
	// (column.go).
	Column     *ColumnResult `json:"column,omitempty"`
	Line       []LinePoint   `json:"line_offsets"`
	Sequential SeqResult     `json:"sequential"`
	RandomTime Stat          `json:"random_access_seconds"`
	Beta2      Stat          `json:"beta2"`
	Mispredict Stat          `json:"mispredict"`
	Detected   struct {
		Cache int64 `json:"cache"` // from the throughput curve; 0 when it showed no last cache
		// CacheLatency is the fit to the latency curve, kept for
		// comparison (DetectCacheLatency); 0 when none qualified.
		CacheLatency int64 `json:"cache_latency"`
		// InCache and Beyond are the throughput curve's two levels around
		// the drop at Cache, in seconds per random read.
		InCache float64 `json:"in_cache_seconds"`
		Beyond  float64 `json:"beyond_seconds"`
		Line    int64   `json:"line"` // 0 when no clear step
		// Levels are the cache sizes the latency curve's steps show,
		// before the last is replaced by Cache (DetectLevels).
		Levels []int64 `json:"levels,omitempty"`
	} `json:"detected"`
	Warnings []string `json:"warnings,omitempty"`
}

// plan holds the sizes and counts of one calibration.
type plan struct {
	buf        int64 // bytes of the shared buffer, a power of two
	latLo      int64
	perOctave  int
	latSteps   int
	latReps    int
	randAccess int
	lineSteps  int
	lineRounds int
	tpLo       int64 // throughput curve: smallest size,
	tpPerOct   int   // sizes per doubling,
	tpAccess   int   // random reads per sample,
	tpRounds   int   // samples per size
	seqBlocks  int   // 64-byte blocks read in order per sample of the sequential-line curve
}

// maxBuffer is the largest buffer a native calibration allocates.
const maxBuffer = 2 << 30

func makePlan(o Options, os OSInfo) plan {
	p := plan{latLo: 4 << 10, perOctave: 4, latSteps: 400_000, latReps: 5,
		randAccess: 4_000_000, lineSteps: 200_000, lineRounds: 9,
		tpLo: 4 << 10, tpPerOct: 4, tpAccess: 2_000_000, tpRounds: 7, seqBlocks: 32_000_000}
	if o.Quick {
		p = plan{latLo: 4 << 10, perOctave: 3, latSteps: 40_000, latReps: 3,
			randAccess: 1_000_000, lineSteps: 100_000, lineRounds: 5,
			tpLo: 4 << 10, tpPerOct: 3, tpAccess: 500_000, tpRounds: 3, seqBlocks: 8_000_000}
	}
	// The curves must pass the last cache far enough for memory's
	// latency, which fitLevels reads at eight times the last cache (and
	// from memReach times it at the curve's end): a
	// server guest's share of a last cache is 100 to 500 MiB, so the
	// buffer goes up to maxBuffer, within a quarter of the memory.
	// limit is what the buffer may not pass: MaxBytes when given, else
	// a quarter of the memory (0: not known).
	limit := o.MaxBytes
	if limit == 0 && os.Memory > 0 {
		limit = os.Memory / 4
	}
	want := int64(512 << 20)
	if mult := int64(8); os.LastCache > 0 && mult*os.LastCache > want {
		want = mult * os.LastCache
	}
	want = min(want, maxBuffer)
	if o.MaxBytes > 0 {
		want = o.MaxBytes
	} else if limit > 0 {
		want = min(want, limit)
	}
	b := int64(1 << 20)
	for b*2 <= want {
		b *= 2
	}
	if b < want {
		b *= 2 // round up: the curve must pass the cache by a margin
	}
	if limit > 0 && b > limit {
		b /= 2
	}
	p.buf = b
	return p
}

// Calibrate measures the MBRAM parameters of the machine it runs on (the
// MBRAM paper, section II): the latency curve (kept as a chart), the random-read
// throughput curve and from it C (DetectCache), the line size B, the
// sequential bandwidths and beta1, the random-line bandwidth beta2, and the
// branch-misprediction penalty m, and with levels found, each level's
// parameters (withLevels) and the reference kernels' core rates. Memory's
// bandwidths, the branch loops and the core rates are sampled between the
// rounds of the curves, so every parameter's samples spread over the whole
// run, and each is read from its fastest samples (memSampler and
// fitLevels say why). It stops with ctx's error when ctx is
// cancelled. mu1 is not measured: the paper's value 2 is kept, and the 1- and
// 2-stream bandwidths are recorded in the notes.
func Calibrate(ctx context.Context, o Options) (Result, error) {
	var res Result
	osInfo := ReadOSInfo()
	if o.OS != nil {
		osInfo = *o.OS
	}
	res.OS = osInfo
	pl := makePlan(o, osInfo)
	sizes := latencySizes(pl.latLo, pl.buf, pl.perOctave)
	total := pl.latReps + 4*pl.tpRounds + 2
	done := 0
	step := func(s string) {
		if o.Progress != nil {
			o.Progress(Progress{Step: s, Done: done, Total: total})
		}
		done++
	}

	step("allocating " + units.FormatSize(pl.buf))
	buf := make([]uint64, pl.buf/8)
	for i := range buf { // fault every page in once
		buf[i] = uint64(i)
	}
	if err := ctx.Err(); err != nil {
		return res, err
	}

	// Line size first: the cache size is rounded to whole lines.
	step("line size")
	b, lpts, err := LineSize(ctx, pl.lineSteps, pl.lineRounds)
	if err != nil {
		return res, err
	}
	res.Line, res.Detected.Line = lpts, b
	line := b
	if line == 0 {
		line = osInfo.Line
		if line == 0 {
			line = 64
		}
		res.Warnings = append(res.Warnings, fmt.Sprintf("line size: no clear step in the offset test; using %d B", line))
	}

	// Between two rounds of the curves, one sample of memory's sequential
	// and random bandwidth (memSampler says why).
	mem := newMemSampler(buf, pl.randAccess)
	mem.sample()
	round := func(s string) {
		step(s)
		mem.sample()
	}
	res.Latency, err = latencyCurve(ctx, buf, sizes, pl.latSteps, pl.latReps, round)
	if err != nil {
		return res, err
	}
	res.Detected.CacheLatency = DetectCacheLatency(res.Latency, line)

	// From here the rounds also time the branch loops and the kernels'
	// core rates, which need the first level's size from the latency
	// curve (and a cache for the two-pass product's blocks, far larger
	// than its core-rate data whatever it is).
	l1, cGuess := int64(32<<10), osInfo.LastCache
	if lv := DetectLevels(res.Latency, line); len(lv) > 0 {
		l1 = lv[0]
	}
	if cGuess == 0 {
		cGuess = max(res.Detected.CacheLatency, 8<<20)
	}
	branch := newBranchSampler()
	branch.sample()
	timers := make([]*coreTimer, len(CoreKernels))
	for i, k := range CoreKernels {
		if timers[i], err = newCoreTimer(k, l1, cGuess); err != nil {
			return res, err
		}
	}
	// Each round starts the kernels at the next one, so that no kernel
	// always comes first after the curve's memory-bound work, when the
	// core may run at another speed than in the middle of the loops.
	rounds := 0
	round = func(s string) {
		step(s)
		mem.sample()
		branch.sample()
		for i := range timers {
			timers[(i+rounds)%len(timers)].sample(0)
		}
		rounds++
	}

	// C from the throughput curve (DetectCache explains why not latency).
	tpSizes := latencySizes(pl.tpLo, pl.buf, pl.tpPerOct)
	res.Throughput, err = throughputCurve(ctx, buf, tpSizes, pl.tpAccess, pl.tpRounds, round)
	if err != nil {
		return res, err
	}
	// The sequential curve's samples are long: a stream over an array
	// that a cache below memory could hold reaches that cache's speed
	// only after several passes over it (on the development guest a
	// 62 MiB array ran 4.4 ns a line in its first two passes, memory's
	// speed, and 2.5 from the fifth; one of 128 MiB went from 4.5 to 3.6
	// over 24 passes). Two million blocks are two passes there, and read
	// the level at its warming-up, which moved from one calibration to
	// the next: the third level's β1 came out at 36 to 45 GB/s and
	// memory's at 112 to 216 in six sets of rounds, against 196 to 232
	// and 35.0 to 35.9 with 32 million blocks (docs/hierarchy.md).
	res.SeqLines, err = seqCurve(ctx, buf, tpSizes, pl.seqBlocks, pl.tpRounds, round)
	if err != nil {
		return res, err
	}
	c := DetectCache(res.Throughput, line)
	_, res.Detected.InCache, res.Detected.Beyond = detectDrop(res.Throughput)
	res.Detected.Cache = c
	if c == 0 {
		c = osInfo.LastCache
		if c == 0 {
			c = pl.buf / 8
		}
		c = c / line * line
		res.Warnings = append(res.Warnings, fmt.Sprintf("cache size: the random-read throughput curve shows no drop to memory below %s; using %s", units.FormatSize(pl.buf), units.FormatSize(c)))
	}
	cSpread := cacheSpread(res.Throughput, line)

	// The distribution curve reaches 8·C, where memory's other costs are
	// read, or as far as two arrays fit in the buffer.
	dsizes := distSizes(min(pl.buf/2, 8*c))
	ssizes := streamSizes(dsizes, 2*c)
	res.Distribution, res.Streams, res.FewBuckets, err = distributionCurve(ctx, buf, dsizes, len(ssizes), line, pl.tpRounds, round)
	if err != nil {
		return res, err
	}

	mem.sample() // the last round's sample
	res.Sequential, res.RandomTime = mem.results()
	b2 := make([]float64, len(res.RandomTime.Samples))
	for i, t := range res.RandomTime.Samples {
		b2[i] = float64(line) / t
	}
	res.Beta2 = Summarize(b2)

	res.Mispredict, _, _ = branch.results()

	now := o.Now
	if now.IsZero() {
		now = time.Now()
	}
	mode := "full"
	if o.Quick {
		mode = "quick"
	}
	m := measuredMachine(res, c, line, cSpread, mode, now)
	var warn []string
	m, warn = withLevels(m, &res)
	res.Warnings = append(res.Warnings, warn...)
	if w, why := LevelOverlapOf(osInfo); w > 0 && len(m.Levels) >= 2 {
		m.LevelOverlap = w
		if m.Notes == nil {
			m.Notes = map[string]string{}
		}
		m.Notes["level_overlap"] = why
	}
	if len(m.Levels) > 0 {
		// The curve first: the counting sorts' rates are read beside it
		// (coreTimer.rates).
		setDistribution(&m, res.Distribution)
		setFewBuckets(&m, res.FewBuckets)
		setStreams(&m, res.Streams, ssizes)
		// The four measurements below take their rounds in turn, so
		// that a neighbour's burst falls in a round of each rather than
		// in every round of one (rounder).
		plateaus := machine.PlateauPoints(machine.LevelSizes(m.Levels))
		plateau := plateaus[len(plateaus)-1]
		g, gErr := newGatherer(buf, int64(plateau), int64(machine.MemoryPoint(m.C)), m.C, gatherFrom(m.Levels), pl.tpAccess)
		w, wErr := newWalker(buf, m.Levels[0].Size, m.C)
		cw, cErr := newCrowder(buf, crowdedReads)
		col, colErr := newColumner(buf, columnSteps, m.C)
		rs := []rounder{roundFunc(func(r int) {
			step(fmt.Sprintf("random reads by index, heap walks, crowded reads and the column curve, round %d of %d", r+1, pl.tpRounds))
		})}
		if gErr == nil {
			rs = append(rs, g)
		}
		if wErr == nil {
			rs = append(rs, repeated{w, walkRoundsPer})
		}
		if cErr == nil {
			rs = append(rs, cw)
		}
		if colErr == nil {
			rs = append(rs, col)
		}
		if err := runRounds(ctx, pl.tpRounds, rs...); err != nil {
			return res, err
		}
		if err := res.optional(ctx, gErr, "the last level's β2 is the throughput curve's, and gather_curve not set", func() string {
			gr := g.result()
			res.Gather = &gr
			setGatherBeta2(&m, gr)
			setGatherCurve(&m, gr)
			return ""
		}); err != nil {
			return res, err
		}
		if err := res.optional(ctx, wErr, "walk_in_flight not set", func() string {
			wr := w.result()
			res.Walk = &wr
			return setWalkInFlight(&m, wr)
		}); err != nil {
			return res, err
		}
		if err := res.optional(ctx, cErr, "crowded_read not set", func() string {
			cr := cw.result()
			res.Crowded = &cr
			return setCrowdedRead(&m, cr)
		}); err != nil {
			return res, err
		}
		if err := res.optional(ctx, colErr, "column_curve not set", func() string {
			cc := col.result()
			res.Column = &cc
			return setColumnCurve(&m, cc)
		}); err != nil {
			return res, err
		}
		step("core rates")
		// In CoreKernels' order, each with the rates before it: the
		// simple bucket sort's passes are priced at the simple radix
		// sort's (coreTimer.rates).
		rates := map[string]Stat{}
		for _, t := range timers {
			m.CoreRates = coreRatesOf(rates)
			if rates[t.kernel], err = t.rates(m); err != nil {
				return res, err
			}
		}
		res.CoreRates = rates
		setCoreRates(&m, rates, medianRate(rates))
	}
	if o.Progress != nil {
		o.Progress(Progress{Step: "done", Done: total, Total: total})
	}
	m.Name, m.Source = "this machine", "measured by memwall calibrate"
	m.Notes["cpu"] = orUnknown(osInfo.CPU)
	m.Notes["memory"] = memNote(osInfo.Memory)
	if osInfo.LastCache > 0 {
		m.Notes["os_last_cache"] = fmt.Sprintf("L%d %s, line %d B", osInfo.LastLevel, units.FormatSize(osInfo.LastCache), osInfo.Line)
	}
	if osInfo.Virtual {
		m.Notes["virtual"] = "runs under a hypervisor: the last cache is shared with other guests"
	}
	return checkMachine(res, m)
}

// measuredMachine turns a calibration's results into MBRAM parameters and
// the notes every measured machine carries; the native and the browser
// calibration add their own name, source and notes.
func measuredMachine(res Result, c, line int64, cSpread float64, mode string, now time.Time) machine.Machine {
	seq := res.Sequential
	m := machine.Machine{
		// beta1 is the copy rate (one stream read, one written: mu1 = 2
		// streams) in the model's own byte count, the pattern the formulas
		// charge at beta1 most often (X read and Z written in the
		// permutation product, the partition and merge passes).
		//
		// Both are the fastest sample's: another guest's memory traffic
		// only ever slows a sample (fitLevels says more).
		Beta1: seq.RW2.Max,
		Beta2: res.Beta2.Max,
		Mu1:   2,
		C:     c,
		B:     line,
		M:     math.Max(0, res.Mispredict.Median),
		Spread: map[string]float64{
			"beta1":      round3(seq.RW2.Spread),
			"beta2":      round3(res.Beta2.Spread),
			"cache":      round3(cSpread),
			"mispredict": round3(res.Mispredict.Spread),
			"line":       0,
		},
		Notes: map[string]string{
			"date":              now.Format("2006-01-02"),
			"go":                runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH,
			"mode":              mode,
			"beta1_read_1":      units.FormatBandwidth(seq.Read1.Max),
			"beta1_read_2":      units.FormatBandwidth(seq.Read2.Max),
			"beta1_readwrite_1": units.FormatBandwidth(seq.RW1.Max),
			"beta1_copy_2":      units.FormatBandwidth(seq.RW2.Max),
			"random_access":     units.FormatSeconds(res.RandomTime.Min),
			"spread":            "relative interquartile range over repetitions; each value is the fastest repetition's",
			"cache_method":      "random-read throughput curve: C where the time per independent random read climbs from the cache's level to memory's (DetectCache)",
		},
	}
	if res.Detected.InCache > 0 {
		m.Notes["random_in_cache"] = units.FormatSeconds(res.Detected.InCache)
		m.Notes["random_beyond_cache"] = units.FormatSeconds(res.Detected.Beyond)
	}
	if res.Detected.CacheLatency > 0 {
		m.Notes["cache_latency_fit"] = units.FormatSize(res.Detected.CacheLatency)
	}
	if n := len(res.Latency); n > 0 {
		m.Notes["latency_smallest"] = units.FormatSeconds(res.Latency[0].Latency.Median)
		m.Notes["latency_largest"] = units.FormatSeconds(res.Latency[n-1].Latency.Median)
	}
	return m
}

// checkMachine stores m in res and refuses a machine the model would
// reject, saying why when the bandwidths came out the wrong way round.
func checkMachine(res Result, m machine.Machine) (Result, error) {
	if m.Beta2 > m.Beta1 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("beta2 (%s) came out above beta1 (%s); the machine would be rejected", units.FormatBandwidth(m.Beta2), units.FormatBandwidth(m.Beta1)))
	}
	res.Machine = m
	if err := m.Validate(); err != nil {
		return res, errors.New("the measured machine is not valid: " + err.Error())
	}
	return res, nil
}

// cacheSpread detects C once per round of the throughput curve (the r-th
// sample of every point) and returns the relative interquartile range of
// those detections.
func cacheSpread(curve []ThroughputPoint, line int64) float64 {
	if len(curve) == 0 {
		return 0
	}
	var cs []float64
	for _, ys := range throughputCurveOf(curve).rounds {
		one := make([]ThroughputPoint, len(curve))
		for i, p := range curve {
			one[i] = ThroughputPoint{Size: p.Size, Access: Stat{Median: ys[i], Min: ys[i]}}
		}
		if c := DetectCache(one, line); c > 0 {
			cs = append(cs, float64(c))
		}
	}
	return Summarize(cs).Spread
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func memNote(b int64) string {
	if b <= 0 {
		return "unknown"
	}
	return units.FormatSize(b)
}

// optional records the outcome of a measurement the machine can do
// without: err from a cancelled ctx ends the calibration (returned);
// another err is a warning, with what it leaves as it was (unset); with
// no err, apply sets the machine from the measurement and returns why it
// did not, a warning too.
func (res *Result) optional(ctx context.Context, err error, unset string, apply func() string) error {
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		res.Warnings = append(res.Warnings, err.Error()+"; "+unset)
		return nil
	}
	if why := apply(); why != "" {
		res.Warnings = append(res.Warnings, why)
	}
	return nil
}
