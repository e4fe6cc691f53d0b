package measure

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"memwall/engine/machine"
	"memwall/engine/units"
)

// Per-level calibration: the cache hierarchy of the hierarchy model
// (engine/hier, machine.Level).
//
// Three curves over the same working-set sizes, from 4 KiB to several
// times the last cache, give every level:
//
//   - the latency curve (a dependent chase, latency.go) rises in a step
//     at each cache's size; the steps give the levels' sizes and the
//     plateaus between them each level's load-to-use latency;
//   - the random-read throughput curve (independent reads, throughput.go)
//     has a plateau per level too; the step from one plateau to the next
//     is what one random line costs to bring into a level from the level
//     below it, B/β2 of that level;
//   - the sequential-line curve (below: one read per 64 bytes, in order)
//     does the same for lines that continue a stream, B/β1 per level.
//
// The model adds a level's fill cost on top of a hit in it
// (machine.Level), so the fill costs are the steps between plateaus, not
// the plateaus themselves: an access that misses L1 and L2 and hits L3
// costs the L1 hit plus the L1 and the L2 steps.

// seqLines reads one word per 64-byte block of a, in order, with four
// accumulators, so the loop's own work (about one load and one add a
// block) stays well below a line's transfer time from any level but the
// first: its time per block over an array of S bytes is the cost of
// streaming lines from the level that holds S.
func seqLines(a []uint64) uint64 {
	var s0, s1, s2, s3 uint64
	n := len(a) &^ (4*nodeWords - 1)
	for i := 0; i < n; i += 4 * nodeWords {
		b := a[i : i+4*nodeWords : i+4*nodeWords]
		s0 += b[0]
		s1 += b[nodeWords]
		s2 += b[2*nodeWords]
		s3 += b[3*nodeWords]
	}
	return s0 + s1 + s2 + s3
}

// seqLineAt returns the seconds per 64-byte block of sequential reads over
// the first size bytes of buf: one untimed pass, then whole passes until
// at least blocks blocks are read.
func seqLineAt(ctx context.Context, buf []uint64, size int64, blocks int) (float64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	n := max(4*nodeWords, min(int(size/8), len(buf)))
	a := buf[:n]
	per := n / nodeWords
	passes := max(1, (blocks+per-1)/per)
	sink += seqLines(a)
	t0 := time.Now()
	for p := 0; p < passes; p++ {
		sink += seqLines(a)
	}
	return time.Since(t0).Seconds() / float64(passes*per), nil
}

// SeqPoint is one point of the sequential-line curve.
type SeqPoint struct {
	Size  int64 `json:"size"`  // working set in bytes
	Block Stat  `json:"block"` // seconds per 64-byte block read in order
}

// seqCurve measures the seconds per 64-byte block read in order at every
// size (sampleRounds).
func seqCurve(ctx context.Context, buf []uint64, sizes []int64, blocks, rounds int, step func(string)) ([]SeqPoint, error) {
	samples, err := sampleRounds(buf, sizes, rounds, "sequential-line curve", step, func(b []uint64, size int64, _, _ int) (float64, error) {
		return seqLineAt(ctx, b, size, blocks)
	})
	if err != nil {
		return nil, err
	}
	out := make([]SeqPoint, len(sizes))
	for i, s := range sizes {
		out[i] = SeqPoint{Size: s, Block: Summarize(samples[i])}
	}
	return out, nil
}

// curve is a measured curve reduced to what level detection needs: sizes
// and, per round, one time per size.
type curve struct {
	size   []float64
	rounds [][]float64 // rounds[r][i]
}

// curveOf gathers n points' sizes and samples into a curve.
func curveOf(n int, point func(i int) (int64, Stat)) curve {
	c := curve{}
	for i := 0; i < n; i++ {
		size, _ := point(i)
		c.size = append(c.size, float64(size))
	}
	c.rounds = roundsOf(n, func(i int) Stat { _, st := point(i); return st })
	return c
}

func latencyCurveOf(pts []LatencyPoint) curve {
	return curveOf(len(pts), func(i int) (int64, Stat) { return pts[i].Size, pts[i].Latency })
}

func throughputCurveOf(pts []ThroughputPoint) curve {
	return curveOf(len(pts), func(i int) (int64, Stat) { return pts[i].Size, pts[i].Access })
}

func seqCurveOf(pts []SeqPoint) curve {
	return curveOf(len(pts), func(i int) (int64, Stat) { return pts[i].Size, pts[i].Block })
}

// roundsOf regroups per-point samples into rounds (sample r of every
// point); a point with fewer samples repeats its median.
func roundsOf(n int, st func(int) Stat) [][]float64 {
	reps := 0
	for i := 0; i < n; i++ {
		reps = max(reps, len(st(i).Samples))
	}
	reps = max(reps, 1)
	out := make([][]float64, reps)
	for r := range out {
		out[r] = make([]float64, n)
		for i := 0; i < n; i++ {
			out[r][i] = st(i).round(r).Median
		}
	}
	return out
}

// at interpolates ys at size s in log-log (clamped at the ends).
func at(size, ys []float64, s float64) float64 {
	n := len(size)
	if n == 0 {
		return 0
	}
	if s <= size[0] {
		return ys[0]
	}
	for i := 1; i < n; i++ {
		if s <= size[i] {
			if !(ys[i-1] > 0 && ys[i] > 0) {
				return ys[i]
			}
			f := math.Log(s/size[i-1]) / math.Log(size[i]/size[i-1])
			return math.Exp(math.Log(ys[i-1]) + f*math.Log(ys[i]/ys[i-1]))
		}
	}
	return ys[n-1]
}

