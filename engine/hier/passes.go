package hier

import (
	"math"

	"memwall/engine/machine"
)

// A distribution sort's passes on a machine with a distribution curve
// (machine.DistPoint). The curve times the counting sorts' own two loops
// (measure.CountDigits and ScatterDigits), so a counting sort's pass costs
// what the curve measured over arrays of the pass's size, in the caches
// and beyond them. The simple sorts' scatter is another loop, with a
// capacity test (measure.PutDigits). On a curve that times it too
// (machine.DistPoint.Put) its pass costs that time, as a counting sort's
// pass costs the curve's; on one that does not, it takes the longer of
// its work at the kernel's rate and the counting scatter's time. In the
// caches its work is the longer; beyond them the bucket fills wait in
// the store buffer while the work runs beside them, and the pass takes
// the curve's time until the work exceeds it (docs/hierarchy.md).

// passesDescribe, countingPassesDescribe and ownPassesDescribe describe a
// distribution sort priced off the curve.
const (
	passesDescribe         = "each digit pass's scatter loop at the longer of its work and the machine's distribution curve at the span the pass reads, a scatter into few enough buckets to stream at most the count's time; the levels carry only the copy (docs/hierarchy.md)"
	countingPassesDescribe = "each digit pass's count and scatter loops, the ones the machine's distribution curve times, at the curve's time at the span the pass reads, a scatter into few enough buckets to stream at most the count's time; the levels carry only the copies (docs/hierarchy.md)"
	ownPassesDescribe      = "each digit pass's scatter loop, the one the machine's distribution curve times as its put loop, at the curve's time at the span the pass reads, a scatter into few enough buckets to stream at most the longer of the count's time and the put loop's time in the curve's smallest arrays; the levels carry only the copy (docs/hierarchy.md)"
)

// pass is one distribution pass: keys moved, the keys of the span they
// come from (whose size the curve is read at), the buckets its digit
// has, the bytes of its subproblems (a level that large holds the pass
// and moves none of its lines; 0: no level does), and the operations a
// key of its counting loop (0: none) and of its scatter loop. The
// counting sorts' passes run the curve's own loops (curveLoops).
type pass struct {
	keys, span           float64
	buckets, held        float64
	countOps, scatterOps float64
	curveLoops           bool
}

// traffic is the lines p moves through level l: none when the level
// holds its subproblems, else its keys read by the counting loop and
// scattered.
func (p pass) traffic(s shape, l lvl) Traffic {
	if p.held > 0 && p.held <= l.size {
		return Traffic{}
	}
	var t Traffic
	if p.countOps > 0 {
		t.Seq += l.of(p.keys * s.w)
	}
	t.add(scatter(s, l, p.keys, p.buckets))
	return t
}

// passesTraffic is a distribution sort's traffic through the levels: its
// passes and the rest.
func passesTraffic(passes func(shape) []pass, rest func(shape, lvl) Traffic) func(shape, lvl) Traffic {
	return func(s shape, l lvl) Traffic {
		t := rest(s, l)
		for _, p := range passes(s) {
			t.add(p.traffic(s, l))
		}
		return t
	}
}

// digitBuckets is the buckets of each of the ⌈log_b N⌉ digits, most
// significant first, of keys uniform on [0, N): the digits of log2 b
// bits from the top of the keys' ⌈log2 N⌉ bits (measure's digitLevels),
// the last with the bits left over (N = 2^28, b = 64: 64, 64, 64, 64,
// 16).
func digitBuckets(s shape) []float64 {
	d := int(digits(s))
	out := make([]float64, d)
	for j := range out {
		out[j] = digitBucket(s, j, d)
	}
	return out
}

// digitBucket is digit j's buckets of d (digitBuckets) without the list,
// which a sweep would allocate at every point.
func digitBucket(s shape, j, d int) float64 {
	if j < d-1 {
		return s.b
	}
	bits := math.Ceil(math.Log2(math.Max(s.n, 2)) - 1e-9)
	left := bits - float64(d-1)*math.Log2(s.b)
	return math.Max(1, math.Min(s.b, math.Round(math.Exp2(left))))
}

// fewestBuckets is the fewest buckets any pass of the kernel's
// distributes into at shape s (the curve's 64 when it has no passes).
func fewestBuckets(kernel string, s shape) float64 {
	fewest := float64(machine.CurveBuckets)
	if f := kernelForms[kernel].passes; f != nil {
		for _, p := range f(s) {
			fewest = math.Min(fewest, p.buckets)
		}
	}
	return fewest
}

