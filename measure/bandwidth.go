package measure

import (
	"context"
	"time"
)

// Bandwidth methods (the MBRAM paper, II.a and III.A: "the benchmarks access each
// cache block once, either in sequence (for beta1) or at random (for
// beta2)").
//
// Sequential: arrays of 8-byte words, each far larger than the last cache,
// are swept front to back by a plain Go loop with four independent
// accumulators (so the loop is limited by memory, not by an add chain).
// Four variants:
//
//	read, 1 stream:       s += a[i]
//	read, 2 streams:      s += a[i] + b[i]
//	read+write, 1 stream: a[i]++                   (each line read, then written back)
//	read+write, 2 streams: b[i] = a[i]             (copy)
//
// Bytes are counted the way the model charges them (the MBRAM paper, rule 7: a line
// must be read before it is written, so a written array costs twice its
// size): read 1 stream = S, read 2 streams = 2S, read+write 1 stream = 2S,
// copy = S + 2S. A rate computed with these counts can be put straight into
// the formulas, which charge 3wN/beta1 for "read X, write Z".
//
// Random: one array far larger than the last cache; a cheap linear
// congruential generator (four of them, interleaved) picks word addresses
// uniformly at random, and the loop sums the words. No address depends on a
// loaded value, so the core keeps as many misses outstanding as it can —
// the independent random line reads of a permutation product Z[i] = Y[X[i]]
// — not the one-at-a-time misses of a dependent chain (that is the latency
// curve). Every access lands in a different line with probability
// 1 − (cache/array), so the rate of accesses times the line size B is beta2.
// Pages are the ordinary 4 KiB pages Go allocates, so the TLB misses the
// real kernels meet are part of beta2 too.

// seqRead1 sums one array.
func seqRead1(a []uint64) uint64 {
	var s0, s1, s2, s3 uint64
	n := len(a) &^ 3
	for i := 0; i < n; i += 4 {
		s0 += a[i]
		s1 += a[i+1]
		s2 += a[i+2]
		s3 += a[i+3]
	}
	return s0 + s1 + s2 + s3
}

// seqRead2 sums two arrays in one loop: two concurrent streams.
func seqRead2(a, b []uint64) uint64 {
	var s0, s1, s2, s3 uint64
	n := min(len(a), len(b)) &^ 3
	a, b = a[:n], b[:n]
	for i := 0; i < n; i += 4 {
		s0 += a[i] + b[i]
		s1 += a[i+1] + b[i+1]
		s2 += a[i+2] + b[i+2]
		s3 += a[i+3] + b[i+3]
	}
	return s0 + s1 + s2 + s3
}

// seqRW1 updates one array in place.
func seqRW1(a []uint64) {
	n := len(a) &^ 3
	for i := 0; i < n; i += 4 {
		a[i]++
		a[i+1]++
		a[i+2]++
		a[i+3]++
	}
}

// seqRW2 copies a to b with an explicit loop; the built-in copy may use
// non-temporal stores that bypass the cache, which the kernels do not.
func seqRW2(dst, src []uint64) {
	n := min(len(dst), len(src)) &^ 3
	dst, src = dst[:n], src[:n]
	for i := 0; i < n; i += 4 {
		dst[i] = src[i]
		dst[i+1] = src[i+1]
		dst[i+2] = src[i+2]
		dst[i+3] = src[i+3]
	}
}

// randomRead reads count words at uniformly random places of a (any length
// below 2^32 words). The index is the high half of a 32×32-bit product of a
// generator's top bits and len(a), so the same loop serves the beta2
// benchmark over the whole buffer and the throughput curve over its first S
// bytes (throughput.go).
func randomRead(a []uint64, count int, seed uint64) uint64 {
	n := uint64(len(a))
	const mul, inc = 6364136223846793005, 1442695040888963407
	x0, x1, x2, x3 := seed, seed^0x9e3779b97f4a7c15, seed^0xbf58476d1ce4e5b9, seed^0x94d049bb133111eb
	var s0, s1, s2, s3 uint64
	for i := 0; i < count; i += 4 {
		x0 = x0*mul + inc
		x1 = x1*mul + inc
		x2 = x2*mul + inc
		x3 = x3*mul + inc
		s0 += a[(x0>>32)*n>>32]
		s1 += a[(x1>>32)*n>>32]
		s2 += a[(x2>>32)*n>>32]
		s3 += a[(x3>>32)*n>>32]
	}
	return s0 + s1 + s2 + s3
}