// lowerEnvelope is ys made non-decreasing from the right (each point the
// least of it and every point after it): the true curves rise with size
// and noise only adds time.
func lowerEnvelope(ys []float64) []float64 {
	m := make([]float64, len(ys))
	lo := math.Inf(1)
	for i := len(ys) - 1; i >= 0; i-- {
		if ys[i] > 0 {
			lo = math.Min(lo, ys[i])
		}
		m[i] = lo
	}
	return m
}

// Level detection thresholds.
const (
	// stepRise is the least rise of the latency over one doubling of the
	// working set that counts as a step to a slower level.
	stepRise = 1.4
	// stepMerge: steps closer than this factor in size are one level (a
	// TLB's reach next to a cache; the last cache read from the latency
	// curve and from the throughput curve, 7.5 and 16 MiB in one run
	// here). Current levels grow by 8 to 40 times.
	stepMerge = 4.0
)

// DetectLevels returns the sizes of the cache levels that show as steps
// in a latency curve, smallest first, rounded to whole lines. A step is a
// run of sizes over which the latency (the curve's lower envelope of
// fastest repetitions) rises at least stepRise times per doubling; its
// lower plateau tc is the latency where the run starts and its upper one
// tm a doubling after its last rising point. The level's size is read
// where the curve has risen a quarter of the step (tc·(tm/tc)^¼, in log
// terms): the chase walks one fixed cycle, so with LRU replacement it
// misses on every step once the set passes the cache and the curve jumps
// at C; with random replacement it climbs as 1 − C/S, and a quarter of a
// threefold step is reached at 1.2·C. Either way the reading is within
// a fifth of C, where the step's midpoint would be up to twice C. Steps
// within a factor stepMerge of each other are one level, read where the
// one that rises more (tm/tc) is, and the next step is compared with
// that one. A cache's own step is the large one beside it: a TLB's
// reach, or a bump of the neighbours' noise on the plateau above the
// cache, adds a step of a third or a half. Keeping the larger size
// instead, and comparing the next step with it, chained: a calibration
// of the Zen 5 guest of docs/hierarchy.md (2026-12-06) read its L2 off
// the median rounds at 756 KiB (4.7 to 15.5 ns, a rise of 3.3), a bump
// at 2 to 4 MiB (15.5 to 23.1 ns, 1.5) replaced it at 2.4 MiB, and the
// third level's step at 7.2 MiB, within stepMerge of 2.4, replaced that
// in turn: the machine lost its L2.
func DetectLevels(pts []LatencyPoint, line int64) []int64 {
	size, ys := latencyTimes(pts, func(s Stat) float64 { return s.Min })
	return levelSteps(size, ys, line)
}

// latencyTimes is the sizes of pts and the time pick takes from each
// (the median where it gives none).
func latencyTimes(pts []LatencyPoint, pick func(Stat) float64) (size, ys []float64) {
	size, ys = make([]float64, len(pts)), make([]float64, len(pts))
	for i, p := range pts {
		size[i], ys[i] = float64(p.Size), pick(p.Latency)
		if !(ys[i] > 0) {
			ys[i] = p.Latency.Median
		}
	}
	return size, ys
}

// levelSteps is DetectLevels on a curve of latencies ys at sizes size.
func levelSteps(size, ys []float64, line int64) []int64 {
	if len(size) < 4 {
		return nil
	}
	m := lowerEnvelope(ys)
	if line <= 0 {
		line = nodeStride
	}
	rise := func(i int) float64 { // latency ratio over the doubling above size[i]
		if size[i]*2 > size[len(size)-1] {
			return 1
		}
		return at(size, m, size[i]*2) / m[i]
	}
	var out []int64
	var rises []float64 // tm/tc of each level in out
	for i := 0; i < len(size); {
		if rise(i) < stepRise {
			i++
			continue
		}
		a := i
		for i < len(size) && rise(i) >= stepRise {
			i++
		}
		tc := m[a]
		end := math.Min(size[len(size)-1], size[i-1]*2)
		tm := at(size, m, end)
		if !(tm > tc) {
			continue
		}
		tq := tc * math.Pow(tm/tc, 0.25)
		c := size[a]
		for x := size[a]; x <= end; x *= math.Pow(2, 1.0/32) {
			if at(size, m, x) >= tq {
				c = x
				break
			}
		}
		c = math.Max(float64(line), math.Round(c/float64(line))*float64(line))
		if k := len(out); k > 0 && c < stepMerge*float64(out[k-1]) {
			if tm/tc > rises[k-1] {
				out[k-1], rises[k-1] = int64(c), tm/tc
			}
			continue
		}
		out, rises = append(out, int64(c)), append(rises, tm/tc)
	}
	return out
}

// levelFit is the hierarchy read off the curves.
type levelFit struct {
	levels     []machine.Level
	memLatency float64
	// latencyCurve is memory's latency by span (beyondCache), nil
	// where the latency curve does not reach two points past the last
	// cache.
	latencyCurve []machine.LatencyPoint
	spread       map[string]float64
	warnings     []string
	notes        []string
	// Plateaus, for the notes: seconds per access at each level and in
	// memory (the last entry).
	random, seq, latency []float64
	// l1Fill and l1Exposed are the first level's fill time a line and
	// the share κ of the work it does not hide (firstLevelOverlap), 0
	// where the curves do not give them.
	l1Fill, l1Exposed float64
}