// The operations a key of each loop, as the kernels' work counts them:
// the counting loop (load, shift, mask, increment a count, loop: 6), the
// counting sorts' scatter (load, shift, mask, load the position, store,
// bump the position, loop: 8) and the simple sorts' (with the bucket's
// length loaded, compared with its capacity and stored: 11).
const (
	countLoopOps     = 6
	scatterLoopOps   = 8
	simpleScatterOps = 11
)

func scatterOps(counting bool) (count, scatter float64) {
	if counting {
		return countLoopOps, scatterLoopOps
	}
	return 0, simpleScatterOps
}

// radixPasses: ⌈log_b N⌉ passes over all N keys, one a digit (the least
// significant, with the bits left over, first; the order does not change
// the sum).
func radixPasses(counting bool) func(shape) []pass {
	return func(s shape) []pass {
		c, sc := scatterOps(counting)
		d := int(digits(s))
		ps := make([]pass, d)
		for j := range ps {
			ps[j] = pass{keys: s.n, span: s.n, buckets: digitBucket(s, d-1-j, d), countOps: c, scatterOps: sc, curveLoops: counting}
		}
		return ps
	}
}

// bucketPasses: pass j moves all N keys in subproblems of N/b^j, which the
// pass before left in subproblems of N/b^(j−1): the curve is read at
// those. A subproblem that fits in a cache is read into it once, from
// where the pass before left it, and the passes below it then run in the
// cache; so the first pass whose subproblems fit still pays for its
// span's lines (measured at 2^23 keys, 64 buckets: 19.6 ns a key, where
// reading that pass in the cache gave 16).
//
// A level holds pass j > 0 when its subproblems of N/b^j keys fit with
// their buckets (3.5 w a key in the simple sort's arena, 2 w with
// counting); the first pass reads the input wherever it lies.
func bucketPasses(counting bool) func(shape) []pass {
	return func(s shape) []pass {
		c, sc := scatterOps(counting)
		fp := 3.5 * s.w
		if counting {
			fp = 2 * s.w
		}
		d := int(digits(s))
		ps := make([]pass, d)
		for j := range ps {
			ps[j] = pass{keys: s.n, span: math.Max(1, s.n/math.Pow(s.b, float64(max(j-1, 0)))), buckets: digitBucket(s, j, d), countOps: c, scatterOps: sc, curveLoops: counting}
			if j > 0 {
				ps[j].held = fp * s.n / math.Pow(s.b, float64(j))
			}
		}
		return ps
	}
}

// radixRest is a radix sort's traffic besides its passes: the copy back
// into the input array (the simple sort's buckets, or the counting sort's
// other array after an odd number of passes).
func radixRest(counting bool) func(shape, lvl) Traffic {
	return func(s shape, l lvl) Traffic {
		if !counting || int(digits(s))%2 == 1 {
			return l.stream(s.n*s.w, s.n*s.w)
		}
		return Traffic{}
	}
}

// bucketRest is a bucket sort's traffic besides its passes: the simple
// sort's last buckets copied back, the counting sort's keys copied first
// when its digits are odd.
func bucketRest(counting bool) func(shape, lvl) Traffic {
	return func(s shape, l lvl) Traffic {
		if !counting || oddDigits(s) == 1 {
			return l.stream(s.n*s.w, s.n*s.w)
		}
		return Traffic{}
	}
}

