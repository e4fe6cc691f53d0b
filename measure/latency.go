package measure

import (
	"context"
	"fmt"
	"math"
	"math/bits"
)

// Latency method: a working set of S bytes holds one node every 64 bytes;
// the nodes form a single cycle in a random order, and the timed loop
// follows it, p = next[p], so each load waits for the one before (no
// overlap, no prefetch can guess the next address). The time per step is
// the latency of the level of the memory hierarchy that holds S bytes.
// Sizes run from a few KiB to several times the last cache; above a cache
// of C bytes a random step hits it with probability about C/S, so latency
// climbs from that cache's level to memory's over a few doublings of S
// (see DetectCache).
//
// The random order comes from a bijective mixing function on the next power
// of two (multiply by an odd constant, xor-shift, repeat: each step is
// invertible modulo 2^k), keeping the values below the node count. It needs
// no shuffle, so building the chain costs one pass of independent writes.
// All sizes share one buffer, allocated and faulted in once: in a virtual
// machine a page fault costs microseconds, and a fresh gigabyte would cost
// more than the measurement. Initialising the chain writes the whole set,
// which leaves the cache as full of it as it can be, so a short warm-up
// suffices.

// nodeStride is the spacing of nodes: one per 64 bytes, the smallest line
// of current CPUs, so consecutive steps never share a line when B >= 64.
const nodeStride = 64

const nodeWords = nodeStride / 8

// mixer is a bijection on [0, 2^k).
type mixer struct {
	k    uint
	mask uint64
	seed uint64
}

func newMixer(n int, seed uint64) mixer {
	k := uint(bits.Len(uint(n - 1)))
	if k < 1 {
		k = 1
	}
	return mixer{k: k, mask: 1<<k - 1, seed: seed}
}

func (m mixer) mix(x uint64) uint64 {
	x = (x + m.seed) & m.mask
	h := m.k / 2
	if h == 0 {
		h = 1
	}
	for r := 0; r < 3; r++ {
		x = (x * 0x9e3779b97f4a7c15) & m.mask
		x ^= x >> h
		x = (x * 0xbf58476d1ce4e5b9) & m.mask
		x ^= x >> (m.k - h/2)
	}
	return x
}

// buildChain writes into mem (at least nodes·nodeWords words) a single cycle
// over nodes nodes in random order, and returns the word index to start at.
//
// The order is random over the whole set, pages included. A page-grouped
// order (all lines of a page, shuffled, then the next page) would spare the
// TLB, but it was tried on the development machine and the L2 streaming
// prefetcher then hid memory's latency completely (a flat curve beyond
// L2), so no last cache could be seen. The price of the fully random order
// is that page walks add to the latency of large sets; see DetectCache.
func buildChain(mem []uint64, nodes int, seed uint64) uint64 {
	mx := newMixer(nodes, seed)
	first, last := uint64(math.MaxUint64), uint64(0)
	for i := uint64(0); i <= mx.mask; i++ {
		v := mx.mix(i)
		if v >= uint64(nodes) {
			continue // cycle-walking: keep the values below nodes
		}
		w := v * nodeWords
		if first == math.MaxUint64 {
			first = w
		} else {
			mem[last] = w
		}
		last = w
	}
	mem[last] = first
	return first
}

// chase follows the chain for steps steps.
func chase(mem []uint64, start uint64, steps int) uint64 {
	p := start
	for i := 0; i < steps; i++ {
		p = mem[p]
	}
	return p
}

// LatencyPoint is one point of the latency curve.
type LatencyPoint struct {
	Size    int64 `json:"size"` // working set in bytes
	Latency Stat  `json:"latency"`
}

// latencyAt measures the seconds per dependent load over the first size
// bytes of buf.
func latencyAt(ctx context.Context, buf []uint64, size int64, steps, reps int) (Stat, error) {
	nodes := int(size / nodeStride)
	if nodes < 2 {
		nodes = 2
	}
	// Each walk continues where the last one stopped: restarting would
	// walk the same prefix of the cycle, which stays in cache.
	p := buildChain(buf, nodes, uint64(size))
	p = chase(buf, p, min(nodes, steps))
	secs, err := repeat(ctx, reps, func() { p = chase(buf, p, steps) })
	sink += p
	if err != nil {
		return Stat{}, err
	}
	return Summarize(per(secs, float64(steps))), nil
}

// placed is the part of buf where round r of rounds puts a working set
// of size bytes, for the native curves (sampleRounds) and the browser's
// (Steps) alike: round r starts r/rounds of the way into buf (on a 4 KiB
// boundary, and early enough for the set to fit), so each round's set lies
// on other physical pages. A physically indexed cache holds a set of pages
// as well as their colours spread over its sets: at the L2's size the
// latency's knee moved by ±5 % from one placement to the next on the
// development machine (1.52 to 1.69 MiB over seven) and the third level's
// by ±15 %. One buffer gave each calibration one placement, so two
// calibrations in a row differed by that much; the curves keep each
// size's fastest round, which over several placements is the placement
// with the fewest conflicts (1.65 and 1.69 MiB from two sets of five).
func placed(buf []uint64, size int64, r, rounds int) []uint64 {
	words := int(min(size/8, int64(len(buf))))
	if rounds <= 1 || words >= len(buf) {
		return buf
	}
	start := r * (len(buf) / rounds) % (len(buf) - words + 1)
	return buf[start&^511:]
}

// sampleRounds measures every size once per round, rounds times, and
// returns each size's samples: a burst of load from other processes then
// spoils one sample of many sizes rather than every sample of one size.
// Each round places its sets elsewhere in buf (placed); at times one size
// of round r (index i) over its part of buf. name is the curve's, for
// step.
func sampleRounds(buf []uint64, sizes []int64, rounds int, name string, step func(string),
	at func(b []uint64, size int64, r, i int) (float64, error)) ([][]float64, error) {
	samples := make([][]float64, len(sizes))
	for r := 0; r < rounds; r++ {
		if step != nil {
			step(fmt.Sprintf("%s, round %d of %d", name, r+1, rounds))
		}
		for i, size := range sizes {
			t, err := at(placed(buf, size, r, rounds), size, r, i)
			if err != nil {
				return nil, err
			}
			samples[i] = append(samples[i], t)
		}
	}
	return samples, nil
}

// latencyCurve measures the seconds per dependent load at every size
// (sampleRounds).
func latencyCurve(ctx context.Context, buf []uint64, sizes []int64, steps, rounds int, step func(string)) ([]LatencyPoint, error) {
	samples, err := sampleRounds(buf, sizes, rounds, "latency curve", step, func(b []uint64, size int64, _, _ int) (float64, error) {
		st, err := latencyAt(ctx, b, size, steps, 1)
		return st.Median, err
	})
	if err != nil {
		return nil, err
	}
	out := make([]LatencyPoint, len(sizes))
	for i, s := range sizes {
		out[i] = LatencyPoint{Size: s, Latency: Summarize(samples[i])}
	}
	return out, nil
}

// latencySizes lists working-set sizes from lo to hi bytes, perOctave per
// doubling, rounded to whole nodes.
func latencySizes(lo, hi int64, perOctave int) []int64 {
	var out []int64
	for e := 0; ; e++ {
		s := float64(lo) * math.Pow(2, float64(e)/float64(perOctave))
		v := int64(s) / nodeStride * nodeStride
		if v > hi {
			break
		}
		if len(out) == 0 || v != out[len(out)-1] {
			out = append(out, v)
		}
	}
	return out
}