// firstLevelOverlap reads how the core's work and the first level's
// fills hide each other (machine.Machine.L1Fill, L1Exposed) off the two
// curves' plateaus in the first level and the second, in seconds a line:
// the sequential-line loop takes s1 and s2 there, the random-read loop,
// which does more work a line (its addresses' arithmetic), r1 and r2.
// In the first level each loop's time is its work; in the second, a line
// of fills takes f on its own and the loop takes max(W, f) + κ·min(W, f).
// With s1 < f ≤ r1 (the light loop waits for its fills, the heavy one
// for its work), s2 = f + κ·s1 and r2 = r1 + κ·f, so κ is the smaller
// root of s1·κ² − s2·κ + (r2 − r1) = 0 and f = s2 − κ·s1. The random
// loop's step r2 − r1 is small, and under stepFloor of r1 it is taken as
// stepFloor of r1, as the β's steps are: the curves do not resolve less.
// On the development guest s1 = 0.18 ns, s2 = 0.41, r1 = 0.67 and
// r2 = 0.73 give κ = 0.18 and f = 0.38 ns, where the step of the
// sequential curve, the fill charged after the work, is 0.23 ns. It
// returns ok false where the plateaus admit no such f and κ in (0, 1]
// (no step on the sequential curve, a random loop no heavier than the
// sequential one): the machine then charges the first level's fills
// after the work.
func firstLevelOverlap(s1, s2, r1, r2 float64) (fill, exposed float64, ok bool) {
	if !(s1 > 0 && s2 > s1 && r1 > s1 && r2 > 0) {
		return 0, 0, false
	}
	disc := s2*s2 - 4*s1*math.Max(r2-r1, stepFloor*r1)
	if disc < 0 {
		return 0, 0, false
	}
	k := (s2 - math.Sqrt(disc)) / (2 * s1)
	f := s2 - k*s1
	if !(k > 0 && k <= 1 && f > s1 && f <= r1) {
		return 0, 0, false
	}
	return f, k, true
}

