package measure

import (
	"context"
	"math/rand/v2"
	"sort"
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
	rng := rand.New(rand.NewPCG(3, 4))
	rnd := make([]byte, branchLen)
	for i := range rnd {
		rnd[i] = byte(rng.UintN(256))
	}
	srt := append([]byte(nil), rnd...)
	sort.Slice(srt, func(i, j int) bool { return srt[i] < srt[j] })
	out := make([]byte, branchLen)
	// Interleave the two loops so that noise hits both alike, and take the
	// difference per round.
	var ms, rs, ss []float64
	for r := 0; r <= reps; r++ {
		a, err := repeat(ctx, 1, func() { sink += uint64(branchLoop(rnd, out)) })
		if err != nil {
			return Stat{}, Stat{}, Stat{}, err
		}
		b, err := repeat(ctx, 1, func() { sink += uint64(branchLoop(srt, out)) })
		if err != nil {
			return Stat{}, Stat{}, Stat{}, err
		}
		if r == 0 {
			continue
		}
		tr, ts := a[0]/branchLen, b[0]/branchLen
		rs = append(rs, tr)
		ss = append(ss, ts)
		ms = append(ms, 2*(tr-ts))
	}
	return Summarize(ms), Summarize(rs), Summarize(ss), nil
}
