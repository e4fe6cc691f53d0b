package measure

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"memwall/engine/units"
)

// Stepwise calibration, for a page that must keep its event loop turning.
//
// WebAssembly Go has one thread: while a benchmark loop runs, the page can
// neither paint nor take a click. Calibrate runs whole curves without
// returning, so a browser instead cuts the same measurements into samples
// of a few tens of milliseconds each (Steps.Next runs one) and lets the
// browser run between them. The benchmark kernels are the ones Calibrate
// uses (latencyAt, throughputAt, randomRead, the four sequential loops,
// LineSize, branchLoop); what differs is the sizing:
//
//   - every timed run lasts at least StepOptions.MinSample: a page's clock
//     (performance.now, behind time.Now in GOOS=js) is coarsened to 100 µs
//     or more (5 µs with cross-origin isolation), so the step and access
//     counts follow the last time measured at each size instead of being
//     fixed (a fixed 40 000-step chase over L1 lasts about 80 µs, less than
//     one tick), and a run that lasted under half of MinSample, a curve's
//     first size above all, is timed again for its own time (resolved);
//   - the branch loop runs several passes per sample for the same reason;
//   - the line-size test runs one round per sample and the rounds are
//     pooled here, with LineSize's own rule (the largest jump, at least
//     1.2 times).
//
// The curves interleave sizes in rounds as Calibrate's do, so a burst of
// load (or a moment in a background tab) spoils one sample of many sizes.

// StepOptions sizes a stepwise calibration.
type StepOptions struct {
	// Buffer is the size of the one buffer every memory benchmark shares;
	// it is rounded down to a power of two (at least 1 MiB). The caller
	// chooses it: in a browser a failed allocation ends the program, so
	// the page checks first what the browser will give.
	Buffer int64
	// Short is a rough run of a few seconds (one round of each curve, a
	// smaller count of everything); for a first look and for tests.
	Short bool
	// MinSample is the least duration of one timed run (0: 20 ms, 5 ms
	// when Short).
	MinSample time.Duration
	// Now is the date recorded in the notes; zero means time.Now().
	Now time.Time
}

// Steps is a calibration cut into samples. Next runs one; Result turns the
// samples into a machine once Next reports the end. It is not safe for
// concurrent use.
type Steps struct {
	o        StepOptions
	buf      []uint64
	bufBytes int64

	latSizes, tpSizes   []int64
	latRounds, tpRounds int
	seqRounds, rndReps  int
	lineRounds, brReps  int
	lineSteps           int
	randAccess          int

	jobs []stepJob
	next int

	lat, tp      [][]float64 // seconds per access, by size, one per round
	latLast      []float64   // last seconds per step at each size, for sizing
	tpLast       []float64
	sq           [][]float64 // seconds per 64-byte block, by size, one per round
	sqLast       []float64
	dist         distSamples // the distribution curve's samples by array size
	stBuckets    [][]float64 // the scatter by buckets at the curve's last size, one per round
	few          []fewSample // the loops into few buckets in L2, one per round
	core         map[string]Stat
	walk         browserWalk         // the heap walk's state (browser_walk.go)
	crowded      []float64           // seconds a crowded read, one per round (crowded.go)
	column       []ColumnResult      // the column curve, one per round (column.go)
	gather       map[int64][]float64 // the gather's seconds a read by span, one per round (gather.go)
	gatherIdx    []uint32            // the gather's index array, made once for all its steps
	base         *Result             // the machine before core rates, once the curves are done
	seq          [4][]float64        // model bytes per second: read1, read2, rw1, rw2
	rnd          []float64           // seconds per random read over the whole buffer
	linePts      [][]float64         // seconds per node, by offset
	lineOffs     []int64
	brRnd, brSrt []byte
	brOut        []byte
	brPasses     int
	brM          []float64
	brTr, brTs   []float64
	elapsed      time.Duration
}

type stepJob struct {
	name string
	run  func(ctx context.Context) error
}