// passTimes prices ps on the machine's distribution curve at rate r
// (operations per second, 0: no work charged): the passes' time, the
// work in the loops that are not the curve's own, the curve's time for
// all of them, and their operations. own says every loop was the
// curve's own: the counting sorts' always, the simple sorts' on a curve
// that times their scatter too (machine.DistPoint.Put). ok is false when
// the machine has no curve.
func passTimes(s shape, ps []pass, r float64) (secs, work, curve, ops float64, own, ok bool) {
	line := float64(s.m.B)
	own = true
	for _, p := range ps {
		cn, sc, has := s.m.DistributionAt(p.span * s.w)
		if !has {
			return 0, 0, 0, 0, false, false
		}
		lines := p.keys * s.w / line
		// Where the curve's 64 buckets pass the streams a core keeps, a
		// scatter into few enough buckets that the prefetcher follows
		// them all moves its keys as a stream, as the count does
		// (measured at 2^28 keys: 1.5 ns a key for each loop of the pass
		// into 16 buckets, where the scatter into 64 took 3.4). The
		// simple sorts' loop, timed with its work, then takes the longer
		// of that stream and its own time in the curve's smallest
		// arrays, its work in L1, if less than its time into 64: a bound
		// that needs no rate, so that a core rate read off a run with the
		// curve (measure's coreTimer.rates) gives that run's time back.
		// Where the core keeps the curve's 64 buckets as streams too,
		// the curve's scatter is already a streamed one, and a stream of
		// stores is not a stream of loads: on the Intel guest that keeps
		// 65 streams the scatter into 8 to 32 buckets took 22 to 23 ns a
		// line of keys over 1 GiB and the count 15.5, and the pass into
		// 64 over 32 MiB took the curve's scatter (12.1 ms at 2^23 keys
		// against 12.6), not its count (8.0).
		few := streamsFew(p.buckets, s.streams)
		if few {
			sc = math.Min(sc, cn)
		}
		// Where the streams a core keeps do not tell the curve's buckets
		// from a pass's fewer, its stream curve may: on the Zen 5 guest
		// (which keeps 257 by that test) a scatter over 64 MiB took 14.4
		// to 14.8 ns a line of keys into 8 to 16 buckets and 36.1 into
		// the curve's 64, and the simple radix sort of 2^22 keys, whose
		// least significant pass has 16 buckets, ran at 0.78 of an
		// estimate that priced that pass at the curve's 64. Such a pass
		// takes the curve's time scaled by the stream curve's ratio of
		// the two counts, at least the loops' time in the curve's
		// smallest arrays.
		scale := 1.0
		if !few {
			scale = streamScale(s.m, p.buckets)
		}
		if scale < 1 {
			sc = math.Max(sc*scale, s.m.Distribution[0].Scatter)
		}
		// Into fewer buckets than the curve's, a key's counter is often
		// the one the key before bumped, and its load waits for that
		// store (machine.FewPoint): the loops take at least their time
		// into as many buckets in the caches. Beyond the caches the
		// stream's lines take longer, and the bound does not bind.
		fc, fs, fp, _ := s.m.FewBucketsAt(p.buckets)
		sc = math.Max(sc, fs)
		loop := func(opsPerKey, perLine float64, curveOwn bool) {
			if opsPerKey == 0 {
				return
			}
			o := opsPerKey * p.keys
			c := lines * perLine
			ops += o
			curve += c
			if curveOwn {
				// The curve timed this very loop: its work is in c.
				secs += c
				return
			}
			own = false
			w := 0.0
			if r > 0 {
				w = o / r
			}
			secs += math.Max(w, c)
			work += w
		}
		loop(p.countOps, math.Max(cn, fc), p.curveLoops)
		// A simple sort's put loop at the span's keys: read where its
		// buckets span what the pass's do (machine.PutKeys).
		var put float64
		hasPut := false
		if !p.curveLoops {
			put, hasPut = s.m.PutAt(p.span * s.w)
		}
		switch {
		case p.curveLoops || !hasPut:
			loop(p.scatterOps, sc, p.curveLoops)
		case few:
			loop(p.scatterOps, math.Max(math.Min(put, math.Max(cn, s.m.Distribution[0].Put)), fp), true)
		case scale < 1:
			loop(p.scatterOps, math.Max(math.Max(put*scale, s.m.Distribution[0].Put), fp), true)
		default:
			loop(p.scatterOps, math.Max(put, fp), true)
		}
	}
	return secs, work, curve, ops, own, true
}

// streamsFew says a pass into b buckets streams where the curve's
// buckets do not, on a core that keeps streams streams: b + 1 of them
// fit and the curve's CurveBuckets + 1 do not (passTimes).
func streamsFew(b, streams float64) bool {
	return b+1 <= streams && machine.CurveBuckets+1 > streams
}

// streamScale is the machine's stream curve at b buckets over its value
// at the distribution curve's buckets where that is less than 1 (a pass
// into b buckets streams faster than the curve's), else 1: passTimes
// scales the curve's time of a pass into fewer buckets by it on a core
// whose streams test keeps more than the curve's buckets.
func streamScale(m machine.Machine, b float64) float64 {
	if !(b < machine.CurveBuckets) {
		return 1
	}
	at, ok1 := m.StreamAt(b)
	all, ok2 := m.StreamAt(machine.CurveBuckets)
	if !ok1 || !ok2 || !(at < all) {
		return 1
	}
	return at / all
}
