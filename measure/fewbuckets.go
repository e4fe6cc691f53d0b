package measure

import (
	"context"
	"fmt"
	"math"

	"memwall/engine/machine"
	"memwall/engine/units"
)

// Few-bucket method: the distribution curve's three loops (CountDigits,
// ScatterDigits, PutDigits) timed into 2 to 32 buckets (fewBuckets) over
// fewKeys random 4-byte keys, both arrays in L2, in each round of the
// curve. Into few buckets a key's counter is often the one the key
// before bumped, and its load waits for that store to forward; the
// loops slow down by as much as twice (machine.FewPoint). Each loop is
// timed as the curve times it, over some four million keys a sample in
// groups (repTime), so that the few-bucket times and the curve's 64
// buckets compare.

// fewBuckets are the bucket counts the loops are timed into: the digits
// a radix sort into 64 buckets leaves over, 1 to 5 bits.
var fewBuckets = []int{2, 4, 8, 16, 32}

// fewKeys is the keys the loops move: 64 KiB of them, two arrays of it
// in the L2 of current cores and past their L1, as the passes of a sort
// in L2 or the last cache find their counters and buckets.
const fewKeys = 1 << 14

// FewPointStat is the three loops' seconds per line of keys into Buckets
// buckets (Put 0 where not timed).
type FewPointStat struct {
	Buckets int  `json:"buckets"`
	Count   Stat `json:"count"`
	Scatter Stat `json:"scatter"`
	Put     Stat `json:"put"`
}

// fewSample is one round's times, fewBuckets' order.
type fewSample struct{ count, scatter, put []float64 }

// add appends o's times to s's: a round timed a few bucket counts at a
// time.
func (s *fewSample) add(o fewSample) {
	s.count, s.scatter, s.put = append(s.count, o.count...), append(s.scatter, o.scatter...), append(s.put, o.put...)
}

// fewAt times the three loops into each of buckets' counts (fewBuckets,
// or some of them: the browser takes one a step) over the front of buf,
// in seconds per line of line bytes of keys, as distAt times them
// (loopsAt).
func fewAt(ctx context.Context, buf []uint64, line int64, seed uint64, groups int, buckets []int) (fewSample, error) {
	src, dst := keyArrays(buf, fewKeys*4, seed)
	n := len(src)
	if n < fewKeys {
		return fewSample{}, fmt.Errorf("few-bucket test: no room for %d keys in a buffer of %d words", fewKeys, len(buf))
	}
	var out fewSample
	for _, b := range buckets {
		if err := ctx.Err(); err != nil {
			return fewSample{}, err
		}
		count, put, scatter := loopsAt(src, dst, line, groups, b)
		out.count, out.scatter, out.put = append(out.count, count), append(out.scatter, scatter), append(out.put, put)
	}
	return out, nil
}

// fewPoints summarizes the rounds' samples by bucket count.
func fewPoints(rounds []fewSample) []FewPointStat {
	if len(rounds) == 0 {
		return nil
	}
	out := make([]FewPointStat, len(fewBuckets))
	for k, b := range fewBuckets {
		var c, s, p []float64
		for _, r := range rounds {
			if len(r.count) != len(fewBuckets) {
				continue // a round cut short
			}
			c, s, p = append(c, r.count[k]), append(s, r.scatter[k]), append(p, r.put[k])
		}
		out[k] = FewPointStat{Buckets: b, Count: Summarize(c), Scatter: Summarize(s), Put: Summarize(p)}
	}
	return out
}

// setFewBuckets gives m the few-bucket curve, each point its median
// round and none above a point with fewer buckets, with the spreads of the loops into the fewest buckets (the
// longest chains) standing for the curve's (machine.Scaled's
// few_buckets.X), and says in the notes how it was measured.
func setFewBuckets(m *machine.Machine, pts []FewPointStat) {
	var out []machine.FewPoint
	for _, p := range pts {
		if !(p.Count.Median > 0 && p.Scatter.Median > 0) {
			continue // a clock that saw nothing
		}
		out = append(out, machine.FewPoint{Buckets: p.Buckets, Count: round3g(p.Count.Median), Scatter: round3g(p.Scatter.Median), Put: round3g(p.Put.Median)})
	}
	if len(out) < 2 || len(machine.ValidateFewBuckets(out)) > 0 {
		return
	}
	// More buckets, shorter chains: a loop into b buckets is no slower
	// than into fewer, and a point above one with fewer buckets is a
	// neighbour's burst (m3 on the Zen 5 guest: the count into 32
	// buckets at 12.6 ns a line where 16 took 8.75, and the put into 16
	// at 24.7 where 8 took 18.7; the counting bucket sort's core rate,
	// read beside the curve at 2^11 keys whose last digit has 5 bits,
	// came out a third above the calibration's before). Each is lowered
	// to the least of the points with fewer buckets.
	for i := 1; i < len(out); i++ {
		p, q := &out[i], out[i-1]
		p.Count, p.Scatter = math.Min(p.Count, q.Count), math.Min(p.Scatter, q.Scatter)
		if q.Put > 0 {
			p.Put = math.Min(p.Put, q.Put)
		}
	}
	m.FewBuckets = out
	m.Spread["few_buckets.count"] = round3(pts[0].Count.Spread)
	m.Spread["few_buckets.scatter"] = round3(pts[0].Scatter.Spread)
	if out[0].Put > 0 {
		m.Spread["few_buckets.put"] = round3(pts[0].Put.Spread)
	}
	m.Notes["few_buckets_method"] = fmt.Sprintf("the distribution curve's count, scatter and put loops into 2 to 32 buckets over two arrays of %s of random 4-byte keys, in seconds per line of keys (a sample the fastest of 16 groups of its repetitions, natively); each bucket count's median round, none above a count of fewer buckets", units.FormatSize(fewKeys*4))
}