// NewSteps plans a calibration and allocates its buffer (the first steps
// write it, one part at a time).
func NewSteps(o StepOptions) *Steps {
	if o.MinSample <= 0 {
		o.MinSample = 20 * time.Millisecond
		if o.Short {
			o.MinSample = 5 * time.Millisecond
		}
	}
	b := int64(1 << 20)
	for b*2 <= o.Buffer {
		b *= 2
	}
	s := &Steps{o: o, buf: make([]uint64, b/8), bufBytes: b}
	// Native quick mode's grid (makePlan): the latency curve from 4 KiB at
	// two sizes per doubling, the throughput and sequential-line curves
	// from 4 KiB at three.
	// The latency curve stops at latencyMax: each of its samples first
	// builds the random cycle over the whole working set, one pass of
	// random writes that latencyAt cannot cut, and at 256 MiB that pass
	// held a page for one to three seconds. C comes from the throughput
	// curve, which goes to the whole buffer.
	s.latSizes = latencySizes(4<<10, min(b, latencyMax), 2)
	s.tpSizes = latencySizes(4<<10, b, 3)
	s.latRounds, s.tpRounds, s.seqRounds, s.rndReps, s.lineRounds, s.brReps = 3, 3, 3, 3, 5, 5
	s.lineSteps, s.randAccess = 200_000, 1_000_000
	if o.Short {
		s.latRounds, s.tpRounds, s.seqRounds, s.rndReps, s.lineRounds, s.brReps = 1, 1, 1, 2, 2, 3
		s.lineSteps, s.randAccess = 100_000, 250_000
	}
	s.lat, s.latLast = make([][]float64, len(s.latSizes)), make([]float64, len(s.latSizes))
	s.tp, s.tpLast = make([][]float64, len(s.tpSizes)), make([]float64, len(s.tpSizes))
	s.sq, s.sqLast = make([][]float64, len(s.tpSizes)), make([]float64, len(s.tpSizes))
	// The distribution curve's two arrays share the buffer.
	s.dist = newDistSamples(distSizes(b / 2))
	s.plan()
	return s
}

// latencyMax is the largest working set of a stepwise latency curve.
const latencyMax = 32 << 20

// fillPart is how much of the buffer one step writes: the first write of a
// page costs the browser (and the OS beneath it) far more than later ones.
const fillPart = 32 << 20

func (s *Steps) add(name string, run func(ctx context.Context) error) {
	s.jobs = append(s.jobs, stepJob{name, run})
}