// fitLevels turns the three curves into cache levels. sizes are the
// levels' sizes, smallest first, the last being the machine's C. Each
// level is read at a plateau point (machine.PlateauPoints). Memory is read at
// eight times the last cache (levelsOf says why), with the share of hits
// in the last cache (C/S) taken out. Every round of the curves gives one
// value of each parameter, so each comes with a spread.
func fitLevels(sizes []int64, line int64, lat []LatencyPoint, tp []ThroughputPoint, seq []SeqPoint) levelFit {
	f := levelFit{spread: map[string]float64{}}
	if len(sizes) == 0 || len(tp) < 2 || len(seq) < 2 {
		return f
	}
	plateau := machine.PlateauPoints(sizes)
	c := float64(sizes[len(sizes)-1])
	// levelsOf returns, per round, the plateau times and memory's. For
	// the random-read curve (hits) every access is uniformly random, so
	// above a cache of C bytes it hits with probability C/S whatever the
	// replacement: a plateau read at p above the level before it still
	// holds that level's hits, and memory's read at the largest size S
	// the last cache's, which are taken out, t = (y − t_prev·C/p)/(1 − C/p).
	// The sequential and latency curves walk one fixed order, which LRU
	// turns into all misses past a cache, so they are read as they are.
	// A stream (the sequential curve) reads memory's plateau as the
	// median of the curve's points from 8·C to 16·C: a cache shared with
	// other tenants keeps part of a cyclic stream well past its share (on
	// the AMD guest the curve rose from the share, 9 to 11 MiB, until
	// about 90 MiB, past its host's 32 MiB L3), and a point read at 8·C
	// alone lands on the end of that ramp, where a share 10 % larger or
	// smaller moves it by as much (L3's β1 at 37.2, 33.4 and 38.9 GB/s in
	// three calibrations ten minutes apart, 2.40, 2.60 and 2.33 ns a
	// 64-byte block at their 8·C). A stream's pages cost one translation
	// in 64 lines, so the larger spans do not add the page walks the
	// random and latency curves would.
	levelsOf := func(cv curve, hits, stream bool) [][]float64 {
		var out [][]float64
		big := cv.size[len(cv.size)-1]
		for _, ys := range cv.rounds {
			env := lowerEnvelope(ys)
			var v []float64
			for i, p := range plateau {
				y := at(cv.size, env, p)
				if hits && i > 0 {
					r := float64(sizes[i-1]) / p
					y = math.Max(v[i-1], (y-v[i-1]*r)/(1-r))
				}
				v = append(v, y)
			}
			last := v[len(v)-1]
			// Memory is read at 8·C (or the largest size, if less): far
			// enough that the last cache holds an eighth, near enough
			// that the pages touched are those of arrays a few times the
			// cache, not of the whole buffer, whose TLB misses (two-level
			// page walks in a virtual machine) would be charged to every
			// line.
			s := math.Min(big, machine.MemoryPoint(sizes[len(sizes)-1]))
			mem := at(cv.size, ys, s)
			if stream {
				var on []float64
				for j, x := range cv.size {
					if x >= s && x <= 2*s && ys[j] > 0 {
						on = append(on, ys[j])
					}
				}
				if len(on) > 0 {
					mem = Summarize(on).Median
				}
			}
			if hits && s > c {
				mem = (mem - last*c/s) / (1 - c/s)
			}
			v = append(v, math.Max(mem, last))
			out = append(out, v)
		}
		return out
	}
	b := float64(line)
	blocks := math.Max(1, b/nodeStride) // 64-byte blocks per line
	// Each parameter's value is read off the fastest curve (every size's
	// fastest round), its spread off the rounds one by one. On a shared
	// machine another guest's burst of memory traffic slows whole rounds
	// by up to half (random reads from memory at 9.6 to 18.6 ns within a
	// minute on the development VM): it only ever adds time, so the
	// fastest round is the machine's own cost, and it is what a second
	// calibration finds again where a median drifts with the neighbours.
	//
	// The sequential curve is the exception: its plateaus are read off
	// each size's median round. A stream is not slowed by bursts alone:
	// where a level's plateau lies, part of the stream can still hit in
	// the level below (a replacement that is not LRU keeps some of a
	// cyclic stream), by an amount that changes with the round's
	// placement, so the fastest of seven rounds is a lucky one. In two
	// calibrations in a row on the development guest the fastest rounds
	// read 1.59 and 2.01 ns a block at 3.5 MiB and 1.69 and 1.95 at
	// 4 MiB, where the medians read 2.03 and 2.11, and 2.14 and 2.16;
	// L2's β1, B over the step to that plateau, came out 17 % apart off
	// the fastest rounds and 1 % apart off the medians.
	tpC, seqC := throughputCurveOf(tp), seqCurveOf(seq)
	tpR, seqR := levelsOf(tpC, true, false), levelsOf(seqC, false, true)
	tpB, seqB := levelsOf(fastestCurve(tpC), true, false)[0], levelsOf(medianCurve(seqC), false, true)[0]
	var latR [][]float64
	var latB []float64
	if len(lat) >= 2 {
		latC := latencyCurveOf(lat)
		latR, latB = levelsOf(latC, false, false), levelsOf(fastestCurve(latC), false, false)[0]
	}
	spreadOf := func(rs [][]float64, j int) float64 {
		var xs []float64
		for _, r := range rs {
			xs = append(xs, r[j])
		}
		return Summarize(xs).Spread
	}
	n := len(sizes)
	f.levels = make([]machine.Level, n)
	for i := 0; i < n; i++ {
		// β per round: B over the step to the next plateau, in seconds
		// per line (blocks per line × seconds per block for the
		// sequential curve).
		var b1s, b2s []float64
		for r := range tpR {
			b2s = append(b2s, b/(tpR[r][i+1]-tpR[r][i]))
		}
		for r := range seqR {
			b1s = append(b1s, b/(blocks*(seqR[r][i+1]-seqR[r][i])))
		}
		name := fmt.Sprintf("L%d", i+1)
		key := fmt.Sprintf("levels[%d]", i)
		tr, tn := tpB[i], tpB[i+1]
		sr, sn := seqB[i], seqB[i+1]
		b1, b2 := b/(blocks*(sn-sr)), b/(tn-tr)
		// A step too small to measure (less than stepFloor of the
		// plateau, or negative from noise) is charged as stepFloor of
		// the plateau: the level is there, its fill cost below what the
		// curves resolve.
		if !(tn-tr > stepFloor*tr) || !(b2 > 0) {
			b2 = b / math.Max(stepFloor*tr, tn-tr)
			f.warnings = append(f.warnings, fmt.Sprintf("%s: the random-read step to the next level is within the noise (%s to %s per read); β2 set from %g%% of the plateau", name, units.FormatSeconds(tr), units.FormatSeconds(tn), 100*stepFloor))
		}
		if !(sn-sr > stepFloor*sr) || !(b1 > 0) {
			b1 = b / (blocks * math.Max(stepFloor*sr, sn-sr))
			f.warnings = append(f.warnings, fmt.Sprintf("%s: the sequential step to the next level is within the noise (%s to %s per 64 B); β1 set from %g%% of the plateau", name, units.FormatSeconds(sr), units.FormatSeconds(sn), 100*stepFloor))
		}
		if b2 > b1 {
			// Independent random reads that hit the next level overlap
			// as well as a stream does (L2 on current cores): the model
			// needs β2 ≤ β1, and the two are equal within the noise.
			f.notes = append(f.notes, fmt.Sprintf("%s: a random line (%s) came out as cheap as a sequential one (%s); β2 set to β1", name, units.FormatBandwidth(b2), units.FormatBandwidth(b1)))
			b2 = b1
		}
		lv := machine.Level{Name: name, Size: sizes[i], Line: line, Beta1: round3g(b1), Beta2: round3g(b2)}
		f.spread[key+".beta1"] = positiveSpread(b1s)
		f.spread[key+".beta2"] = positiveSpread(b2s)
		if latR != nil {
			lv.Latency = round3g(latB[i])
			f.spread[key+".latency"] = round3(spreadOf(latR, i))
		}
		f.levels[i] = lv
		f.random = append(f.random, tr)
		f.seq = append(f.seq, sr)
	}
	f.random = append(f.random, tpB[n])
	f.seq = append(f.seq, seqB[n])
	if n >= 2 {
		f.readOverlap(levelsOf(quietCurve(seqC), false, true)[0], levelsOf(quietCurve(tpC), true, false)[0], seqR, tpR, blocks)
	}
	if latR != nil {
		for i := 0; i < n; i++ {
			f.latency = append(f.latency, f.levels[i].Latency)
		}
		// Memory's latency only when the curve reaches well beyond the
		// last cache (a browser's stops at 32 MiB): the extrapolation
		// from a point inside the last cache's step would amplify noise.
		// It is read at 8·C, or at the curve's end from memReach·C on: a
		// last cache that comes out at 250 MiB in one calibration and
		// 280 in the next (the Intel guest's, a share of a host L3) would
		// otherwise give the parameter in one and not the other, and at
		// 6·C a cache with random replacement still holds a sixth of the
		// set, which reads memory's latency at most a sixth of its step
		// low (a fixed cycle under LRU misses every load there).
		if float64(lat[len(lat)-1].Size) >= memReach*c {
			if latB[n] > f.levels[n-1].Latency {
				f.memLatency = round3g(latB[n])
				f.spread["mem_latency"] = round3(spreadOf(latR, n))
				f.latency = append(f.latency, latB[n])
				// The curve by span on the same terms: a browser's,
				// which stops at 32 MiB, would hold a last cache's hits
				// at its end and charge them to every larger span.
				latC := latencyCurveOf(lat)
				f.latencyCurve = beyondCache(fastestCurve(latC), medianCurve(latC), c, f.levels[n-1].Latency)
				for k, v := range curveSpreads(latC, f.latencyCurve) {
					f.spread[k] = v
				}
				if v, ok := reachSpread(latC, f.latencyCurve, f.levels[:n], c); ok {
					f.spread["dependent_reach"] = v
				}
			}
		}
	}
	return f
}

