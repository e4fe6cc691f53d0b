package measure

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"memwall/engine/machine"
)

// TestBucketsAt: one sample times each bucket count, and its last
// scatter (256 buckets) leaves the keys grouped by their top 8 bits,
// stably, as a brute-force grouping does.
func TestBucketsAt(t *testing.T) {
	buf := make([]uint64, 1<<14)
	const size = 16 << 10 // 4096 keys an array
	times, err := bucketsAt(context.Background(), buf, size, 64, 5)
	if err != nil || len(times) != len(streamBuckets) {
		t.Fatalf("bucketsAt = %v, %v; want %d times", times, err, len(streamBuckets))
	}
	for k, s := range times {
		if !(s > 0) || s > 1e-3 {
			t.Errorf("%d buckets: %g s a line; want a positive time under 1 ms", streamBuckets[k], s)
		}
	}
	keys := asKeys(buf)
	src, dst := keys[:size/4], keys[size/4:size/2]
	var want []uint32
	for d := uint32(0); d < 256; d++ {
		for _, v := range src {
			if v>>24 == d {
				want = append(want, v)
			}
		}
	}
	if !slices.Equal(dst, want) {
		t.Error("the scatter into 256 buckets did not group the keys by their top 8 bits, stably")
	}
	if _, err := bucketsAt(context.Background(), buf[:0], size, 64, 5); err == nil {
		t.Error("an empty buffer gave no error")
	}
}

// TestScatterBuckets: into a count that is no power of two (12, 48) the
// scatter leaves the keys grouped by bucket, stably, as a brute-force
// grouping by ⌊v·b/2^32⌋ does, and each bucket's keys are the ones of
// its twelfth (forty-eighth) of [0, 2^32).
func TestScatterBuckets(t *testing.T) {
	src := make([]uint32, 5000)
	fillKeys(src, 11)
	for _, b := range []int{12, 48} {
		counts := make([]int, b+1)
		for _, v := range src {
			counts[bucketOf(v, b)+1]++
		}
		for d := 1; d < b; d++ {
			counts[d] += counts[d-1]
		}
		dst := make([]uint32, len(src))
		scatterBuckets(src, dst, append([]int(nil), counts[:b]...), b)
		var want []uint32
		for d := 0; d < b; d++ {
			lo, hi := uint64(d)<<32/uint64(b), uint64(d+1)<<32/uint64(b)
			for _, v := range src {
				// v lies in bucket d when d·2^32/b ≤ v < (d+1)·2^32/b,
				// rounded up as ⌊v·b/2^32⌋ = d requires.
				if x := uint64(v) * uint64(b); x>>32 == uint64(d) {
					want = append(want, v)
					if uint64(v) < lo || uint64(v) > hi {
						t.Fatalf("%d buckets: key %d in bucket %d outside [%d, %d]", b, v, d, lo, hi)
					}
				}
			}
		}
		if !slices.Equal(dst, want) {
			t.Errorf("%d buckets: the keys not grouped by bucket, stably", b)
		}
	}
}