func (s *Steps) plan() {
	words := len(s.buf)
	parts := (int64(words)*8 + fillPart - 1) / fillPart
	for p := int64(0); p < parts; p++ {
		lo := int(p * fillPart / 8)
		hi := min(words, int((p+1)*fillPart/8))
		s.add(fmt.Sprintf("writing the %s buffer, part %d of %d", units.FormatSize(int64(words)*8), p+1, parts), func(context.Context) error {
			for i := lo; i < hi; i++ {
				s.buf[i] = uint64(i)
			}
			return nil
		})
	}

	// Line size first, as in Calibrate: C is rounded to whole lines.
	s.add("line size, sizing the chase", func(ctx context.Context) error { return s.lineRound(ctx, false) })
	for r := 0; r < s.lineRounds; r++ {
		s.add(fmt.Sprintf("line size, round %d of %d", r+1, s.lineRounds), func(ctx context.Context) error { return s.lineRound(ctx, true) })
	}
	// The curves' samples, round by round, and between them the samples
	// of memory's bandwidths and of the branch loop, spread evenly over
	// the whole run as Calibrate spreads them (memSampler says why): taken
	// in one burst, they all fell into whatever another tab or guest was
	// doing during those seconds.
	var curves []stepJob
	curve := func(name string, run func(ctx context.Context) error) {
		curves = append(curves, stepJob{name, run})
	}
	for r := 0; r < s.latRounds; r++ {
		for i, size := range s.latSizes {
			curve(fmt.Sprintf("latency curve, round %d of %d: %s", r+1, s.latRounds, units.FormatSize(size)), func(ctx context.Context) error {
				return s.latencySample(ctx, i, size, placed(s.buf, size, r, s.latRounds))
			})
		}
	}
	for r := 0; r < s.tpRounds; r++ {
		for i, size := range s.tpSizes {
			seed := uint64(r*len(s.tpSizes) + i + 1)
			curve(fmt.Sprintf("random-read throughput curve, round %d of %d: %s", r+1, s.tpRounds, units.FormatSize(size)), func(ctx context.Context) error {
				return s.throughputSample(ctx, i, size, seed, placed(s.buf, size, r, s.tpRounds))
			})
		}
	}
	for r := 0; r < s.tpRounds; r++ {
		for i, size := range s.tpSizes {
			curve(fmt.Sprintf("sequential-line curve, round %d of %d: %s", r+1, s.tpRounds, units.FormatSize(size)), func(ctx context.Context) error {
				return s.seqLineSample(ctx, i, size, placed(s.buf, size, r, s.tpRounds))
			})
		}
	}
	// The samples in the order they must run: the branch loop's arrays
	// first, then round after round of each kind, round 0 of each being
	// its untimed warm-up (as repeat's untimed run is).
	samples := []stepJob{{"branch misprediction, preparing", s.branchSetup}}
	names := [4]string{"read, 1 stream", "read, 2 streams", "read+write, 1 stream", "copy"}
	for r := 0; r <= max(s.seqRounds, s.rndReps, s.brReps); r++ {
		if r <= s.seqRounds {
			for v := range names {
				samples = append(samples, stepJob{fmt.Sprintf("sequential bandwidth, %s, %s", names[v], roundName(r, s.seqRounds)), func(ctx context.Context) error {
					return s.sequentialSample(ctx, v, r > 0)
				}})
			}
		}
		if r <= s.rndReps {
			samples = append(samples, stepJob{"random-line bandwidth, " + roundName(r, s.rndReps), func(ctx context.Context) error {
				return s.randomSample(ctx, uint64(r+1), r > 0)
			}})
		}
		if r <= s.brReps {
			samples = append(samples, stepJob{"branch misprediction, " + roundName(r, s.brReps), func(ctx context.Context) error {
				return s.branchSample(ctx, r > 0)
			}})
		}
	}
	s.jobs = append(s.jobs, interleave(curves, samples)...)
	// The distribution curve after them: the samples are spread over the
	// curves the levels are read from, and this one is read as it is.
	for r := 0; r < s.tpRounds; r++ {
		for i, size := range s.dist.sizes {
			seed := uint64(r*len(s.dist.sizes)+i+1) * 0x9e3779b97f4a7c15
			s.add(fmt.Sprintf("distribution curve, round %d of %d: %s", r+1, s.tpRounds, units.FormatSize(size)), func(ctx context.Context) error {
				return s.distSample(ctx, i, size, seed, placed(s.buf, 2*size, r, s.tpRounds))
			})
		}
		// The last size alone (streamSizes with no bound): the last cache
		// is read after these are planned, so whether the size before
		// lies beyond it is not known.
		if n := len(s.dist.sizes); n > 0 {
			size, seed := s.dist.sizes[n-1], uint64(r+1)*0x2545f4914f6cdd1d
			s.add(fmt.Sprintf("write streams, round %d of %d: %s", r+1, s.tpRounds, units.FormatSize(size)), func(ctx context.Context) error {
				bk, err := bucketsAt(ctx, placed(s.buf, 2*size, r, s.tpRounds), size, s.lineOrDefault(), seed)
				if err == nil {
					s.stBuckets = append(s.stBuckets, bk)
				}
				return err
			})
		}
		// The few-bucket curve, a bucket count a step: the five of a
		// round at once would hold the page for a fifth of a second.
		seed := uint64(r+1) * 0x9e3779b97f4a7c15
		for k, b := range fewBuckets {
			s.add(fmt.Sprintf("few buckets, round %d of %d: %d", r+1, s.tpRounds, b), func(ctx context.Context) error {
				f, err := fewAt(ctx, s.buf, s.lineOrDefault(), seed, 1, fewBuckets[k:k+1])
				if err != nil {
					return err
				}
				if k == 0 {
					s.few = append(s.few, fewSample{})
				}
				s.few[len(s.few)-1].add(f)
				return nil
			})
		}
	}
	s.planWalk()
	for r := 0; r < s.tpRounds; r++ {
		s.add(fmt.Sprintf("crowded reads, round %d of %d", r+1, s.tpRounds), func(ctx context.Context) error {
			cr, err := crowdedRounds(ctx, s.buf, browserCrowdedReads, 1)
			if err == nil {
				s.crowded = append(s.crowded, cr.PerRead.Median)
			}
			return err
		})
		s.add(fmt.Sprintf("column curve, round %d of %d", r+1, s.tpRounds), func(ctx context.Context) error {
			// No warming walks beyond the first (c = 0): a sample of
			// browserColumnSteps walks the shapes of up to 1024 lines four
			// times and more, the page's clock being too coarse for one
			// walk.
			cc, err := columnRounds(ctx, s.buf, browserColumnSteps, 1, 0)
			if err == nil {
				s.column = append(s.column, cc)
			}
			return err
		})
		for k := range maxGatherSpans {
			s.add(fmt.Sprintf("random reads by index, round %d of %d", r+1, s.tpRounds), func(ctx context.Context) error {
				return s.gatherSample(ctx, k, uint64(r+1))
			})
		}
	}
	s.planCore()
}