// beyondCache is the latency curve from a quarter of the last cache's
// size c on, as memory's latency by span (machine.LatencyPoint): from c
// on the fastest round's time (fastest), below it the median round's
// (median), each at least the last level's own latency lastLat; nil when
// fewer than two points lie past c.
//
// The points are taken as they are, the last cache's hits in them
// included (a chase at 2·C still finds up to half its lines there):
// the hierarchy model charges a dependent line that misses the last
// cache the step from lastLat to this curve at its kernel's span. With
// the step as measured heapsort on the development guest ran at 0.99
// and 1.00 of the estimate with heaps of 384 and 512 MiB; with the hits
// taken out, (t − lastLat·C/S)/(1 − C/S), at 0.97, and a heap of 2 GiB
// at 0.78 to 0.87 where it had run at 0.81 to 0.89 (docs/hierarchy.md).
//
// The points below c say how far into the last cache a chase still finds
// its lines (machine.Machine.DependentReach): a share of a cache that
// other tenants fill keeps less of a chase than the throughput curve,
// which sizes the level, reads, and how much less changes from round to
// round with what they run. There a round is a sample of the neighbours,
// and a sort that runs for seconds meets their typical traffic, the
// median round's; on the development guest one round found the chase's
// lines at 5.7 MiB in 21 ns, the others in 127. Where a curve would have
// more points than a machine file takes, the lowest of those go first.
func beyondCache(fastest, median curve, c, lastLat float64) []machine.LatencyPoint {
	var out []machine.LatencyPoint
	past := 0
	for i, s := range fastest.size {
		cv := fastest
		if s < c {
			cv = median
		}
		if s < c/chaseBelow || len(cv.rounds) == 0 || i >= len(cv.rounds[0]) || !(cv.rounds[0][i] > 0) {
			continue
		}
		if s >= c {
			past++
		}
		out = append(out, machine.LatencyPoint{Span: int64(s), Latency: round3g(math.Max(cv.rounds[0][i], lastLat))})
	}
	for len(out) > machine.MaxLatencyPoints && float64(out[0].Span) < c {
		out = out[1:]
	}
	if past < 2 || len(out) > machine.MaxLatencyPoints {
		return nil
	}
	return out
}

// chaseBelow is how far below the last cache's size the memory latency
// curve starts (beyondCache): a quarter, where a chase still finds the
// level on the development guest with its neighbours busiest.
const chaseBelow = 4

// curveSpreads is the spread over cv's rounds of each point of the
// memory latency curve pts at a power of two, keyed as Compare names the
// curve there (LatencyCurveParam): near the last cache a point moves
// with the share of it the host leaves the guest, from round to round as
// from one calibration to the next (the development guest's read 31 and
// 105 ns at 16 MiB in two calibrations in a row, whose spread was then
// memory's latency's, 3 and 8 %). Machine.Scaled does not move these:
// memory's latency's spread stands for the curve in a prediction's ±.
func curveSpreads(cv curve, pts []machine.LatencyPoint) map[string]float64 {
	out := map[string]float64{}
	for _, p := range pts {
		if p.Span&(p.Span-1) != 0 {
			continue
		}
		for i, s := range cv.size {
			if int64(s) != p.Span {
				continue
			}
			var xs []float64
			for _, r := range cv.rounds {
				if i < len(r) {
					xs = append(xs, r[i])
				}
			}
			out[LatencyCurveParam(p.Span)] = positiveSpread(xs)
		}
	}
	return out
}

// reachSpread is the spread over cv's rounds of a chase's reach into
// the last of levels (machine.Machine.DependentReach) off the curve pts:
// each round's reach with its own points below the last cache's size c in
// place of the median round's. It reports false when pts do not reach
// below c, where the reach is the level's size whatever the rounds read.
func reachSpread(cv curve, pts []machine.LatencyPoint, levels []machine.Level, c float64) (float64, bool) {
	if len(pts) == 0 || len(levels) == 0 || float64(pts[0].Span) >= c {
		return 0, false
	}
	lastLat := levels[len(levels)-1].Latency
	var reaches []float64
	for _, r := range cv.rounds {
		own := slices.Clone(pts)
		for j := range own {
			if float64(own[j].Span) >= c {
				break
			}
			for i, s := range cv.size {
				if int64(s) == own[j].Span && i < len(r) && r[i] > 0 {
					own[j].Latency = round3g(math.Max(r[i], lastLat))
				}
			}
		}
		reaches = append(reaches, machine.Machine{Levels: levels, MemLatencyCurve: own}.DependentReach())
	}
	return positiveSpread(reaches), true
}

// memReach is how far past the last cache the latency curve must reach
// for memory's latency to be read.
const memReach = 6

