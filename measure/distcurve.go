package measure

import (
	"context"
	"math"
	"slices"
	"time"
	"unsafe"

	"memwall/engine/machine"
)

// Distribution method: the counting sorts' own two loops (CountDigits and
// ScatterDigits, 64 buckets) and the simple sorts' (PutDigits) timed over
// two arrays of S bytes of random 4-byte keys each, at sizes from the
// first level to beyond the last cache, in seconds per line of keys
// (machine.DistPoint says what the hierarchy model does with them). Each
// sample fills the source with new keys first, untimed, as a sort's
// input arrives; a small size repeats
// the loops until some four million keys have passed. Like the other
// curves every size is measured once per round, each round elsewhere in
// the buffer (sampleRounds), and each size keeps its median round
// (distributionOf says why not the fastest).
//
// The simple sorts' loop puts the first n keys of the source into 64
// buckets of their capacity (bucketSet) laid out in the second array,
// n = (keys − 16·64)·machine.PutKeys of an array of that many keys, so
// that the buckets (n/64 + n/256 + 16 keys each) fit: its keys and
// buckets span some nine tenths of the other loops'.
//
// Each sample also times the page walk (walkAt): a cycle of reads one to
// a 4 KiB page across S bytes, against the same number of reads to lines
// side by side, so that what translation adds is the difference.

// DistPointStat is one point of the distribution curve with its samples.
type DistPointStat struct {
	Size    int64 `json:"size"`    // bytes of each of the two arrays
	Count   Stat  `json:"count"`   // seconds per line of keys, counting loop
	Scatter Stat  `json:"scatter"` // seconds per line of keys, scatter loop
	Walk    Stat  `json:"walk"`    // seconds per read, page walk (walkAt)
	Put     Stat  `json:"put"`     // seconds per line of keys, the simple sorts' scatter loop
}

// distKeys is the keys a sample passes through each loop at least.
const distKeys = 1 << 22

// distGroups is the groups a native sample splits its repetitions of a
// loop into, keeping the fastest group's time a call (repTime). The
// validate command times a kernel as the fastest of its runs, and the
// mean over a sample's repetitions held the moments a neighbour took the
// core: at 64 to 256 KiB on the Zen 5 guest the simple sorts' put loop
// took 17.3 to 19.6 ns a line of keys on the mean of its repetitions and
// 16.3 on the fastest, and the simple radix sort at 2^14 and 2^19 keys
// ran its passes at 16.8 to 17.6 ns a line on its fastest run, where the
// curve, read off the mean, priced them at 18.1 to 19.2 (the sort at 0.80
// to 0.86 of its estimate in the last cache). Each group is some quarter
// million keys, tens of microseconds and more, well above the clock's
// resolution; a browser's clock, coarsened to 0.1 ms, times one group
// (the mean), as the browser's calibration passes.
const distGroups = 16

// repTime runs body reps times in groups (at most groups of them, at
// least one call each) and returns the fastest group's seconds a call;
// with groups 1, the mean over all.
func repTime(reps, groups int, body func()) float64 {
	reps, groups = max(1, reps), max(1, min(groups, reps))
	best := math.Inf(1)
	for g := 0; g < groups; g++ {
		calls := reps / groups
		if g < reps%groups {
			calls++
		}
		t0 := time.Now()
		for r := 0; r < calls; r++ {
			body()
		}
		best = math.Min(best, time.Since(t0).Seconds()/float64(calls))
	}
	return best
}

// distShift and distMask pick the digit: 6 bits from the middle of the
// key, away from the generator's low bits.
const (
	distShift = 11
	distMask  = 63
)

// asKeys views buf as 4-byte keys.
func asKeys(buf []uint64) []uint32 {
	if len(buf) == 0 {
		return nil
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(&buf[0])), 2*len(buf))
}

// distSample is one sample of the curve at one size: the three loops'
// seconds per line of keys and the page walk's per read.
type distSample struct{ count, scatter, walk, put float64 }

// distSamples collects the curve's samples by size, one a round, for the
// native calibration and the browser's steps alike.
type distSamples struct {
	sizes                     []int64
	count, scatter, walk, put [][]float64
}