// maxGatherSpans is the most spans gatherSpans gives: the gather curve's
// steps, one span a step, so that no step holds the page longer than one
// gather (a step past a smaller buffer's spans does nothing).
const maxGatherSpans = maxGatherHalvings + 11

// browserGatherReads is the gather's reads a span in the browser: 2^21,
// a few milliseconds at the curve's fastest span, well above a coarsened
// clock's 100 µs.
const browserGatherReads = 1 << 21

// gatherSample times the gather once over the k-th of the curve's spans
// that the buffer holds (gatherSpans), from the last cache the curves give.
func (s *Steps) gatherSample(ctx context.Context, k int, seed uint64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	res, err := s.measured()
	if err != nil || len(res.Machine.Levels) == 0 {
		return nil // no levels: the machine has no curve to read
	}
	c := res.Machine.C
	spans := gatherSpans(c, c, s.bufBytes, gatherFrom(res.Machine.Levels))
	if k >= len(spans) {
		return nil
	}
	if s.gather == nil {
		s.gather = map[int64][]float64{}
	}
	if s.gatherIdx == nil {
		s.gatherIdx = make([]uint32, browserGatherReads)
	}
	idx, reps := gatherIndex(s.gatherIdx, spans[k], c)
	s.gather[spans[k]] = append(s.gather[spans[k]], gatherAt(s.buf, spans[k], idx, reps, 1000*seed+uint64(k)))
	return nil
}

// gatherCurve is the browser's gather samples as calibration's curve,
// span by span.
func (s *Steps) gatherCurve() GatherResult {
	var g GatherResult
	for sp, xs := range s.gather {
		g.Curve = append(g.Curve, GatherSpan{Span: sp, Read: Summarize(xs)})
	}
	slices.SortFunc(g.Curve, func(a, b GatherSpan) int { return cmp.Compare(a.Span, b.Span) })
	return g
}

// interleave spreads b evenly between the jobs of a, keeping the order
// within each: b's j-th job comes after a's ⌈(j+1)·len(a)/len(b)⌉-th
// (all of b after a when a is empty).
func interleave(a, b []stepJob) []stepJob {
	out := make([]stepJob, 0, len(a)+len(b))
	j := 0
	for i := range a {
		out = append(out, a[i])
		for j < len(b) && (j+1)*len(a) <= (i+1)*len(b) {
			out = append(out, b[j])
			j++
		}
	}
	return append(out, b[j:]...)
}

// planCore adds one step per reference kernel's core rate, after the
// branch steps: the rates need the levels and the misprediction penalty,
// which the steps before them measure.
func (s *Steps) planCore() {
	reps := 3
	if s.o.Short {
		reps = 2
	}
	for _, k := range CoreKernels {
		s.add("core rate, "+k, func(ctx context.Context) error {
			res, err := s.measured()
			if err != nil || len(res.Machine.Levels) == 0 {
				return nil // no levels: Result keeps the paper's machine
			}
			// The curve, measured before these steps, beside the
			// distribution sorts' rates (coreTimer.rates).
			m := res.Machine
			m.Distribution = distributionOf(s.DistCurve(), m.C)
			m.CoreRates = coreRatesOf(s.core) // the rates before this one's (coreTimer.rates)
			st, err := coreRate(ctx, m, k, reps, s.o.MinSample)
			if err != nil {
				return nil // Result says which rates are missing
			}
			if s.core == nil {
				s.core = map[string]Stat{}
			}
			s.core[k] = st
			return nil
		})
	}
}

