package measure

import (
	"context"
	"slices"
	"testing"

	"memwall/engine/machine"
)

// TestDistAt checks what one sample leaves behind against a brute-force
// route: the source's keys, grouped by digit in digit order and in their
// source order within a digit, are the destination's.
func TestDistAt(t *testing.T) {
	buf := make([]uint64, 1<<14)
	const size = 16 << 10 // 4096 keys an array
	x, err := distAt(context.Background(), buf, size, 64, 7, distGroups)
	if err != nil || !(x.count > 0) || !(x.scatter > 0) || !(x.put > 0) || !(x.walk >= 0) || x.walk > 1e-6 {
		t.Fatalf("distAt = %+v, %v; want three positive times and a walk from 0 to 1 µs", x, err)
	}
	checkGrouped(t, buf, size, distMask)
}

// TestPutAt checks the simple sorts' loop as a sample runs it against a
// brute-force route: bucket d of capacity n/64 + n/256 + 16, at d times
// that in the second array, holds the first n source keys of digit d in
// source order, n = (keys − 16·64)·4/5 − 192 (4096-key arrays: 2265 keys,
// 64 buckets of 35 + 8 + 16 = 59 words, where all 2457 keys would make
// buckets of 64, a power of two, putSkew says why not).
func TestPutAt(t *testing.T) {
	keys := make([]uint32, 2*4096)
	fillKeys(keys[:4096], 11)
	src, dst := keys[:4096], keys[4096:]
	secs, lines := putAt(src, dst, 64, distGroups, distMask+1)
	const n, capE = 2265, 2265/64 + 2265/256 + 16
	if !(secs > 0) || lines != n*4/64.0 {
		t.Fatalf("putAt = %g s, %g lines; want a positive time and %g lines", secs, lines, n*4/64.0)
	}
	for d := uint32(0); d < 64; d++ {
		var want []uint32
		for _, v := range src[:n] {
			if v>>distShift&distMask == d {
				want = append(want, v)
			}
		}
		got := dst[int(d)*capE : int(d)*capE+len(want)]
		if !slices.Equal(got, want) {
			t.Fatalf("bucket %d holds %v, want %v", d, got, want)
		}
	}
}

// checkGrouped checks that the second of the two arrays of size bytes at
// the front of buf holds the first's keys grouped by their digit
// (v>>distShift)&mask, in digit order and, within a digit, in source
// order: a brute-force grouping.
func checkGrouped(t *testing.T, buf []uint64, size int64, mask uint32) {
	t.Helper()
	keys := asKeys(buf)
	src, dst := keys[:size/4], keys[size/4:size/2]
	var want []uint32
	for d := uint32(0); d <= mask; d++ {
		for _, v := range src {
			if v>>distShift&mask == d {
				want = append(want, v)
			}
		}
	}
	for i := range want {
		if dst[i] != want[i] {
			t.Fatalf("dst[%d] = %d, want %d (the keys grouped by digit, stable)", i, dst[i], want[i])
		}
	}
}

// TestWalkIndices: the paged cycle reads each of the pages once, at line
// k mod 64 of page k; the packed one reads as many lines side by side
// past the span, in the same order.
func TestWalkIndices(t *testing.T) {
	const pages, span = 300, 300 * walkPage
	paged, packed := walkIndices(pages, span, 99)
	seen := make(map[int32]bool)
	for i, w := range paged {
		k := w * 8 / walkPage
		if w*8 != k*walkPage+k%64*64 || k < 0 || k >= pages || seen[k] {
			t.Fatalf("paged[%d] = word %d: not line %d of a page not yet read", i, w, k%64)
		}
		seen[k] = true
		if packed[i] != span/8+k*8 {
			t.Fatalf("packed[%d] = word %d, want %d (line %d past the span)", i, packed[i], span/8+k*8, k)
		}
	}
	if paged[0] == 0 && paged[1] == 1*walkPage/8+8 && paged[2] == 2*walkPage/8+16 {
		t.Error("the pages are read in address order, not a random one")
	}
}

func TestDistSizes(t *testing.T) {
	// From 16 KiB, two a doubling, 4 KiB aligned: 16, 20 (22.6 rounded
	// down), 32, 44 (45.25), 64 KiB.
	got := distSizes(64 << 10)
	want := []int64{16 << 10, 20 << 10, 32 << 10, 44 << 10, 64 << 10}
	if len(got) != len(want) {
		t.Fatalf("distSizes(64 KiB) = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("distSizes(64 KiB) = %v, want %v", got, want)
		}
	}
}

// TestDistributionOf: each size's median round, to three digits (a rare
// fast round does not set the point), and a point the clock missed
// dropped.
func TestDistributionOf(t *testing.T) {
	pts := []DistPointStat{
		{Size: 16 << 10, Count: Summarize([]float64{11.04e-9, 10.26e-9, 10.5e-9}), Scatter: Summarize([]float64{13.3e-9, 13.1e-9, 13.2e-9})},
		{Size: 32 << 10, Count: Summarize([]float64{0}), Scatter: Summarize([]float64{14e-9})},
		{Size: 64 << 20, Count: Summarize([]float64{31.27e-9, 30.5e-9, 30.04e-9}), Scatter: Summarize([]float64{58.04e-9, 28.1e-9, 59.1e-9})},
	}
	got := distributionOf(pts, 0)
	want := []machine.DistPoint{{Size: 16 << 10, Count: 10.5e-9, Scatter: 13.2e-9}, {Size: 64 << 20, Count: 30.5e-9, Scatter: 58.0e-9}}
	if len(got) != len(want) {
		t.Fatalf("distributionOf = %+v, want %+v", got, want)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Size != w.Size || !closeRel(g.Count, w.Count) || !closeRel(g.Scatter, w.Scatter) {
			t.Fatalf("distributionOf[%d] = %+v, want %+v", i, g, w)
		}
	}
}

