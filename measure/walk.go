package measure

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"time"

	"memwall/engine/hier"
	"memwall/engine/machine"
	"memwall/engine/units"
)

// Walk method: heapsort's dependent lines are the walks down its heap,
// and how many of them a core has in flight depends on how far it runs
// ahead on its guesses of the coin-toss branch at each step (the lines a
// few levels down are the same whichever way the walk turns:
// hier's heapLinesAhead). The Intel development guest kept the four a
// line of 4-byte keys allows; the AMD Zen 4 guest ran heapsort past its
// last cache at 1.2 to 1.4 of that estimate in every calibration: it
// waits for the first line past the cache in full and keeps about four
// of the lines below it in flight (docs/hierarchy.md). A walk that does
// not wait for its first line in full (in most rounds) leaves the field
// unset, and its machine the form with log2(B/w) lines in flight.
//
// So calibration times the sort's own step, downheap, walking from the
// root to a leaf of a complete heap of 4-byte random keys: the root is
// replaced by a key smaller than any other, which sinks to the bottom
// along the larger children, one coin toss a step. A heap in the first
// level gives the step's time; one of at least eight times the last
// cache (as much as the buffer holds) the walk's, and
// hier.WalkInFlightOf turns the two into the lines in flight below the
// first line past each cache (which a walk waits for in full), through
// the levels' latencies and memory's latency over as many bytes, a chase
// timed in the same round as the walk: on the AMD guest two calibrations
// in a row had read 2.61 and 1.83 lines in flight (all of them shared)
// off memory's latency curve, as the host's memory slowed between the
// curve and the walk (384 and 453 ns a walk).

// walkSmallHeap is the keys of the first level's heap: a complete heap
// of half the level or 4095 keys, whichever is less.
func walkSmallHeap(l1 int64) int {
	k := bits.Len64(uint64(max(l1/8, 64))) - 1 // 2^k keys within half the level
	return 1<<min(k, 12) - 1
}

// walkLargeHeap is the keys of the large heap: the complete heap of
// 2^k − 1 keys with 4·2^k ≥ 8·c, or the largest that fits in keys.
func walkLargeHeap(c int64, keys int) int {
	k := bits.Len64(uint64(max(2*c-1, 1))) // 2^k ≥ 2c keys: 8c bytes
	for k > 1 && 1<<k-1 > keys {
		k--
	}
	return 1<<k - 1
}

// walkKey is the key that replaces the root: below every random key the
// heaps are filled with but a few in a million.
func walkKey(x *uint64) uint32 {
	*x ^= *x << 13
	*x ^= *x >> 7
	*x ^= *x << 17
	return uint32(*x >> 52)
}

// timeWalks walks down heap a, walks times, and returns the seconds a
// walk.
func timeWalks(a []uint32, walks int, x *uint64) float64 {
	t := time.Now()
	for range walks {
		a[0] = walkKey(x)
		downheap(a, 0, len(a))
	}
	return time.Since(t).Seconds() / float64(walks)
}

// buildHeap fills a with random keys from seed and makes it a max-heap.
func buildHeap(a []uint32, seed uint64) {
	fillKeys(a, seed)
	siftParents(a, 0, len(a)/2)
}

// siftParents sifts a's parents from hi−1 down to lo: the bottom-up
// build, or a part of it when the parts run from the last down.
func siftParents(a []uint32, lo, hi int) {
	for i := hi - 1; i >= lo; i-- {
		downheap(a, i, len(a))
	}
}

// startChase builds a random cycle over chain and goes round it once (up
// to walkChaseSteps reads), so that its lines are where a chase finds
// them; it returns where the next chase starts.
func startChase(chain []uint64) uint64 {
	nodes := len(chain) * 8 / nodeStride
	return chase(chain, buildChain(chain, nodes, 11), min(nodes, walkChaseSteps))
}

// WalkResult is the walk's measurement: the large heap's keys and steps
// a walk, its seconds a walk and the small heap's seconds a step, each
// over the rounds.
type WalkResult struct {
	Keys    int  `json:"keys"`
	Steps   int  `json:"steps"`
	PerWalk Stat `json:"per_walk"`
	PerStep Stat `json:"per_step"`
	// StepFromRate says PerStep is the model's step at heapsort's core
	// rate (hier.HeapStepSeconds), not timed: a page's clock does not
	// resolve a batch of walks in the first level.
	StepFromRate bool `json:"step_from_rate,omitempty"`
	// MemLatency is a dependent chase over as many bytes as the heap,
	// timed in each round beside the walk (empty when the buffer has no
	// room for it beside the heap).
	MemLatency Stat `json:"mem_latency"`
}

// walkRounds times the walks: rounds rounds of each heap, the small one
// rebuilt before every batch of walks so that they keep reaching its
// leaves, a round's step the median batch's.
func walkRounds(ctx context.Context, buf []uint64, l1, c int64, rounds int) (WalkResult, error) {
	w, err := newWalker(buf, l1, c)
	return takeRounds[WalkResult](ctx, rounds, w, err)
}

// walker is walkRounds a round at a time (rounder).
type walker struct {
	r                     WalkResult
	big                   []uint32
	tiny                  []uint32
	chain                 []uint64
	at, x                 uint64
	perWalk, perStep, lat []float64
}