// roundName names round r of n, round 0 being the untimed warm-up.
func roundName(r, n int) string {
	if r == 0 {
		return "warm-up"
	}
	return fmt.Sprintf("round %d of %d", r, n)
}

// Total is the number of steps.
func (s *Steps) Total() int { return len(s.jobs) }

// Done is the number of steps run.
func (s *Steps) Done() int { return s.next }

// BufferBytes is the size of the shared buffer.
func (s *Steps) BufferBytes() int64 { return s.bufBytes }

// LatencySizes and ThroughputSizes are the working sets the two curves
// measure.
func (s *Steps) LatencySizes() []int64    { return s.latSizes }
func (s *Steps) ThroughputSizes() []int64 { return s.tpSizes }

// Rounds reports how many times each curve measures every size.
func (s *Steps) Rounds() (latency, throughput int) { return s.latRounds, s.tpRounds }

// Elapsed is the time spent inside Next.
func (s *Steps) Elapsed() time.Duration { return s.elapsed }

// Next runs one step. It returns the progress before the step that comes
// next (Step "done" once none is left) and whether any is left. A
// cancelled ctx stops it with ctx's error before or inside a step.
func (s *Steps) Next(ctx context.Context) (Progress, bool, error) {
	if s.next >= len(s.jobs) {
		return s.Progress(), false, nil
	}
	if err := ctx.Err(); err != nil {
		return s.Progress(), true, err
	}
	t0 := time.Now()
	err := s.jobs[s.next].run(ctx)
	s.elapsed += time.Since(t0)
	if err != nil {
		return s.Progress(), true, err
	}
	s.next++
	return s.Progress(), s.next < len(s.jobs), nil
}

// Progress names the step Next will run.
func (s *Steps) Progress() Progress {
	p := Progress{Step: "done", Done: s.next, Total: len(s.jobs)}
	if s.next < len(s.jobs) {
		p.Step = s.jobs[s.next].name
	}
	return p
}

// stepsFor returns how many units of work last at least MinSample when
// one took est seconds, within [lo, hi].
func (s *Steps) stepsFor(est float64, lo, hi int) int {
	if !(est > 0) {
		return lo
	}
	n := s.o.MinSample.Seconds() / est
	if n > float64(hi) {
		return hi
	}
	return max(lo, int(n))
}

// estimate is the last time measured at size i, or else at the size below.
func estimate(last []float64, i int) float64 {
	for ; i >= 0; i-- {
		if last[i] > 0 {
			return last[i]
		}
	}
	return 0
}

// latencySample, throughputSample and seqLineSample measure one size of
// a round over buf, the round's part of s.buf (placed, as the native
// curves place theirs).
func (s *Steps) latencySample(ctx context.Context, i int, size int64, buf []uint64) error {
	t, err := s.resolved(estimate(s.latLast, i), 100_000, 20_000_000, func(steps int) (float64, error) {
		st, err := latencyAt(ctx, buf, size, steps, 1)
		return st.Median, err
	})
	if err != nil {
		return err
	}
	s.lat[i] = append(s.lat[i], t)
	s.latLast[i] = t
	return nil
}

func (s *Steps) throughputSample(ctx context.Context, i int, size int64, seed uint64, buf []uint64) error {
	t, err := s.resolved(estimate(s.tpLast, i), 200_000, 40_000_000, func(acc int) (float64, error) {
		return throughputAt(ctx, buf, size, acc, seed)
	})
	if err != nil {
		return err
	}
	s.tp[i] = append(s.tp[i], t)
	s.tpLast[i] = t
	return nil
}

func (s *Steps) seqLineSample(ctx context.Context, i int, size int64, buf []uint64) error {
	t, err := s.resolved(estimate(s.sqLast, i), 200_000, 80_000_000, func(blocks int) (float64, error) {
		return seqLineAt(ctx, buf, size, blocks)
	})
	if err != nil {
		return err
	}
	s.sq[i] = append(s.sq[i], t)
	s.sqLast[i] = t
	return nil
}