func newDistSamples(sizes []int64) distSamples {
	n := len(sizes)
	return distSamples{sizes: sizes, count: make([][]float64, n), scatter: make([][]float64, n), walk: make([][]float64, n), put: make([][]float64, n)}
}

// add records sample x of size i.
func (d *distSamples) add(i int, x distSample) {
	d.count[i] = append(d.count[i], x.count)
	d.scatter[i] = append(d.scatter[i], x.scatter)
	d.walk[i] = append(d.walk[i], x.walk)
	d.put[i] = append(d.put[i], x.put)
}

// points is the curve so far: the sizes with a sample, summarized.
func (d distSamples) points() []DistPointStat {
	var out []DistPointStat
	for i, xs := range d.count {
		if len(xs) > 0 {
			out = append(out, DistPointStat{Size: d.sizes[i], Count: Summarize(xs), Scatter: Summarize(d.scatter[i]), Walk: Summarize(d.walk[i]), Put: Summarize(d.put[i])})
		}
	}
	return out
}

// distAt times the three loops over arrays of size bytes at the front of
// buf (which holds both) and returns their seconds per line of line
// bytes, and the page walk across size bytes (walkAt).
func distAt(ctx context.Context, buf []uint64, size, line int64, seed uint64, groups int) (distSample, error) {
	if err := ctx.Err(); err != nil {
		return distSample{}, err
	}
	src, dst := keyArrays(buf, size, seed)
	count, put, scatter := loopsAt(src, dst, line, groups, distMask+1)
	walk := walkAt(buf, int64(len(src))*4, seed)
	return distSample{count: count, scatter: scatter, walk: walk, put: put}, nil
}

// loopsAt times the three loops into b buckets (b a power of two up to
// machine.CurveBuckets, the digit at distShift) over src and dst, each
// repeated to some four million keys in groups (repTime), and returns
// their seconds per line of line bytes of keys: the count, the simple
// sorts' put, and the scatter, last, whose grouped keys are what a
// sample leaves in dst.
func loopsAt(src, dst []uint32, line int64, groups, b int) (count, put, scatter float64) {
	mask := uint32(b - 1)
	reps := max(1, distKeys/len(src))
	var counts [machine.CurveBuckets + 1]int
	c := counts[:b+1]
	count = repTime(reps, groups, func() {
		clear(c)
		CountDigits(src, c, distShift, mask)
	})
	secs, putLines := putAt(src, dst, line, groups, b)
	// Positions from the last pass's counts.
	var start, pos [machine.CurveBuckets]int
	for d := 1; d < b; d++ {
		start[d] = start[d-1] + c[d]
	}
	scatter = repTime(reps, groups, func() {
		copy(pos[:b], start[:b])
		ScatterDigits(src, dst, pos[:b], distShift, mask)
	})
	lines := float64(len(src)) * 4 / float64(line)
	return count / lines, secs / putLines, scatter / lines
}

// putAt times PutDigits putting the first n keys of src into b buckets
// laid out in dst (bucketSet), n = (len(dst) − 16·b)·machine.PutKeys
// less putSkew·b/64, repeated to some four million keys (repTime's
// groups); it returns the seconds a pass and the lines of keys it moves.
func putAt(src, dst []uint32, line int64, groups, b int) (secs, lines float64) {
	// b·(n/b + n/4b + 16) <= 1.25n + 16b: the buckets fit in dst
	// (machine.PutKeys, the share the model reads the curve with).
	n := max(1, int(float64(len(dst)-16*b)*machine.PutKeys)-putSkew*b/(distMask+1))
	var lens [machine.CurveBuckets]int
	secs = repTime(max(1, distKeys/n), groups, func() {
		set := newBucketSet(dst, lens[:], b, b, n)
		set.putAll(src[:n], distShift, uint32(b-1))
	})
	return secs, float64(n) * 4 / float64(line)
}