// levelSizeSpreads returns the spread of each of sizes (levels read off
// the latency curve, DetectLevels) over the curve's rounds: the levels
// detected in each round alone, the nearest to each size within a factor
// stepMerge taken as that round's reading. A round in which the level
// does not show counts as the largest spread there is (1), as a negative
// step does for a bandwidth (positiveSpread). A level below a cache that
// other guests share (the development guest's third, 12.6 to 27 MiB over
// a day) moves with their load; its spread says how far within one
// calibration.
func levelSizeSpreads(pts []LatencyPoint, line int64, sizes []int64) []float64 {
	if len(sizes) == 0 || len(pts) == 0 {
		return nil
	}
	found := make([][]float64, len(sizes))
	cv := latencyCurveOf(pts)
	for _, ys := range cv.rounds {
		steps := levelSteps(cv.size, ys, line)
		for j, s := range sizes {
			best, bestDist := 0.0, math.Log(stepMerge)
			for _, d := range steps {
				if dist := math.Abs(math.Log(float64(d) / float64(s))); dist < bestDist {
					best, bestDist = float64(d), dist
				}
			}
			found[j] = append(found[j], best) // 0: not seen in this round
		}
	}
	out := make([]float64, len(sizes))
	for j := range sizes {
		if len(found[j]) < 2 {
			continue // one round: no spread to read
		}
		out[j] = positiveSpread(found[j])
	}
	return out
}

// stepFloor is the least step between two plateaus, as a share of the
// lower, that a level's fill bandwidth is read from; a smaller one is
// charged at this share. Two calibrations in a row on the development
// guest read the same sequential plateaus within 1 to 2 % off their
// median rounds, so the difference of two is uncertain by some 3 % of
// the plateau: the third level's step to the fourth, 0.07 and 0.08 ns a
// block on 2.2, gave its β1 14 % apart, and on a later host steps of 5.1
// and 6 % (0.11 and 0.13 ns a block on 2.1) gave 596 and 529 GB/s, each
// with a spread over its rounds of 61 and 217 %. A step under 10 % is
// within the curves' own noise. It moves a stream's time through such a
// level by at most 10 %.
const stepFloor = 0.10

// medianCurve is cv reduced to one round: each size's median positive
// time over the rounds (fitLevels says where it is used).
func medianCurve(cv curve) curve {
	return reduceCurve(cv, func(xs []float64) float64 { return Summarize(xs).Median })
}

// readOverlap reads the first level's overlap with the core's work off
// the plateaus of the sequential-line curve (seq, seconds a block of
// blocks to a line) and of the random-read curve (tp), both off each
// size's quiet rounds (quietCurve): what moves these plateaus between
// rounds is the core's speed, not bursts of memory traffic, and the
// fastest rounds of the two plateaus may come from rounds the core ran at
// different speeds (κ read 0.15 to 0.33 off the fastest rounds over
// eleven calibrations of the development guest, 0.175 to 0.18 in ten of
// them off the medians). The spreads come from the rounds one by one
// (seqR, tpR), as for the β's; a round that admits no overlap counts as
// the largest spread. Plateaus that admit none leave the two out, with a
// note.
func (f *levelFit) readOverlap(seq, tp []float64, seqR, tpR [][]float64, blocks float64) {
	fill, k, ok := firstLevelOverlap(blocks*seq[0], blocks*seq[1], tp[0], tp[1])
	if !ok {
		f.notes = append(f.notes, fmt.Sprintf("L1: its plateaus (64 B in order %s and %s, random read %s and %s in L1 and L2) give no overlap of its fills with the core's work; its fills are charged after the work", units.FormatSeconds(seq[0]), units.FormatSeconds(seq[1]), units.FormatSeconds(tp[0]), units.FormatSeconds(tp[1])))
		return
	}
	f.l1Fill, f.l1Exposed = round3g(fill), round3g(k)
	var fills, ks []float64
	for r := range min(len(tpR), len(seqR)) {
		rf, rk, _ := firstLevelOverlap(blocks*seqR[r][0], blocks*seqR[r][1], tpR[r][0], tpR[r][1])
		fills, ks = append(fills, rf), append(ks, rk)
	}
	f.spread["l1_fill"], f.spread["l1_exposed"] = positiveSpread(fills), positiveSpread(ks)
}

// quietCurve is cv reduced to one round: each size's median over the
// rounds no neighbour slowed, those within quietBand of the fastest. A
// guest that shares its core with another one's thread runs a
// core-bound loop slower for whole seconds: in the development guest's
// 106th calibration most rounds of the random-read loop in L1 and L2
// ran at 1.5 to 1.8 times the fastest, the rest within a tenth of it,
// and the median of all of them was a slowed round. Where no round was
// slowed this is the median.
func quietCurve(cv curve) curve {
	return reduceCurve(cv, func(xs []float64) float64 {
		lo := slices.Min(xs)
		var quiet []float64
		for _, x := range xs {
			if x <= quietBand*lo {
				quiet = append(quiet, x)
			}
		}
		return Summarize(quiet).Median
	})
}

// quietBand is how far above the fastest round a quiet one lies.
const quietBand = 1.25

// fastestCurve is cv reduced to one round: each size's least positive
// time over the rounds (fitLevels says why).
func fastestCurve(cv curve) curve { return reduceCurve(cv, slices.Min[[]float64]) }

// reduceCurve is cv reduced to one round: pick of each size's positive
// times over the rounds, 0 where there is none.
func reduceCurve(cv curve, pick func([]float64) float64) curve {
	out := make([]float64, len(cv.size))
	for i := range cv.size {
		var xs []float64
		for _, ys := range cv.rounds {
			if i < len(ys) && ys[i] > 0 {
				xs = append(xs, ys[i])
			}
		}
		if len(xs) > 0 {
			out[i] = pick(xs)
		}
	}
	return curve{size: cv.size, rounds: [][]float64{out}}
}

