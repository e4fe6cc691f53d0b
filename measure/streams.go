package measure

import (
	"context"
	"fmt"
	"time"
	"unsafe"

	"memwall/engine/machine"
	"memwall/engine/units"
)

// Stream method: the scatter loop of the counting sorts timed into 8 to
// 256 buckets (streamBuckets) over the distribution curve's largest
// arrays, beyond the last cache, in each of its rounds (and at the size
// before, each bucket count's faster of the two kept, when that too lies
// beyond it: streamSizes). Into few buckets every write stream is one
// the prefetcher follows and a line costs what a stream of it does; past
// the streams the core keeps, the buckets' fills wait as random ones do
// and the time a line jumps (on the development machine 22 to 29 ns a
// line of keys into 8 to 32 buckets, 56 into 64). The streams kept are
// read off as the most buckets whose scatter is within streamSlack of
// the fastest, plus the read stream: machine.Machine's Streams, which
// the hierarchy model compares a pass's buckets with. The times
// themselves, each bucket count's median round, are the machine's stream
// curve (machine.StreamPoint): the cost of many streams is not always a
// step, and on the AMD guest of docs/hierarchy.md the loop ran at 17 ns a
// line into 8 to 20 buckets, 27 into 28 to 40, 45 into 48 to 60, 22 into
// 64 and 19 again into 80 to 160, over arrays of 45, 64 and 90 MiB alike
// (over 64 MiB 128 to 256 buckets also ran slow, which the faster of the
// two sizes leaves out).

// StreamPointStat is the scatter loop's seconds per line of keys into
// Buckets buckets over the stream test's arrays.
type StreamPointStat struct {
	Buckets int  `json:"buckets"`
	Scatter Stat `json:"scatter"`
}

// streamBuckets are the bucket counts the scatter is timed into, at most
// maxStreamBuckets: closer together where a core's prefetchers run out
// of streams on current machines (16 to 64), so that a band of slow
// counts as narrow as the AMD guest's (48 to 60) shows.
var streamBuckets = []int{8, 12, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96, 128, 192, 256}

const maxStreamBuckets = 256

// streamSlack is how much slower than the fastest a scatter may run and
// still count as streaming: between a stream's cost and a random fill's,
// which beyond the caches is two to three times it.
const streamSlack = 1.5

// keyArrays is the two arrays of keys, of size bytes each or half of buf
// if less, at the front of buf, the first filled with random keys from
// seed: the distribution curve's and the stream test's.
func keyArrays(buf []uint64, size int64, seed uint64) (src, dst []uint32) {
	keys := asKeys(buf)
	n := int(min(size/4, int64(len(keys)/2)))
	src, dst = keys[:n], keys[n:2*n]
	fillKeys(src, seed)
	return src, dst
}

// fillKeys writes random keys into src (xorshift from seed).
func fillKeys(src []uint32, seed uint64) {
	x := seed | 1
	for i := range src {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		src[i] = uint32(x >> 32)
	}
}

// bucketsAt times the scatter into each of streamBuckets buckets over two
// arrays of size bytes at the front of buf, in seconds per line of line
// bytes of keys.
func bucketsAt(ctx context.Context, buf []uint64, size, line int64, seed uint64) ([]float64, error) {
	src, dst := keyArrays(buf, size, seed)
	n := len(src)
	if n < 1 {
		return nil, fmt.Errorf("stream test: no room for keys in a buffer of %d words", len(buf))
	}
	reps := max(1, distKeys/n)
	lines := float64(n) * 4 / float64(line)
	out := make([]float64, len(streamBuckets))
	var counts [maxStreamBuckets + 1]int // b + 1 entries
	var positions [maxStreamBuckets]int
	for k, b := range streamBuckets {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		clear(counts[:])
		for _, v := range src {
			counts[bucketOf(v, b)+1]++
		}
		pos := positions[:b]
		for d := 1; d < b; d++ {
			counts[d] += counts[d-1]
		}
		t0 := time.Now()
		for r := 0; r < reps; r++ {
			copy(pos, counts[:b])
			scatterBuckets(src, dst, pos, b)
		}
		out[k] = time.Since(t0).Seconds() / float64(reps) / lines
	}
	return out, nil
}

// bucketOf is the bucket of key v among b: its place in [0, 2^32) scaled
// to b, which for b a power of two is the key's top log2 b bits.
func bucketOf(v uint32, b int) int { return int(uint64(v) * uint64(b) >> 32) }

// scatterBuckets moves each key of src to dst[pos[d]] for its bucket d
// of b (bucketOf) and bumps pos[d]: ScatterDigits' loop, with any number
// of buckets, its store by address as there. pos must have b entries,
// and its positions must be the running counts of src's buckets, so that
// they reach no further than len(src) in dst.
func scatterBuckets(src, dst []uint32, pos []int, b int) {
	pos = pos[:b]
	if len(dst) < len(src) {
		panic("scatterBuckets: dst shorter than src")
	}
	// bucketOf is below b, so pos's entry is read by address too: the
	// loop tests no index, as ScatterDigits' does not.
	d0, p0 := unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(pos))
	for _, v := range src {
		pd := countAt(p0, uint(bucketOf(v, b)))
		p := *pd
		*pd = p + 1
		*keyAt(d0, p) = v
	}
}