// SeqResult holds the four sequential variants in model bytes per second.
type SeqResult struct {
	Read1, Read2, RW1, RW2 Stat
}

// Sequential measures the four sequential variants over arrays of the given
// size in bytes each.
func Sequential(ctx context.Context, arrayBytes int64, reps int) (SeqResult, error) {
	n := int(arrayBytes / 8)
	a := make([]uint64, n)
	b := make([]uint64, n)
	for i := range a { // touch every page now, not inside the timed runs
		a[i] = uint64(i)
		b[i] = uint64(i)
	}
	return sequentialOn(ctx, a, b, reps)
}

func sequentialOn(ctx context.Context, a, b []uint64, reps int) (SeqResult, error) {
	s := float64(min(len(a), len(b)) * 8)
	var r SeqResult
	var err error
	run := func(dst *Stat, bytes float64, fn func()) {
		if err != nil {
			return
		}
		var secs []float64
		secs, err = repeat(ctx, reps, fn)
		if err == nil {
			*dst = Summarize(rates(secs, bytes))
		}
	}
	run(&r.Read1, s, func() { sink += seqRead1(a) })
	run(&r.Read2, 2*s, func() { sink += seqRead2(a, b) })
	run(&r.RW1, 2*s, func() { seqRW1(a) })
	run(&r.RW2, 3*s, func() { seqRW2(b, a) })
	return r, err
}

// RandomAccess measures the time of one random read from an array of the
// given size (rounded down to a power of two), in seconds per access.
func RandomAccess(ctx context.Context, arrayBytes int64, accesses, reps int) (Stat, error) {
	n := 1
	for int64(n)*16 <= arrayBytes {
		n *= 2
	}
	a := make([]uint64, n)
	for i := range a {
		a[i] = uint64(i)
	}
	return randomOn(ctx, a, accesses, reps)
}

// randomOn is RandomAccess on a given array.
func randomOn(ctx context.Context, a []uint64, accesses, reps int) (Stat, error) {
	accesses &^= 3
	seed := uint64(1)
	secs, err := repeat(ctx, reps, func() {
		sink += randomRead(a, accesses, seed)
		seed++
	})
	if err != nil {
		return Stat{}, err
	}
	return Summarize(per(secs, float64(accesses))), nil
}

// memSampler takes the sequential variants and the random reads one
// timed run at a time, so that Calibrate can spread its samples over the
// whole calibration (a sample between two rounds of the curves) instead
// of taking them in one burst of a fraction of a second: on a shared
// machine a neighbour's burst of memory traffic lasts seconds, and a
// burst of samples either misses it or lies entirely within it.
type memSampler struct {
	a, b, buf []uint64
	accesses  int
	seed      uint64
	warm      bool
	seq       [4][]float64 // seconds per run of Read1, Read2, RW1, RW2
	rnd       []float64    // seconds per random read
}

func newMemSampler(buf []uint64, accesses int) *memSampler {
	half := len(buf) / 2
	return &memSampler{a: buf[:half], b: buf[half:], buf: buf, accesses: accesses &^ 3, seed: 1}
}

// sample times one run of each variant and one of the random reads; the
// first call is an untimed warm-up, as in repeat.
func (s *memSampler) sample() {
	runs := [4]func(){
		func() { sink += seqRead1(s.a) },
		func() { sink += seqRead2(s.a, s.b) },
		func() { seqRW1(s.a) },
		func() { seqRW2(s.b, s.a) },
	}
	keep := s.warm
	s.warm = true
	for v, run := range runs {
		t0 := time.Now()
		run()
		if keep {
			s.seq[v] = append(s.seq[v], time.Since(t0).Seconds())
		}
	}
	t0 := time.Now()
	sink += randomRead(s.buf, s.accesses, s.seed)
	s.seed++
	if keep {
		s.rnd = append(s.rnd, time.Since(t0).Seconds()/float64(s.accesses))
	}
}

// results summarizes the samples as sequentialOn and randomOn do.
func (s *memSampler) results() (SeqResult, Stat) {
	n := float64(len(s.a) * 8)
	return SeqResult{
		Read1: Summarize(rates(s.seq[0], n)),
		Read2: Summarize(rates(s.seq[1], 2*n)),
		RW1:   Summarize(rates(s.seq[2], 2*n)),
		RW2:   Summarize(rates(s.seq[3], 3*n)),
	}, Summarize(s.rnd)
}