// positiveSpread is the spread of the positive values, rounded; a round
// whose step came out negative counts as the largest spread there is (1).
func positiveSpread(xs []float64) float64 {
	var p []float64
	for _, x := range xs {
		if x > 0 && !math.IsInf(x, 0) {
			p = append(p, x)
		}
	}
	if len(p) < len(xs) {
		return 1
	}
	return round3(Summarize(p).Spread)
}

// round3g rounds to three significant digits: more would claim a
// precision the spreads do not have.
func round3g(v float64) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	e := math.Pow(10, math.Floor(math.Log10(math.Abs(v)))-2)
	return math.Round(v/e) * e
}

// firstLevelFastest is the levels' sizes off the median rounds (median)
// with the first level's off the fastest rounds' (fastest) where those
// put it later, by more than one step of the curves' grid (2^¼; one
// step later is the same step) to osMatch times, and short of the next
// level: the
// first level takes the same sets wherever the chase is placed (a core's
// L1 finds a line's set from its place in the page), so its step does not
// move from round to round as a larger level's does, and only a neighbour
// moves it, earlier: a thread of another tenant on the core's other
// hardware thread takes half the L1 for as long as it runs. On the Zen 5
// guest of docs/hierarchy.md one calibration's median rounds read a
// 24.6 KiB L1, their latency rising from 22 KiB in most of its rounds,
// where every round's fastest, and every other calibration's medians,
// read 47 to 48 KiB. A neighbour that runs in only some rounds moves
// the median less: calibration p8 read 33.4 KiB off the median rounds
// (their latency 1.81, 2.88 and 3.99 ns at 32, 38 and 45 KiB) and 48
// KiB off the fastest, two steps of the grid later, which a bound of
// half again left at the median's.
// firstLevelLater is how much later than the median rounds' the fastest
// rounds' first step must come to replace it: more than the curves'
// grid step, 2^¼ ≈ 1.19, and under two of them, 1.41.
const firstLevelLater = 1.3

func firstLevelFastest(median, fastest []int64) []int64 {
	if len(median) == 0 || len(fastest) == 0 {
		return median
	}
	f, m := float64(fastest[0]), float64(median[0])
	if f < firstLevelLater*m || f > osMatch*m || (len(median) > 1 && f*stepMerge > float64(median[1])) {
		return median
	}
	out := slices.Clone(median)
	out[0] = fastest[0]
	return out
}

// withLevels adds to m the levels the curves in res show: the steps of
// the latency curve's median rounds below the last cache, then the last
// cache itself (m.C, from the throughput curve, which sees it more
// reliably than a chase slowed by page walks; see DetectCache). It
// records the detected sizes in res and returns m unchanged, with a
// warning, when no level fits.
func withLevels(m machine.Machine, res *Result) (machine.Machine, []string) {
	// The sizes come off each size's median round, not its fastest. The
	// times of a level come from the fastest round (fitLevels: the
	// neighbours only add time), but where its step comes is another
	// matter: each round places the chase elsewhere in the buffer, and a
	// level's step moves from round to round (a physically indexed L2
	// takes each placement's pages unevenly onto its sets; a shared level
	// is as large as the neighbours leave it). The curve of each size's
	// fastest round takes, at every size, the round whose step came
	// latest, so its step is the largest of the rounds' and moves as much
	// as their extremes do. The median round's is their middle: over three
	// calibrations in a row on the development guest the L2 read 1.51,
	// 1.54 and 1.58 MiB off the median curve against 1.83, 1.65 and 1.72
	// off the fastest, and the third level 12.1, 12.1 and 11.3 MiB against
	// 15.0, 15.0 and 12.9.
	size, medians := latencyTimes(res.Latency, func(s Stat) float64 { return s.Median })
	_, fastest := latencyTimes(res.Latency, func(s Stat) float64 { return s.Min })
	steps := firstLevelFastest(levelSteps(size, medians, m.B), levelSteps(size, fastest, m.B))
	res.Detected.Levels = steps
	var sizes []int64
	for _, s := range steps {
		if float64(s)*stepMerge <= float64(m.C) {
			sizes = append(sizes, s)
		}
	}
	curveSizes := sizes // osLevelSizes returns a copy
	sizes, fromOS := osLevelSizes(sizes, res.OS)
	sizes = append(sizes, m.C)
	f := fitLevels(sizes, m.B, res.Latency, res.Throughput, res.SeqLines)
	if len(f.levels) == 0 {
		return m, []string{"levels: the curves are too short to read cache levels from; the machine keeps the paper's one cache"}
	}
	lm := m.WithLevels(f.levels)
	if err := machine.ValidateLevels(lm.Levels); len(err) > 0 {
		return m, []string{"levels: the measured hierarchy is not valid (" + err.Error() + "); the machine keeps the paper's one cache"}
	}
	lm.MemLatency = f.memLatency
	lm.MemLatencyCurve = f.latencyCurve
	lm.L1Fill, lm.L1Exposed = f.l1Fill, f.l1Exposed
	for k, v := range f.spread {
		lm.Spread[k] = v
	}
	for i, sp := range levelSizeSpreads(res.Latency, m.B, curveSizes) {
		if fromOS[i] {
			sp = 0 // the OS's size, the same in every round
		}
		lm.Spread[lm.SizeSpreadKey(i)] = sp
	}
	var osNote []string
	for i, set := range fromOS {
		if set {
			osNote = append(osNote, fmt.Sprintf("%s %s (its step on the latency curve at %s)", lm.Levels[i].Name, units.FormatSize(sizes[i]), units.FormatSize(curveSizes[i])))
		}
	}
	if len(osNote) > 0 {
		_, from := privateCaches(res.OS)
		lm.Notes["levels_os"] = "sizes as " + from + ": " + strings.Join(osNote, ", ")
	}
	for i, l := range lm.Levels {
		lm.Notes[fmt.Sprintf("levels[%d]", i)] = fmt.Sprintf("%s: random read %s, 64 B in order %s, dependent load %s",
			l.Name, units.FormatSeconds(f.random[i]), units.FormatSeconds(f.seq[i]), units.FormatSeconds(l.Latency))
	}
	lm.Notes["memory_plateaus"] = fmt.Sprintf("random read %s, 64 B in order %s", units.FormatSeconds(f.random[len(f.random)-1]), units.FormatSeconds(f.seq[len(f.seq)-1]))
	if len(f.notes) > 0 {
		lm.Notes["levels_adjusted"] = strings.Join(f.notes, "; ")
	}
	lm.Notes["levels_method"] = fmt.Sprintf("sizes from the steps of the latency curve, each size's median round (the first level's off each size's fastest round where that puts it later, as a neighbour on the core's other thread halves it in some rounds; a level below the last as the OS lists its cache, or where it lists none the processor (CPUID its L1 and L2), where one lies within a factor %g of the step; the last from the random-read throughput curve); β1 and β2 per level from the steps between the plateaus of the sequential-line curve (each size's median round) and the random-read curve (each size's fastest round), a step under %g%% of its plateau charged at %g%%; latencies from the latency curve's plateaus", osMatch, 100*stepFloor, 100*stepFloor)
	return lm, f.warnings
}