// resolved times run(n), which returns seconds a unit of work, with n
// from est (stepsFor), and times it again, sized by its own time, while
// the run lasted under half of MinSample and n may still grow. A curve's
// first size has no time to size its run by, and at the floor count the
// run can last one or two ticks of a browser's clock: in a short run
// under CI's load the chase over 4 KiB took 100 000 steps at about 2 ns,
// read one 100 µs tick, 1.0 ns, and the curve's "rise" to its next size,
// sized from that time and read right at 2.0 ns, became a first level of
// 4.4 KiB. A run without an estimate (est 0) only sizes the next one,
// however long it lasted: it is also the loop's first call, which a
// browser may run before it has compiled the loop fully. Only the last
// run is kept.
func (s *Steps) resolved(est float64, lo, hi int, run func(n int) (float64, error)) (float64, error) {
	n := s.stepsFor(est, lo, hi)
	for try := 0; ; try++ {
		t, err := run(n)
		if err != nil {
			return 0, err
		}
		sized := try > 0 || est > 0
		if try == maxResolveTries || sized && (n >= hi || t*float64(n) >= s.o.MinSample.Seconds()/2) {
			return t, nil
		}
		if t > 0 {
			n = s.stepsFor(t, n, hi)
		} else { // under one tick: the clock did not move
			n = min(hi, 16*n)
		}
	}
}

// maxResolveTries bounds the runs resolved adds after the first: with a
// clock that reads zero it grows the count 16 times a run, 16^3 times in
// all, from the floor counts past the ceilings.
const maxResolveTries = 3

func (s *Steps) sequentialSample(ctx context.Context, v int, keep bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	half := len(s.buf) / 2
	a, b := s.buf[:half], s.buf[half:]
	n := float64(half * 8)
	t0 := time.Now()
	var bytes float64
	switch v {
	case 0:
		sink += seqRead1(a)
		bytes = n
	case 1:
		sink += seqRead2(a, b)
		bytes = 2 * n
	case 2:
		seqRW1(a)
		bytes = 2 * n
	case 3:
		seqRW2(b, a)
		bytes = 3 * n
	}
	if keep {
		s.seq[v] = append(s.seq[v], rates([]float64{time.Since(t0).Seconds()}, bytes)[0])
	}
	return nil
}

func (s *Steps) randomSample(ctx context.Context, seed uint64, keep bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	acc := s.randAccess &^ 3
	t0 := time.Now()
	sink += randomRead(s.buf, acc, seed)
	if keep {
		s.rnd = append(s.rnd, time.Since(t0).Seconds()/float64(acc))
	}
	return nil
}

// lineRound is one round of LineSize (which warms up with a round of its
// own first); the samples are pooled across rounds. A round not kept only
// sizes the chase: a fixed 100 000 steps through L2 lasted under a
// millisecond, a few ticks of a browser's clock, and a tick more or less
// at one offset looked like a step in the line size; the kept rounds last
// at least MinSample at every offset.
func (s *Steps) lineRound(ctx context.Context, keep bool) error {
	_, pts, err := LineSize(ctx, s.lineSteps, 1)
	if err != nil {
		return err
	}
	fastest := 0.0
	for _, p := range pts {
		if t := p.Time.Min; t > 0 && (fastest == 0 || t < fastest) {
			fastest = t
		}
	}
	if !keep {
		s.lineSteps = s.stepsFor(fastest, s.lineSteps, lineStepsMax)
		return nil
	}
	if s.linePts == nil {
		s.linePts = make([][]float64, len(pts))
		for _, p := range pts {
			s.lineOffs = append(s.lineOffs, p.Offset)
		}
	}
	for i, p := range pts {
		s.linePts[i] = append(s.linePts[i], p.Time.Samples...)
	}
	return nil
}

// lineStepsMax bounds a line round's chase (at a nanosecond a step, 16 ms
// an offset).
const lineStepsMax = 16_000_000

// branchSetup builds Mispredict's two arrays: the same bytes from the same
// generator, and the same bytes in order (by counting, which a page can
// afford where a comparison sort of a million entries would hold it for a
// noticeable moment).
func (s *Steps) branchSetup(ctx context.Context) error {
	rng := rand.New(rand.NewPCG(3, 4))
	s.brRnd = make([]byte, branchLen)
	var count [256]int
	for i := range s.brRnd {
		v := byte(rng.UintN(256))
		s.brRnd[i] = v
		count[v]++
	}
	s.brSrt = make([]byte, 0, branchLen)
	for v, c := range count {
		for ; c > 0; c-- {
			s.brSrt = append(s.brSrt, byte(v))
		}
	}
	s.brOut = make([]byte, branchLen)
	s.brPasses = 1
	return nil
}