// putSkew is the keys putAt leaves out of (len(dst) − 16·64)·PutKeys
// into the curve's 64 buckets (three a bucket, into fewer as many).
// With all of them a bucket holds n/64 + n/256 + 16 = len(dst)/64 words
// exactly, a power of two at the curve's sizes of a power of two, and
// the 64 buckets' ends fell on the same cache sets: the put loop took
// 24.4 to 27.6 ns a line of keys at 256 KiB, 512 KiB and 1 MiB on the
// Intel guest against 21.5 to 22.1 at the sizes between, and the model
// priced the simple radix sort at 3·2^16 keys, which reads the curve
// near 1 MiB, at 1.56 times its time. A sort of N keys has buckets of
// 1.25·N/64 + 16 words, no power of two where N is one. 192 keys fewer
// take three words off a bucket, an odd number.
const putSkew = 3 * (distMask + 1)

// walkPage is the page the walk reads one line of (machine.WalkPage).
const walkPage = machine.WalkPage

// walkReads is the reads a walk sample times at least.
const walkReads = 1 << 21

// walkAt is what address translation adds to a read that goes round a
// cycle of pages: span/walkPage reads, one to a page (the k-th page's
// line k mod 64, so the lines spread over a cache's sets), in a random
// order repeated, less the same reads to as many lines side by side
// (after the span in buf), in seconds per read and not below 0. The
// lines of both fit in the caches up to some 128 MiB of span; the pages
// of the first outnumber the translation buffer's entries from a few
// MiB.
func walkAt(buf []uint64, span int64, seed uint64) float64 {
	pages := int(span / walkPage)
	// The indices are int32 words: a span past 16 GiB is not walked.
	if pages < 1 || int64(len(buf))*8 < span+int64(pages)*64 || span/8+int64(pages)*8 > math.MaxInt32 {
		return 0
	}
	paged, packed := walkIndices(pages, span, seed)
	reps := max(1, walkReads/pages)
	t0 := time.Now()
	GatherWords(buf, paged, reps)
	tPaged := time.Since(t0).Seconds()
	t0 = time.Now()
	GatherWords(buf, packed, reps)
	tPacked := time.Since(t0).Seconds()
	return max(0, tPaged-tPacked) / float64(reps*pages)
}

// walkIndices are the word indices of a walk sample's two cycles over
// pages reads: one to a page, at the k-th page's line k mod 64, in a
// random order; and the same order over lines side by side from span.
func walkIndices(pages int, span int64, seed uint64) (paged, packed []int32) {
	paged, packed = make([]int32, pages), make([]int32, pages)
	x := seed | 1
	for i := range paged {
		// Fisher–Yates, inside out.
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		j := int(x % uint64(i+1))
		paged[i], paged[j] = paged[j], int32(i)
	}
	const lineWords = 8
	for i, k := range paged {
		packed[i] = int32(span/8) + k*lineWords
		paged[i] = k*walkPage/8 + k%64*lineWords
	}
	return paged, packed
}

// GatherWords reads buf at the indices idx, reps times over, and returns
// their sum: the reads are independent, as a matrix column's are.
// Kept out of line so that what is timed is this loop as compiled here.
//
//go:noinline
func GatherWords(buf []uint64, idx []int32, reps int) uint64 {
	var s uint64
	for r := 0; r < reps; r++ {
		for _, i := range idx {
			s += buf[i]
		}
	}
	return s
}

// distSizes are the curve's array sizes: from 16 KiB, two a doubling, to
// the largest that is at most hi.
func distSizes(hi int64) []int64 {
	var out []int64
	for e := 0; ; e++ {
		s := int64(float64(16<<10)*math.Pow(2, float64(e)/2)) &^ 4095
		if s > hi {
			return out
		}
		out = append(out, s)
	}
}