// privateCaches is the caches below the last that osLevelSizes may set
// a level's size to, and who states them, as the levels_os note says:
// the OS's list but its last level, or where the OS lists none the
// processor's own L1 and L2 (CPUCaches).
func privateCaches(info OSInfo) (sizes []int64, from string) {
	if len(info.Caches) == 0 {
		return info.CPUCaches, "the processor states them (CPUID)"
	}
	return info.Caches[:len(info.Caches)-1], "the operating system gives them"
}

// osLevelSizes sets each size read off the latency curve below the last
// cache to the size the operating system gives a cache below its last
// level (where it lists none, the processor's own L1 and L2, CPUCaches),
// where one lies within a factor osMatch of it (the closest pairs
// first, each cache used once), and says which it set. Levels at least
// stepMerge apart keep their order; withLevels checks the result as a
// hierarchy all the same.
//
// The curve's step says that the level is there and which it is, not
// what it holds. A random chase starts to miss a physically indexed cache
// before it is full, because the pages of its cycle fall unevenly on the
// cache's sets: the Intel development guest read its 2 MiB second level
// at 1.38 to 1.58 MiB over nine calibrations. Kernels that stream beside
// their reuse see the whole cache: there the permutation product of 2^17
// elements (1.5 MiB of arrays) ran at the same 0.40 ns an element as at
// 2^16, where an L2 of 1.38 MiB had the model fetch its streams from the
// third level and predict 2.3 times the time (docs/hierarchy.md). The
// last level stays the curve's (DetectCache): a guest's share of its
// host's cache is not what the OS lists.
func osLevelSizes(sizes []int64, info OSInfo) ([]int64, []bool) {
	out, from := slices.Clone(sizes), make([]bool, len(sizes))
	private, _ := privateCaches(info)
	// Every step and cache within osMatch of each other, closest first.
	type pair struct {
		step, cache int
		dist        float64
	}
	var pairs []pair
	for i, s := range sizes {
		for j, c := range private {
			if c <= 0 {
				continue // a level the OS lists no size for
			}
			if d := math.Abs(math.Log(float64(c) / float64(s))); d <= math.Log(osMatch) {
				pairs = append(pairs, pair{i, j, d})
			}
		}
	}
	slices.SortStableFunc(pairs, func(a, b pair) int { return cmp.Compare(a.dist, b.dist) })
	used := make([]bool, len(private))
	for _, p := range pairs {
		if !from[p.step] && !used[p.cache] {
			out[p.step], from[p.step], used[p.cache] = private[p.cache], true, true
		}
	}
	return out, from
}

// osMatch is how far apart a level's step on the latency curve and the
// OS's size for it may lie: the step read 0.69 to 0.79 of the second
// level's size on the Intel guest, and 0.50 and 0.55 of the 1 MiB L2 on
// the AMD Zen 4 guest (524 160 B, a line short of half, in one of two
// calibrations in a row, which a factor of two left at the curve's
// reading). Current levels grow by 8 to 40 times, so a step within 2.5
// (under √8) of one cache is farther from any other.
const osMatch = 2.5

// setCoreRates stores measured per-kernel rates (three digits, each
// kernel's steady rate, Stat.Steady: the fastest that one sample in ten
// reaches) and their median as the compute rate.
func setCoreRates(m *machine.Machine, rates map[string]Stat, median float64) {
	m.CoreRates = coreRatesOf(rates)
	for k, st := range rates {
		m.Spread["core_rates."+k] = round3(st.Spread)
	}
	m.ComputeRate = round3g(median)
}

// coreRatesOf is the rates as a machine stores them.
func coreRatesOf(rates map[string]Stat) map[string]float64 {
	out := make(map[string]float64, len(rates))
	for k, st := range rates {
		out[k] = round3g(st.Steady())
	}
	return out
}
