package measure

import (
	"context"
	"fmt"
	"time"

	"memwall/engine/machine"
	"memwall/engine/units"
)

// Stream method: the scatter loop of the counting sorts (ScatterDigits)
// timed into 8, 16, 32, 64 and 128 buckets over the distribution curve's
// largest arrays, beyond the last cache, in each of its rounds (and at
// the size before, each bucket count's faster of the two kept, when
// that too lies beyond it: streamSizes). Into few
// buckets every write stream is one the prefetcher follows and a line
// costs what a stream of it does; past the streams the core keeps, the
// buckets' fills wait as random ones do and the time a line jumps (on
// the development machine 22 to 29 ns a line of keys into 8 to 32
// buckets, 56 into 64). The streams kept are read off as the most
// buckets whose scatter is within streamSlack of the fastest, plus the
// read stream: machine.Machine's Streams, which the hierarchy model
// compares a pass's buckets with.

// StreamPointStat is the scatter loop's seconds per line of keys into
// Buckets buckets over the stream test's arrays.
type StreamPointStat struct {
	Buckets int  `json:"buckets"`
	Scatter Stat `json:"scatter"`
}

// streamBuckets are the bucket counts the scatter is timed into, at most
// maxStreamBuckets.
var streamBuckets = []int{8, 16, 32, 64, 128}

const maxStreamBuckets = 128

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
	var counts [maxStreamBuckets + 2]int // CountDigits' b + 1 entries, and room
	var positions [maxStreamBuckets]int
	for k, b := range streamBuckets {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		mask := uint32(b - 1)
		clear(counts[:])
		CountDigits(src, counts[:b+1], distShift, mask)
		pos := positions[:b]
		for d := 1; d < b; d++ {
			counts[d] += counts[d-1]
		}
		t0 := time.Now()
		for r := 0; r < reps; r++ {
			copy(pos, counts[:b])
			ScatterDigits(src, dst, pos, distShift, mask)
		}
		out[k] = time.Since(t0).Seconds() / float64(reps) / lines
	}
	return out, nil
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
	m.Notes["streams_method"] = fmt.Sprintf("the scatter loop into 8 to 128 buckets over %s, a line of keys by buckets (%s); one read stream and the most buckets within %.1f times the fastest", over, times, streamSlack)
}