// distributionCurve measures the distribution curve at sizes (bytes per
// array; two arrays of each must fit in buf), rounds rounds, and at the
// last streams of them (streamSizes) the scatter by buckets (bucketsAt),
// each round's faster.
func distributionCurve(ctx context.Context, buf []uint64, sizes []int64, streams int, line int64, rounds int, step func(string)) ([]DistPointStat, []StreamPointStat, []FewPointStat, error) {
	samples := newDistSamples(sizes)
	var byBuckets [][]float64
	var few []fewSample
	var earlier []float64 // this round's scatter at the first of two stream sizes
	first := len(sizes) - streams
	_, err := sampleRounds(buf, doubled(sizes), rounds, "distribution curve", step, func(b []uint64, size int64, r, i int) (float64, error) {
		seed := uint64(r*len(sizes)+i+1) * 0x9e3779b97f4a7c15
		x, err := distAt(ctx, b, size/2, line, seed, distGroups)
		if err == nil {
			samples.add(i, x)
		}
		if err == nil && i == 0 {
			var f fewSample
			if f, err = fewAt(ctx, buf, line, seed, distGroups, fewBuckets); err == nil {
				few = append(few, f)
			}
		}
		if err == nil && i >= first {
			var bk []float64
			if bk, err = bucketsAt(ctx, b, size/2, line, seed); err == nil {
				if i < len(sizes)-1 {
					earlier = bk
				} else {
					byBuckets = append(byBuckets, fasterOf(bk, earlier))
					earlier = nil
				}
			}
		}
		return x.count, err
	})
	if err != nil {
		return nil, nil, nil, err
	}
	return samples.points(), streamPoints(byBuckets), fewPoints(few), nil
}

// doubled is each size twice over: the bytes of both arrays.
func doubled(sizes []int64) []int64 {
	out := make([]int64, len(sizes))
	for i, s := range sizes {
		out[i] = 2 * s
	}
	return out
}

// distributionOf is the machine's curve from the measured points: each
// size's median round, to three significant digits. Not the fastest
// round, as the other curves take: beyond the caches the scatter ran at
// one of two speeds by where its arrays lay, 58 ns a line of keys at
// 64 MiB in most rounds and 28 in a few (four sizes of fourteen had
// such a round in one calibration on the development machine), and the
// sorts timed beside it ran at the slow one; the median is the
// placement a sort meets most often, and it still passes over a
// neighbour's burst in fewer than half the rounds.
//
// The points at twice the last cache (cache bytes) and more are memory's
// (memoryTail): there the three loops' times a line are one quantity
// each, and each takes the median of all those points' rounds.
func distributionOf(pts []DistPointStat, cache int64) []machine.DistPoint {
	return curvePoints(memoryTail(pts, cache))
}

// curvePoints is distributionOf on points already pooled (memoryTail).
func curvePoints(pts []DistPointStat) []machine.DistPoint {
	out := make([]machine.DistPoint, 0, len(pts))
	for _, p := range pts {
		if !(p.Count.Median > 0 && p.Scatter.Median > 0) {
			continue // a clock that saw nothing
		}
		out = append(out, machine.DistPoint{Size: p.Size, Count: round3g(p.Count.Median), Scatter: round3g(p.Scatter.Median), Walk: round3g(p.Walk.Median), Put: round3g(p.Put.Median)})
	}
	if len(out) < 2 {
		return nil
	}
	monotoneFromAbove(out)
	// The simple sorts' loop at every point or at none
	// (machine.ValidateDistribution).
	if slices.ContainsFunc(out, func(p machine.DistPoint) bool { return p.Put <= 0 }) {
		for i := range out {
			out[i].Put = 0
		}
	}
	return out
}

// monotoneFromAbove lowers each point's count, scatter and put to the
// least of its own and every larger size's (lowerEnvelope). The loops'
// time a line of keys does not fall as their arrays grow (a larger array
// misses in the same caches or more), and a neighbour's burst only ever
// adds time, so a median above a larger size's is a slowed one, and the
// larger size's bounds it from above. On the development guest a
// calibration made while a neighbour was busy read the count and scatter
// at 256 KiB at 25.4 and 32.5 ns a line of keys, where its own 1 MiB
// point read 16.7 and 21.4 and an earlier calibration's 14.0 and
// 19.1; the counting radix sort in L2, priced off that point, came out
// at 0.56 of the prediction. The page walk is left as it is: it is a
// difference of two loops, near zero below the translation buffer's
// reach, where its noise has either sign.
func monotoneFromAbove(pts []machine.DistPoint) {
	count, scatter, put := make([]float64, len(pts)), make([]float64, len(pts)), make([]float64, len(pts))
	for i, p := range pts {
		count[i], scatter[i], put[i] = p.Count, p.Scatter, p.Put
	}
	count, scatter, put = lowerEnvelope(count), lowerEnvelope(scatter), lowerEnvelope(put)
	for i := range pts {
		// An absent reading (0, a put the curve did not time) stays absent.
		if pts[i].Count > 0 {
			pts[i].Count = count[i]
		}
		if pts[i].Scatter > 0 {
			pts[i].Scatter = scatter[i]
		}
		if pts[i].Put > 0 {
			pts[i].Put = put[i]
		}
	}
}