// branchSample times brPasses passes of the branch loop over the random
// array and as many over the sorted one. The untimed first repetition
// chooses brPasses so that a sample lasts MinSample.
func (s *Steps) branchSample(ctx context.Context, keep bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	passes := s.brPasses
	t0 := time.Now()
	for k := 0; k < passes; k++ {
		sink += uint64(branchLoop(s.brRnd, s.brOut))
	}
	t1 := time.Now()
	for k := 0; k < passes; k++ {
		sink += uint64(branchLoop(s.brSrt, s.brOut))
	}
	tr := t1.Sub(t0).Seconds() / float64(passes*branchLen)
	ts := time.Since(t1).Seconds() / float64(passes*branchLen)
	if !keep {
		s.brPasses = s.stepsFor(ts*branchLen, 1, 64)
		return nil
	}
	s.brTr = append(s.brTr, tr)
	s.brTs = append(s.brTs, ts)
	s.brM = append(s.brM, 2*(tr-ts))
	return nil
}

// Curves returns the two curves as measured so far: the sizes with at
// least one sample.
func (s *Steps) Curves() ([]LatencyPoint, []ThroughputPoint) {
	var lat []LatencyPoint
	for i, xs := range s.lat {
		if len(xs) > 0 {
			lat = append(lat, LatencyPoint{Size: s.latSizes[i], Latency: Summarize(xs)})
		}
	}
	var tp []ThroughputPoint
	for i, xs := range s.tp {
		if len(xs) > 0 {
			tp = append(tp, ThroughputPoint{Size: s.tpSizes[i], Access: Summarize(xs)})
		}
	}
	return lat, tp
}

// Result turns the samples into a calibration the way Calibrate does
// (beta1 the copy rate, beta2 = B per random read over the whole buffer, C
// from the throughput curve, mu1 the MBRAM paper's 2). It needs every step run. It
// releases the buffer. The error reports a machine that does not validate;
// the Result still holds what was measured.
func (s *Steps) Result() (Result, error) {
	if s.next < len(s.jobs) {
		return Result{}, fmt.Errorf("the calibration has run %d of %d steps", s.next, len(s.jobs))
	}
	s.buf, s.gatherIdx = nil, nil
	res, err := s.measured()
	m := res.Machine
	if err != nil || len(m.Levels) == 0 {
		return res, err
	}
	m.Notes = cloneNotes(m.Notes)
	m.Spread = cloneSpread(m.Spread)
	if len(s.core) == len(CoreKernels) {
		res.CoreRates = s.core
		setCoreRates(&m, s.core, medianRate(s.core))
	} else {
		res.Warnings = append(res.Warnings, fmt.Sprintf("core rates: the clock resolved %d of %d kernels' runs; the machine has no compute rate", len(s.core), len(CoreKernels)))
	}
	res.Distribution = s.DistCurve()
	setDistribution(&m, res.Distribution)
	res.Streams = streamPoints(s.stBuckets)
	setStreams(&m, res.Streams, streamSizes(s.dist.sizes, 0))
	res.FewBuckets = fewPoints(s.few)
	setFewBuckets(&m, res.FewBuckets)
	if wr, ok := s.walk.result(m); ok {
		res.Walk = &wr
		if why := setWalkInFlight(&m, wr); why != "" {
			res.Warnings = append(res.Warnings, why)
		}
	}
	s.walk = browserWalk{}
	if len(s.crowded) > 0 {
		cr := CrowdedResult{Lines: crowdedLines, PerRead: Summarize(s.crowded)}
		res.Crowded = &cr
		if why := setCrowdedRead(&m, cr); why != "" {
			res.Warnings = append(res.Warnings, why)
		}
	}
	if len(s.column) > 0 {
		cc := mergeColumnRounds(s.column)
		res.Column = &cc
		if why := setColumnCurve(&m, cc); why != "" {
			res.Warnings = append(res.Warnings, why)
		}
	}
	if len(s.gather) > 0 {
		g := s.gatherCurve()
		res.Gather = &g
		setGatherCurve(&m, g)
	}
	// measured has checked the rest of the machine and said what was
	// wrong with it; only the rates, the distribution curve, the walk
	// and the crowded reads are new here.
	res.Machine = m
	if err := m.Validate(); err != nil {
		return res, errors.New("the measured machine is not valid: " + err.Error())
	}
	return res, nil
}

