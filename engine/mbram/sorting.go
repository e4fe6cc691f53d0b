package mbram

import (
	"math"
)

// Sorts of the MBRAM paper Fig. 5 and Appendix a–e. C is taken in bytes in every
// logarithm (docs/readings.md): with that reading quicksort, mergesort, heapsort
// and both radix sorts reproduce the printed predictions.

// ramPasses is log2 N − log2 C + 1, the recursion levels whose subarrays do
// not fit in the cache (the MBRAM paper App. a). When the array is small the count
// falls below one; one pass is still needed to read the array from RAM.
func (e *eval) ramPasses() float64 {
	v := math.Log2(float64(e.p.N)) - math.Log2(float64(e.m.C)) + 1
	if v < 1 {
		e.warnf("log2 N − log2 C + 1 = %s < 1: the array fits in the cache, so memwall charges one pass from RAM (the MBRAM paper's formula assumes N·w > C)", num(v))
		return 1
	}
	return v
}

// mispredictions is (N/2)·m·log2 N: half of the N·log2 N comparisons of a
// balanced divide-and-conquer sort go the unpredicted way (Model Rule 3).
func (e *eval) addHalfMispredictions() {
	n := float64(e.p.N)
	l := math.Log2(n)
	e.add("branch mispredictions", n/2*e.m.M*l, "(N/2)·m·log2 N",
		func() string { return "(" + integer(e.p.N) + "/2)·" + sec(e.m.M) + "·" + num(l) })
}

func evalQuicksort(e *eval) {
	m, w, n := e.m, float64(e.p.W), float64(e.p.N)
	p := e.ramPasses()
	e.add("sequential memory traffic (partition passes in RAM)", 2*w*n/m.Beta1*p, "2wN/β1·(log2 N − log2 C + 1)",
		func() string {
			return "2·" + integer(e.p.W) + "·" + integer(e.p.N) + " B / " + bw(m.Beta1) + "·" + num(p)
		})
	e.addHalfMispredictions()
	if e.explain {
		e.setRegime("balanced partitions; " + num(p) + " levels in RAM, the rest in cache (the MBRAM paper, App. a)")
	}
}

func evalMergesort(e *eval) {
	m, w, n := e.m, float64(e.p.W), float64(e.p.N)
	p := e.ramPasses()
	e.add("random memory traffic (merge passes in RAM)", w*n/m.Beta2*p, "wN/β2·(log2 N − log2 C + 1)",
		func() string { return integer(e.p.W) + "·" + integer(e.p.N) + " B / " + bw(m.Beta2) + "·" + num(p) })
	e.add("sequential memory traffic (merge passes in RAM)", 2*w*n/m.Beta1*p, "2wN/β1·(log2 N − log2 C + 1)",
		func() string {
			return "2·" + integer(e.p.W) + "·" + integer(e.p.N) + " B / " + bw(m.Beta1) + "·" + num(p)
		})
	e.addHalfMispredictions()
	if e.explain {
		e.setRegime(num(p) + " merge levels in RAM, the rest in cache (the MBRAM paper, App. b)")
	}
}

// evalHeapsort: each of N downheaps takes log2 N steps; the top
// log2(C/w) − log2 log2 N levels stay cached (the MBRAM paper App. c), every other
// step loads a line from a random place; each step mispredicts once on
// average (two comparisons at one half each).
func evalHeapsort(e *eval) {
	m, w, n := e.m, float64(e.p.W), float64(e.p.N)
	l := math.Log2(n)
	ll := 0.0
	if n > 2 {
		ll = math.Log2(l)
	}
	levels := l - math.Log2(float64(m.C)/w) + ll
	if levels < 0 {
		e.warnf("log2 N − log2(C/w) + log2 log2 N = %s < 0: the heap fits in the cache, so memwall charges no random traffic", num(levels))
		levels = 0
	}
	e.add("random memory traffic (downheap steps below the cached levels)", float64(m.B)/m.Beta2*n*levels,
		"(B/β2)·N·(log2 N − log2(C/w) + log2 log2 N)",
		func() string {
			return "(" + integer(m.B) + " B / " + bw(m.Beta2) + ")·" + integer(e.p.N) + "·" + num(levels)
		})
	e.add("branch mispredictions", m.M*n*l, "m·N·log2 N",
		func() string { return sec(m.M) + "·" + integer(e.p.N) + "·" + num(l) })
	if e.explain {
		unit := " uncached levels per downheap"
		if levels == 1 {
			unit = " uncached level per downheap"
		}
		e.setRegime(num(levels) + unit + " (the MBRAM paper, App. c)")
	}
}

// digits is ⌈log_b N⌉, the passes over a key range of N values.
func (e *eval) digits() int64 {
	d := ceilLog(e.p.Buckets, e.p.N)
	if e.explain && !isPowerOf(e.p.Buckets, e.p.N) {
		e.warnf("N = %d is not a power of b = %d: ⌈log_b N⌉ = %d charges the last, partial digit as a full pass", e.p.N, e.p.Buckets, d)
	}
	return d
}

