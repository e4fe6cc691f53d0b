package measure

import (
	"context"
	"math/rand/v2"
	"sort"
	"time"
)

// Branch-misprediction method: the same loop runs over two arrays holding the
// same bytes, uniformly random in one and sorted in the other, and takes the
// branch "v < 128" (half the time in both). Sorted, the branch is taken for
// the first half and not for the second, which any predictor learns;
// random, it is mispredicted half the time (the MBRAM paper, rule 3: pi = 1/2). The
// instructions executed are identical, so
//
//	m = 2 · (t_random − t_sorted) / n.
//
// The taken side stores to memory and bumps an index. A branch whose sides
// only choose between two values would be turned into a conditional move by
// the compiler, and a conditional move never mispredicts; a store cannot be
// made conditional that way (checked in the assembly of branchLoop:
// a JCC/JLS around the MOVB store, no CMOV; and the measured difference is
// tens of cycles, which a CMOV loop would not show). The array has 1 MiB
// entries: larger than any history a predictor could memorise across
// repetitions, and it streams from L2 or the prefetched L3.

const branchLen = 1 << 20

//go:noinline
func branchLoop(data, out []byte) int {
	k := 0
	out = out[:len(data)]
	for _, v := range data {
		if v < 128 {
			out[k] = v
			k++
		}
	}
	return k
}

// Mispredict measures the branch-misprediction penalty in seconds and the
// per-iteration times of both loops.
func Mispredict(ctx context.Context, reps int) (m Stat, random, sorted Stat, err error) {
	b := newBranchSampler()
	for r := 0; r <= reps; r++ {
		if err := ctx.Err(); err != nil {
			return Stat{}, Stat{}, Stat{}, err
		}
		b.sample()
	}
	m, random, sorted = b.results()
	return m, random, sorted, nil
}

// branchSampler runs the two loops one round at a time (Calibrate takes
// its rounds between those of its curves, memSampler says why).
type branchSampler struct {
	rnd, srt, out []byte
	warm          bool
	ms, rs, ss    []float64 // penalty, and seconds per iteration of either loop
}

func newBranchSampler() *branchSampler {
	rng := rand.New(rand.NewPCG(3, 4))
	rnd := make([]byte, branchLen)
	for i := range rnd {
		rnd[i] = byte(rng.UintN(256))
	}
	srt := append([]byte(nil), rnd...)
	sort.Slice(srt, func(i, j int) bool { return srt[i] < srt[j] })
	return &branchSampler{rnd: rnd, srt: srt, out: make([]byte, branchLen)}
}

// sample times the two loops back to back, so that noise hits both alike,
// and keeps their difference. Each timed run follows an untimed one that
// brings its array back into the caches after whatever ran between
// samples; the first round is a warm-up and is not kept.
func (b *branchSampler) sample() {
	timed := func(data []byte) float64 {
		sink += uint64(branchLoop(data, b.out))
		t0 := time.Now()
		sink += uint64(branchLoop(data, b.out))
		return time.Since(t0).Seconds() / branchLen
	}
	tr := timed(b.rnd)
	ts := timed(b.srt)
	if !b.warm {
		b.warm = true
		return
	}
	b.rs = append(b.rs, tr)
	b.ss = append(b.ss, ts)
	b.ms = append(b.ms, 2*(tr-ts))
}

func (b *branchSampler) results() (m, random, sorted Stat) {
	return Summarize(b.ms), Summarize(b.rs), Summarize(b.ss)
}