// measured is the calibration from the curves, line, bandwidth and branch
// samples (everything but the core rates), computed once.
func (s *Steps) measured() (Result, error) {
	if s.base != nil {
		return *s.base, nil
	}
	var res Result
	res.Latency, res.Throughput = s.Curves()
	res.SeqLines = s.SeqCurve()

	res.Line, res.Detected.Line = s.lineFound()
	line := res.Detected.Line
	if line == 0 {
		line = 64
		res.Warnings = append(res.Warnings, fmt.Sprintf("line size: no clear step in the offset test; using %d B", line))
	}
	res.Detected.CacheLatency = DetectCacheLatency(res.Latency, line)

	c := DetectCache(res.Throughput, line)
	_, res.Detected.InCache, res.Detected.Beyond = detectDrop(res.Throughput)
	res.Detected.Cache = c
	if c == 0 {
		c = max(line, s.BufferBytes()/8/line*line)
		res.Warnings = append(res.Warnings, fmt.Sprintf("cache size: the random-read throughput curve shows no drop to memory below %s; using %s", units.FormatSize(s.BufferBytes()), units.FormatSize(c)))
	}

	res.Sequential = SeqResult{Read1: Summarize(s.seq[0]), Read2: Summarize(s.seq[1]), RW1: Summarize(s.seq[2]), RW2: Summarize(s.seq[3])}
	res.RandomTime = Summarize(s.rnd)
	b2 := make([]float64, len(s.rnd))
	for i, t := range s.rnd {
		b2[i] = float64(line) / t
	}
	res.Beta2 = Summarize(b2)
	res.Mispredict = Summarize(s.brM)

	now := s.o.Now
	if now.IsZero() {
		now = time.Now()
	}
	mode := "browser"
	if s.o.Short {
		mode = "browser, short"
	}
	m := measuredMachine(res, c, line, cacheSpread(res.Throughput, line), mode, now)
	m.Name, m.Source = "this device", "measured in a browser by memwall"
	m.Notes["buffer"] = units.FormatSize(s.bufBytes)
	var warn []string
	m, warn = withLevels(m, &res)
	res.Warnings = append(res.Warnings, warn...)
	res, err := checkMachine(res, m)
	s.base = &res
	return res, err
}

// distSample times the distribution curve's loops once at one size.
func (s *Steps) distSample(ctx context.Context, i int, size int64, seed uint64, buf []uint64) error {
	line := s.lineOrDefault()
	x, err := distAt(ctx, buf, size, line, seed, 1)
	if err != nil {
		return err
	}
	s.dist.add(i, x)
	return nil
}

// lineOrDefault is the line size the offset test has found, else 64
// bytes (the distribution curve's samples are per line of keys).
func (s *Steps) lineOrDefault() int64 {
	if _, line := s.lineFound(); line > 0 {
		return line
	}
	return 64
}

// lineFound is the offset test's points and the line size they show
// (lineFromPoints, the native calibration's rule).
func (s *Steps) lineFound() ([]LinePoint, int64) {
	pts := make([]LinePoint, len(s.lineOffs))
	for i := range s.lineOffs {
		pts[i] = LinePoint{Offset: s.lineOffs[i], Time: Summarize(s.linePts[i])}
	}
	return pts, lineFromPoints(pts)
}

// DistCurve returns the distribution curve as measured so far.
func (s *Steps) DistCurve() []DistPointStat {
	return s.dist.points()
}

// SeqCurve returns the sequential-line curve as measured so far.
func (s *Steps) SeqCurve() []SeqPoint {
	var out []SeqPoint
	for i, xs := range s.sq {
		if len(xs) > 0 {
			out = append(out, SeqPoint{Size: s.tpSizes[i], Block: Summarize(xs)})
		}
	}
	return out
}

func cloneNotes(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func cloneSpread(m map[string]float64) map[string]float64 {
	out := make(map[string]float64, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