func closeRel(a, b float64) bool { return a == b || (a-b)/b < 1e-9 && (b-a)/b < 1e-9 }

// TestDistributionOfMemoryTail: from twice the last cache on, the count,
// scatter and put are the median of all those sizes' rounds together,
// the page walk stays each size's own, and below it each size keeps its
// own median. Medians by hand, put at the two sizes past 2·C:
// 200 MiB {56 57 34 58 59} (its own median 57), 400 MiB {55 33 34 36 57}
// (its own 36, three fast rounds of five); together, sorted,
// 33 34 34 36 55 | 56 57 57 58 59: the median (55+56)/2 = 55.5. Count
// {31 32 30 33 31} and {32 30 31 31 34}: together 30 30 31 31 31 | 31 32
// 32 33 34, median 31. With one size past 2·C, or no cache, every size
// keeps its own, and no size's is above a larger size's.
func TestDistributionOfMemoryTail(t *testing.T) {
	ns := func(xs ...float64) Stat {
		for i := range xs {
			xs[i] *= 1e-9
		}
		return Summarize(xs)
	}
	const mib = 1 << 20
	pts := []DistPointStat{
		{Size: 64 * mib, Count: ns(29, 30, 31, 30, 29), Scatter: ns(50, 51, 52, 51, 50), Walk: ns(5, 5, 5, 5, 5), Put: ns(40, 41, 42, 41, 40)},
		{Size: 200 * mib, Count: ns(31, 32, 30, 33, 31), Scatter: ns(55, 56, 57, 55, 56), Walk: ns(10, 11, 10, 11, 10), Put: ns(56, 57, 34, 58, 59)},
		{Size: 400 * mib, Count: ns(32, 30, 31, 31, 34), Scatter: ns(56, 57, 56, 58, 55), Walk: ns(20, 21, 20, 21, 20), Put: ns(55, 33, 34, 36, 57)},
	}
	type want struct{ count, scatter, walk, put float64 } // ns, by point
	for _, tc := range []struct {
		name  string
		cache int64
		want  []want
	}{
		// Scatter together: 55 55 55 56 56 | 56 56 57 57 58, median 56.
		{"two points past 2C", 100 * mib, []want{{30, 51, 5, 41}, {31, 56, 10, 55.5}, {31, 56, 20, 55.5}}},
		// Unpooled, each size keeps its own median, and the put's at 400
		// MiB, the lowest, bounds the smaller sizes' (monotoneFromAbove):
		// the lucky reading pooling is there to keep out.
		{"one point past 2C", 150 * mib, []want{{30, 51, 5, 36}, {31, 56, 10, 36}, {31, 56, 20, 36}}},
		{"no cache", 0, []want{{30, 51, 5, 36}, {31, 56, 10, 36}, {31, 56, 20, 36}}},
	} {
		got := distributionOf(pts, tc.cache)
		if len(got) != len(tc.want) {
			t.Fatalf("%s: %d points, want %d", tc.name, len(got), len(tc.want))
		}
		for i, w := range tc.want {
			g := got[i]
			if !closeRel(g.Count, w.count*1e-9) || !closeRel(g.Scatter, w.scatter*1e-9) || !closeRel(g.Walk, w.walk*1e-9) || !closeRel(g.Put, w.put*1e-9) {
				t.Errorf("%s: point %d = %+v, want %+v ns", tc.name, i, g, w)
			}
		}
	}
	// The spreads of memory's point are the pooled rounds': put's
	// quartiles of the ten by hand (quantile's interpolation, positions
	// 2.25 and 6.75 of 0 to 9): 34 + 0.25·(36 − 34) = 34.5, and 57 (the
	// sixth and seventh are both 57), over 55.5.
	m := machine.Machine{C: 100 * mib, Spread: map[string]float64{}, Notes: map[string]string{}}
	setDistribution(&m, pts)
	if w := round3((57 - 34.5) / 55.5); m.Spread["distribution.put"] != w {
		t.Errorf("distribution.put spread = %v, want %v", m.Spread["distribution.put"], w)
	}
}

// TestMonotoneFromAbove: a point whose count, scatter or put lies above a
// larger size's is lowered to the least of the larger sizes'; the page
// walk and an absent put stay as they are. The values are a calibration's
// made while a neighbour was busy (ns a line of keys at 64 KiB, 256 KiB
// and 1 MiB): count 14.3, 25.4, 16.7 → 14.3, 16.7, 16.7; scatter 17.8,
// 32.5, 21.4 → 17.8, 21.4, 21.4; a walk of 0.9, 0.2, 0.4 unchanged.
func TestMonotoneFromAbove(t *testing.T) {
	const ki = 1 << 10
	pts := []machine.DistPoint{
		{Size: 64 * ki, Count: 14.3, Scatter: 17.8, Walk: 0.9},
		{Size: 256 * ki, Count: 25.4, Scatter: 32.5, Walk: 0.2},
		{Size: 1024 * ki, Count: 16.7, Scatter: 21.4, Walk: 0.4},
	}
	monotoneFromAbove(pts)
	want := []machine.DistPoint{
		{Size: 64 * ki, Count: 14.3, Scatter: 17.8, Walk: 0.9},
		{Size: 256 * ki, Count: 16.7, Scatter: 21.4, Walk: 0.2},
		{Size: 1024 * ki, Count: 16.7, Scatter: 21.4, Walk: 0.4},
	}
	for i := range want {
		if pts[i] != want[i] {
			t.Errorf("point %d = %+v, want %+v", i, pts[i], want[i])
		}
	}
}