// streamPoints summarizes the samples of each bucket count (one slice of
// streamBuckets' times per round).
func streamPoints(rounds [][]float64) []StreamPointStat {
	if len(rounds) == 0 {
		return nil
	}
	out := make([]StreamPointStat, len(streamBuckets))
	for k, b := range streamBuckets {
		xs := make([]float64, 0, len(rounds))
		for _, r := range rounds {
			xs = append(xs, r[k])
		}
		out[k] = StreamPointStat{Buckets: b, Scatter: Summarize(xs)}
	}
	return out
}

// streamBound is the streams the core keeps: one read stream and the
// most buckets whose median scatter is within streamSlack of the
// fastest; 0 without points.
func streamBound(pts []StreamPointStat) int {
	fastest := 0.0
	for _, p := range pts {
		if t := p.Scatter.Median; t > 0 && (fastest == 0 || t < fastest) {
			fastest = t
		}
	}
	most := 0
	for _, p := range pts {
		if t := p.Scatter.Median; t > 0 && t <= streamSlack*fastest {
			most = max(most, p.Buckets)
		}
	}
	if most == 0 {
		return 0
	}
	return most + 1
}

// streamCurve is the machine's stream curve from the points: each bucket
// count's median round, to three significant digits; nil unless two or
// more points have a time.
func streamCurve(pts []StreamPointStat) []machine.StreamPoint {
	var out []machine.StreamPoint
	for _, p := range pts {
		if t := p.Scatter.Median; t > 0 {
			out = append(out, machine.StreamPoint{Buckets: p.Buckets, Scatter: round3g(t)})
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// curveEnds is the fastest and the slowest of the points' medians, the
// two numbers of the stream curve that two calibrations compare
// (Params); ok is false without a time.
func curveEnds(pts []StreamPointStat) (fast, slow Stat, ok bool) {
	for _, p := range pts {
		t := p.Scatter
		if !(t.Median > 0) {
			continue
		}
		if !ok || t.Median < fast.Median {
			fast = t
		}
		if !ok || t.Median > slow.Median {
			slow = t
		}
		ok = true
	}
	return fast, slow, ok
}

// streamSizes are the array sizes the stream test times the scatter
// over: the distribution curve's largest, and the one before it when
// that too is at least beyond (twice the last cache, where calibration
// knows it before the curve). One size alone is not enough: on the AMD
// guest of docs/hierarchy.md the scatter into 128 buckets over two
// arrays of 64 MiB took 51 to 57 ns a line of keys in two calibrations,
// and over 90.51 or 45.25 MiB 19 to 32 ns, with 8 to 64 buckets alike at
// all three; which size was the curve's last moved with the last cache's
// reading, and the streams with it (65 and 129). A slowdown at one size
// of arrays is where they lie, not how many streams the core follows, so
// each bucket count keeps its faster time of the two (fasterOf).
func streamSizes(sizes []int64, beyond int64) []int64 {
	n := len(sizes)
	switch {
	case n == 0:
		return nil
	case n >= 2 && beyond > 0 && sizes[n-2] >= beyond:
		return sizes[n-2:]
	}
	return sizes[n-1:]
}

// fasterOf is, for each bucket count, the faster of two samples' times
// (a alone when b is nil).
func fasterOf(a, b []float64) []float64 {
	if b == nil {
		return a
	}
	out := make([]float64, len(a))
	for k := range a {
		out[k] = min(a[k], b[k])
	}
	return out
}

// setStreams gives m the streams its core keeps when the stream test's
// arrays, of sizes bytes each (streamSizes, in increasing order), lay
// well beyond the last cache (twice it), and says in the notes how they
// were found or why not.
func setStreams(m *machine.Machine, pts []StreamPointStat, sizes []int64) {
	if len(pts) == 0 || len(sizes) == 0 {
		return
	}
	size := sizes[0]
	if size < 2*m.C {
		m.Notes["streams_method"] = fmt.Sprintf("not measured: the largest arrays the buffer allowed, %s, are not twice the last cache (%s)", units.FormatSize(size), units.FormatSize(m.C))
		return
	}
	m.Streams = streamBound(pts)
	m.StreamCost = streamCurve(pts)
	if fast, slow, ok := curveEnds(pts); ok && m.Spread != nil {
		m.Spread["stream_cost.fastest"] = round3(fast.Spread)
		m.Spread["stream_cost.slowest"] = round3(slow.Spread)
	}
	var times string
	for i, p := range pts {
		if i > 0 {
			times += ", "
		}
		times += fmt.Sprintf("%d: %s", p.Buckets, units.FormatSeconds(p.Scatter.Median))
	}
	over := "two arrays of " + units.FormatSize(size)
	if len(sizes) > 1 {
		over = fmt.Sprintf("two arrays of %s and of %s (each bucket count's faster)", units.FormatSize(size), units.FormatSize(sizes[len(sizes)-1]))
	}
	m.Notes["streams_method"] = fmt.Sprintf("the scatter loop into 8 to 256 buckets over %s, a line of keys by buckets (%s); one read stream and the most buckets within %.1f times the fastest", over, times, streamSlack)
}