// memoryTail is pts with the rounds of the points whose arrays are each
// at least twice the last cache (cache bytes) pooled, where no loop finds
// its keys or buckets in a cache and its time a line does not depend on
// the size (the page walk's does, and is not pooled): from the least such
// size on, every point's count, scatter and put are all of those points'
// rounds summarized together. With fewer than two such points, or no
// cache, it is pts as they are.
//
// Why: the put loop beyond the caches ran at one of two speeds, round by
// round, on the development guest (26 to 39 ns a line in a few rounds,
// 52 to 60 in the rest; the sorts ran at the slow one). Seven rounds at
// one size let a few fast or middling ones pull the median: two
// calibrations in a row read 51.8 and 58.8 ns at 1 GiB, while the
// medians at their other sizes past the last cache held at 56 to 59.
// The curve runs to eight times the last cache, two sizes a doubling,
// so two to four sizes lie past twice it: 14 to 28 rounds together,
// whose median the same few rounds move less.
func memoryTail(pts []DistPointStat, cache int64) []DistPointStat {
	if cache <= 0 {
		return pts
	}
	var count, scatter, put []float64
	first, n := int64(math.MaxInt64), 0
	for _, p := range pts {
		if p.Size < 2*cache || !(p.Count.Median > 0 && p.Scatter.Median > 0) {
			continue
		}
		first, n = min(first, p.Size), n+1
		count = append(count, p.Count.Samples...)
		scatter = append(scatter, p.Scatter.Samples...)
		put = append(put, p.Put.Samples...)
	}
	if n < 2 || len(count) == 0 || len(scatter) == 0 {
		return pts // one point, or points without their rounds
	}
	c, sc, pt := Summarize(count), Summarize(scatter), Summarize(put)
	out := slices.Clone(pts)
	for i := range out {
		if out[i].Size >= first {
			out[i].Count, out[i].Scatter, out[i].Put = c, sc, pt
		}
	}
	return out
}

// setDistribution gives m the curve, with the spread of its last point
// (memory's, the one beyond every cache) over the rounds, and says in the
// notes how it was measured.
func setDistribution(m *machine.Machine, pts []DistPointStat) {
	pts = memoryTail(pts, m.C)
	m.Distribution = curvePoints(pts)
	if len(m.Distribution) == 0 {
		return
	}
	last := pts[len(pts)-1]
	m.Spread["distribution.count"] = round3(last.Count.Spread)
	m.Spread["distribution.scatter"] = round3(last.Scatter.Spread)
	m.Spread["distribution.walk"] = round3(last.Walk.Spread)
	if m.Distribution[0].Put > 0 {
		m.Spread["distribution.put"] = round3(last.Put.Spread)
	}
	put := ""
	if m.Distribution[0].Put > 0 {
		put = ", and the simple sorts' scatter (put) of (the array's keys less 16 a bucket)·4/5 keys into 64 buckets of fixed capacity in the second array"
	}
	m.Notes["distribution_method"] = "the counting sorts' count and scatter loops (64 buckets) over two arrays of random 4-byte keys, by array size, in seconds per line of keys (a sample the fastest of 16 groups of its repetitions, natively)" + put + "; and the page walk, a cycle of reads one to a 4 KiB page across the size less the same reads to lines side by side, in seconds per read; each size's median round, and from twice the last cache on the median of all those sizes' rounds (the page walk's excepted), none above a larger size's"
}