// TestStreamBound: the most buckets within 1.5 times the fastest, plus
// the read stream, on hand-made medians.
func TestStreamBound(t *testing.T) {
	pts := func(ns ...float64) []StreamPointStat { return fivePoints(ns...) }
	for _, c := range []struct {
		name string
		pts  []StreamPointStat
		want int
	}{
		// The development machine: 23, 21.7, 28.8, 56.1, 110 ns; 1.5 ×
		// 21.7 = 32.55 takes 32 buckets, not 64.
		{"Intel guest", pts(23, 21.7, 28.8, 56.1, 110), 33},
		{"only 16", pts(20, 22, 31, 58, 110), 17},
		{"all stream", pts(20, 20, 21, 22, 24), 129},
		// Slower into 8 (its positions' store-to-load chains) than into
		// 16 does not cut the bound.
		{"8 slow", pts(40, 21.7, 28.8, 56.1, 110), 33},
		{"no points", nil, 0},
		{"no times", pts(0, 0, 0, 0, 0), 0},
	} {
		if got := streamBound(c.pts); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}

// fivePoints are stream points at 8 to 128 buckets, powers of two, with
// these medians in ns.
func fivePoints(ns ...float64) []StreamPointStat {
	out := make([]StreamPointStat, len(ns))
	for i, v := range ns {
		out[i] = StreamPointStat{Buckets: 8 << i, Scatter: Stat{Median: v * 1e-9}}
	}
	return out
}

// TestSetStreams: the bound is set only from arrays at least twice the
// last cache, and the notes say which.
func TestSetStreams(t *testing.T) {
	pts := []StreamPointStat{{Buckets: 8, Scatter: Stat{Median: 23e-9}}, {Buckets: 16, Scatter: Stat{Median: 22e-9}}, {Buckets: 64, Scatter: Stat{Median: 56e-9}}}
	m := machine.Machine{C: 32 << 20, Notes: map[string]string{}}
	setStreams(&m, pts, []int64{64 << 20})
	if m.Streams != 17 || !strings.Contains(m.Notes["streams_method"], "16: 22 ns") || !strings.Contains(m.Notes["streams_method"], "over two arrays of 64 MiB,") {
		t.Errorf("64 MiB arrays, 32 MiB cache: streams %d, notes %q", m.Streams, m.Notes["streams_method"])
	}
	m = machine.Machine{C: 32 << 20, Notes: map[string]string{}}
	setStreams(&m, pts, []int64{64 << 20, 90 << 20})
	if m.Streams != 17 || !strings.Contains(m.Notes["streams_method"], "two arrays of 64 MiB and of 90 MiB (each bucket count's faster)") {
		t.Errorf("64 and 90 MiB arrays, 32 MiB cache: streams %d, notes %q", m.Streams, m.Notes["streams_method"])
	}
	m = machine.Machine{C: 32 << 20, Notes: map[string]string{}}
	setStreams(&m, pts, []int64{48 << 20})
	if m.Streams != 0 || !strings.Contains(m.Notes["streams_method"], "not measured") {
		t.Errorf("48 MiB arrays, 32 MiB cache: streams %d, notes %q", m.Streams, m.Notes["streams_method"])
	}
}

// TestStreamCurve: the machine's curve is each count's median to three
// digits, a count without a time left out; its ends are the fastest and
// the slowest medians with their spreads, which setStreams records.
func TestStreamCurve(t *testing.T) {
	pts := []StreamPointStat{
		{Buckets: 8, Scatter: Stat{Median: 16.64e-9, Spread: 0.02}},
		{Buckets: 12, Scatter: Stat{}},
		{Buckets: 48, Scatter: Stat{Median: 44.51e-9, Spread: 0.07}},
		{Buckets: 64, Scatter: Stat{Median: 22.449e-9, Spread: 0.05}},
	}
	want := []machine.StreamPoint{{Buckets: 8, Scatter: 16.6e-9}, {Buckets: 48, Scatter: 44.5e-9}, {Buckets: 64, Scatter: 22.4e-9}}
	got := streamCurve(pts)
	if len(got) != len(want) {
		t.Fatalf("curve %v, want %v", got, want)
	}
	for i := range want {
		if got[i].Buckets != want[i].Buckets || math.Abs(got[i].Scatter-want[i].Scatter) > 1e-15 {
			t.Errorf("point %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if streamCurve(pts[:2]) != nil {
		t.Error("one timed point made a curve")
	}
	m := machine.Machine{C: 16 << 20, Notes: map[string]string{}, Spread: map[string]float64{}}
	setStreams(&m, pts, []int64{64 << 20})
	if len(m.StreamCost) != 3 || m.Spread["stream_cost.fastest"] != 0.02 || m.Spread["stream_cost.slowest"] != 0.07 {
		t.Errorf("setStreams: curve %v, spreads %v", m.StreamCost, m.Spread)
	}
	if p := Params(m); math.Abs(p["stream_cost.fastest"]-16.6e-9) > 1e-15 || math.Abs(p["stream_cost.slowest"]-44.5e-9) > 1e-15 {
		t.Errorf("Params: fastest %g, slowest %g; want 16.6 and 44.5 ns", p["stream_cost.fastest"], p["stream_cost.slowest"])
	}
}

// TestStreamSizes: the stream test takes the curve's last size, and the
// one before it when that is at least the bound given (twice the last
// cache); none without sizes.
func TestStreamSizes(t *testing.T) {
	sizes := []int64{32 << 20, 45 << 20, 64 << 20}
	for _, c := range []struct {
		sizes  []int64
		beyond int64
		want   []int64
	}{
		{sizes, 28 << 20, []int64{45 << 20, 64 << 20}},
		{sizes, 45 << 20, []int64{45 << 20, 64 << 20}},
		{sizes, 46 << 20, []int64{64 << 20}},
		{sizes, 0, []int64{64 << 20}},
		{sizes[:1], 1, []int64{32 << 20}},
		{nil, 1, nil},
	} {
		if got := streamSizes(c.sizes, c.beyond); !slices.Equal(got, c.want) {
			t.Errorf("streamSizes(%v, %d) = %v, want %v", c.sizes, c.beyond, got, c.want)
		}
	}
}

// TestFasterOfKeepsTheAMDGuestsStreams: the AMD guest's scatter times, a
// line of keys into 8 to 128 buckets (docs/hierarchy.md, the AMD guest:
// calibration e1 over arrays of 64 MiB, e2 two minutes later over
// 90.51 MiB). Over 64 MiB alone 128 buckets run at 3.3 times the fastest
// and the bound is 65 (one read stream and 64 buckets); with each
// count's faster of the two sizes the fastest is 15.88 ns, 32 buckets
// (26.31 ns) are beyond 1.5 times it and 64 and 128 (21.78, 19.83 ns)
// within, so the bound is 129, what e2 read.
func TestFasterOfKeepsTheAMDGuestsStreams(t *testing.T) {
	at64 := []float64{17.92e-9, 17.48e-9, 29.02e-9, 24.0e-9, 57.52e-9}
	at90 := []float64{15.88e-9, 15.98e-9, 26.31e-9, 21.78e-9, 19.83e-9}
	points := func(ts []float64) []StreamPointStat {
		ns := make([]float64, len(ts))
		for i, v := range ts {
			ns[i] = v * 1e9
		}
		return fivePoints(ns...)
	}
	if got := streamBound(points(at64)); got != 65 {
		t.Errorf("64 MiB alone: %d streams, want 65", got)
	}
	both := fasterOf(at64, at90)
	if !slices.Equal(both, at90) {
		t.Errorf("fasterOf = %v, want %v", both, at90)
	}
	if got := streamBound(points(both)); got != 129 {
		t.Errorf("the faster of both sizes: %d streams, want 129", got)
	}
	if got := fasterOf(at64, nil); !slices.Equal(got, at64) {
		t.Errorf("fasterOf(a, nil) = %v, want a", got)
	}
	mixed := fasterOf([]float64{1, 5}, []float64{2, 3})
	if !slices.Equal(mixed, []float64{1, 3}) {
		t.Errorf("fasterOf takes each count's minimum: got %v, want [1 3]", mixed)
	}
}