// streamCheck applies Model Rule 8: b bucket streams plus the source stream
// must fit in the μ2 cache lines for a pass to cost 3wN/β2.
func (e *eval) streamCheck() {
	if mu2 := e.m.Mu2(); e.explain && e.p.Buckets+1 > mu2 {
		e.warnf("b = %d buckets plus the source exceed μ2 = C/B = %d cache lines: by Model Rule 8 every access becomes random (B/β2 per element), which the formula does not charge", e.p.Buckets, mu2)
	}
}

// bucketPasses is ⌈log_b N⌉ − ⌊log_b(C/2)⌋ + 1 (the MBRAM paper App. d): the passes
// in RAM, the input needing half the cache so the buckets fit beside it.
func (e *eval) bucketPasses(d int64) int64 {
	p := d - floorLog(e.p.Buckets, e.m.C/2) + 1
	if p < 1 {
		e.warnf("⌈log_b N⌉ − ⌊log_b(C/2)⌋ + 1 = %d < 1: the array fits in half the cache; memwall charges one pass", p)
		return 1
	}
	return p
}

func evalBucket(e *eval) {
	m, w, n := e.m, float64(e.p.W), float64(e.p.N)
	d := e.digits()
	p := e.bucketPasses(d)
	e.add("random memory traffic (distribution passes in RAM)", 3*w*n/m.Beta2*float64(p), "3wN/β2·(⌈log_b N⌉ − ⌊log_b(C/2)⌋ + 1)",
		func() string {
			return "3·" + integer(e.p.W) + "·" + integer(e.p.N) + " B / " + bw(m.Beta2) + "·" + integer(p)
		})
	e.streamCheck()
	if e.explain {
		e.setRegime(integer(p) + " of " + integer(d) + " digit passes in RAM, C in bytes (the MBRAM paper, App. d)")
	}
}

func evalBucketCount(e *eval) {
	m, w, n := e.m, float64(e.p.W), float64(e.p.N)
	d := e.digits()
	p := e.bucketPasses(d)
	e.add("random memory traffic (distribution passes in RAM)", 3*w*n/m.Beta2*float64(p), "3wN/β2·(⌈log_b N⌉ − ⌊log_b(C/2)⌋ + 1)",
		func() string {
			return "3·" + integer(e.p.W) + "·" + integer(e.p.N) + " B / " + bw(m.Beta2) + "·" + integer(p)
		})
	q := d - floorLog(e.p.Buckets, m.C) + 1
	if q < 0 {
		q = 0
	}
	e.add("sequential memory traffic (counting passes in RAM)", w*n/m.Beta1*float64(q), "wN/β1·(⌈log_b N⌉ − ⌊log_b C⌋ + 1)",
		func() string {
			return integer(e.p.W) + "·" + integer(e.p.N) + " B / " + bw(m.Beta1) + "·" + integer(q)
		})
	e.streamCheck()
	if e.explain {
		e.setRegime(integer(p) + " distribution and " + integer(q) + " counting passes in RAM, C in bytes (the MBRAM paper, App. d)")
	}
}

// Radix sorts: no pass runs in cache (the MBRAM paper App. e).
func evalRadix(e *eval) {
	m, w, n := e.m, float64(e.p.W), float64(e.p.N)
	d := e.digits()
	e.add("random memory traffic (distribution passes)", 3*w*n/m.Beta2*float64(d), "3wN/β2·⌈log_b N⌉",
		func() string {
			return "3·" + integer(e.p.W) + "·" + integer(e.p.N) + " B / " + bw(m.Beta2) + "·" + integer(d)
		})
	e.streamCheck()
	if e.explain {
		e.setRegime(integer(d) + " digit passes, all in RAM (the MBRAM paper, App. e)")
	}
}

func evalRadixCount(e *eval) {
	m, w, n := e.m, float64(e.p.W), float64(e.p.N)
	d := e.digits()
	e.add("sequential memory traffic (counting passes)", w*n/m.Beta1*float64(d), "wN/β1·⌈log_b N⌉",
		func() string {
			return integer(e.p.W) + "·" + integer(e.p.N) + " B / " + bw(m.Beta1) + "·" + integer(d)
		})
	e.add("random memory traffic (distribution passes)", 3*w*n/m.Beta2*float64(d), "3wN/β2·⌈log_b N⌉",
		func() string {
			return "3·" + integer(e.p.W) + "·" + integer(e.p.N) + " B / " + bw(m.Beta2) + "·" + integer(d)
		})
	e.streamCheck()
	if e.explain {
		e.setRegime(integer(d) + " counting and distribution passes, all in RAM (the MBRAM paper, App. e)")
	}
}