func newWalker(buf []uint64, l1, c int64) (*walker, error) {
	keys := asKeys(buf)
	n := walkLargeHeap(c, len(keys))
	small := walkSmallHeap(l1)
	if n <= small {
		return nil, fmt.Errorf("heap walk: no room for a heap past the cache in a buffer of %d keys", len(keys))
	}
	w := &walker{r: WalkResult{Keys: n, Steps: bits.Len(uint(n)) - 1}, x: 0x9E3779B97F4A7C15, big: keys[:n], tiny: make([]uint32, small)}
	buildHeap(w.big, 7)
	// The chase: a random cycle over as many bytes as the heap, at the
	// buffer's other end. Memory's latency moves with the host's other
	// work; timed in the same round as the walk, it moves with it.
	if span := n * 4 / 8; int64(n)*4+int64(span)*8 <= int64(len(buf))*8 {
		w.chain = buf[len(buf)-span:]
		w.at = startChase(w.chain)
	}
	return w, nil
}

func (w *walker) round(int) {
	pw, st, l := walkRound(w.big, w.tiny, w.chain, walkWalks, &w.at, &w.x)
	w.perWalk, w.perStep = append(w.perWalk, pw), append(w.perStep, st)
	if w.chain != nil {
		w.lat = append(w.lat, l)
	}
}

func (w *walker) result() WalkResult {
	sink += w.at
	r := w.r
	r.PerWalk, r.PerStep, r.MemLatency = Summarize(w.perWalk), Summarize(w.perStep), Summarize(w.lat)
	return r
}

// walkRoundsPer is the walk's rounds for each round of the curves: a
// walk's lines in flight move by 13 to 20 % from round to round on the
// AMD guest (the neighbours' memory traffic), and two calibrations of
// seven rounds each read 3.86 and 5.61; each round takes some 0.15 s.
const walkRoundsPer = 3

// walkWalks is a round's walks down the large heap, a few tenths of a
// second past the cache; walkChaseSteps a round's steps of the chase.
const (
	walkWalks      = 1 << 17
	walkChaseSteps = 1 << 18
)

// walkRound is one round: walks walks down big (after a sixteenth as many
// untimed, which bring its top back into the caches), the chase over
// chain from *at when there is one, and the first level's step off 64
// freshly built heaps of small's size when small is given. It returns the
// seconds a walk, a step (0 without small) and a chased read (0 without a
// chain).
func walkRound(big, small []uint32, chain []uint64, walks int, at, x *uint64) (perWalk, perStep, lat float64) {
	timeWalks(big, walks/16, x)
	perWalk = timeWalks(big, walks, x)
	if chain != nil {
		t := time.Now()
		*at = chase(chain, *at, walkChaseSteps)
		lat = time.Since(t).Seconds() / walkChaseSteps
	}
	if small == nil {
		return perWalk, 0, lat
	}
	// The median batch: a few heaps' walks take the branch's way often
	// enough for the predictor to learn it, and ran at 1.6 to 2 ns a
	// step where the others took 4.9 on the AMD guest.
	batches := make([]float64, 64)
	for b := range batches {
		buildHeap(small, uint64(b+1))
		batches[b] = timeWalks(small, len(small)/16, x)
	}
	return perWalk, Summarize(batches).Median / float64(bits.Len(uint(len(small)))-1), lat
}

// setWalkInFlight sets m's WalkInFlight from the walk, each round's walk
// against the median step and that round's chase, and records its spread
// and a note. A walk that did not wait in full for its first lines past
// the caches in most rounds (hier.WalkInFlightOf gives none) leaves m as
// it is, and its heapsort keeps the form without a measured walk, every
// line log2(B/w) at a time: setWalkInFlight returns why, "" when it set
// the field.
func setWalkInFlight(m *machine.Machine, r WalkResult) string {
	step := r.PerStep.Median
	var ks []float64
	for i, t := range r.PerWalk.Samples {
		lat := 0.0 // the machine's curve
		if i < len(r.MemLatency.Samples) {
			lat = r.MemLatency.Samples[i]
		}
		if k, ok := hier.WalkInFlightOf(*m, float64(r.Keys), float64(r.Steps), t, step, lat); ok {
			ks = append(ks, math.Min(k, machine.MaxWalkInFlight))
		}
	}
	if 2*len(ks) <= len(r.PerWalk.Samples) {
		return fmt.Sprintf("heap walk: %s a walk down a heap of %s, against %s a step: in %d of %d rounds the walk did not wait in full for its first line past each cache; walk_in_flight not set, and heapsort's walks keep log2(B/w) lines in flight",
			units.FormatSeconds(r.PerWalk.Median), units.FormatSize(int64(r.Keys)*4), units.FormatSeconds(step), len(r.PerWalk.Samples)-len(ks), len(r.PerWalk.Samples))
	}
	st := Summarize(ks)
	m.WalkInFlight = round3g(math.Max(1, st.Median))
	m.Spread["walk_in_flight"] = round3(st.Spread)
	stepFrom := "a step in the first level"
	if r.StepFromRate {
		stepFrom = "a step at heapsort's core rate"
	}
	chase := "memory's latency curve"
	if len(r.MemLatency.Samples) > 0 {
		chase = "a chase over as many bytes beside it, " + units.FormatSeconds(r.MemLatency.Median)
	}
	m.Notes["walk_in_flight"] = fmt.Sprintf("a walk down a heap of %d keys (%s) from the root to a leaf, %d steps: %s a walk, against %s %s and %s; the first line past each cache waited for in full, %.3g in flight below it",
		r.Keys, units.FormatSize(int64(r.Keys)*4), r.Steps, units.FormatSeconds(r.PerWalk.Median), units.FormatSeconds(step), stepFrom, chase, m.WalkInFlight)
	return ""
}
