package kernels

import (
	"context"
	"errors"
	"fmt"
	"math/bits"

	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/sim"
)

// Kernel is one instrumented algorithm.
type Kernel struct {
	ID   string
	Name string
	// Data says what the kernel runs on.
	Data string
	run  func(e *env) error
	// estimate is the expected number of accesses, for progress bars.
	estimate func(p mbram.Params, mu2, wordsPerLine int64) int64
}

var kernels = []Kernel{
	{ID: "perm", Name: "Permutation product (traditional)", Data: "two random permutations of n points", run: runPerm,
		estimate: func(p mbram.Params, _, _ int64) int64 { return 3 * p.N }},
	{ID: "perm-twopass", Name: "Permutation product (two-pass)", Data: "two random permutations of n points", run: runPermTwoPass,
		estimate: func(p mbram.Params, _, _ int64) int64 { return 12 * p.N }},
	{ID: "matmul", Name: "Matrix product (row-major)", Data: "two n×n matrices of uniform integers below 1024", run: runMatmul,
		estimate: func(p mbram.Params, _, _ int64) int64 { return 2*p.N*p.N*p.N + p.N*p.N }},
	{ID: "quicksort", Name: "Quicksort", Data: "n uniform integers below n", run: runQuicksort,
		estimate: func(p mbram.Params, _, _ int64) int64 { return 2 * p.N * int64(bits.Len64(uint64(p.N))) }},
	{ID: "mergesort", Name: "Mergesort", Data: "n uniform integers below n", run: runMergesort,
		estimate: func(p mbram.Params, _, _ int64) int64 { return 2 * p.N * int64(bits.Len64(uint64(p.N))) }},
	{ID: "heapsort", Name: "Heapsort", Data: "n uniform integers below n", run: runHeapsort,
		estimate: func(p mbram.Params, _, _ int64) int64 { return 3 * p.N * int64(bits.Len64(uint64(p.N))) }},
	{ID: "bucket", Name: "Bucket sort (simple)", Data: "n uniform integers below n", run: runBucket,
		estimate: func(p mbram.Params, _, _ int64) int64 { return 2 * p.N * (digits(p.N, p.Buckets) + 1) }},
	{ID: "bucket-count", Name: "Bucket sort (distribution count)", Data: "n uniform integers below n", run: runBucketCount,
		estimate: func(p mbram.Params, _, _ int64) int64 { return 8 * p.N * digits(p.N, p.Buckets) }},
	{ID: "radix", Name: "Radix sort (simple)", Data: "n uniform integers below n", run: runRadix,
		estimate: func(p mbram.Params, _, _ int64) int64 { return 2 * p.N * (digits(p.N, p.Buckets) + 1) }},
	{ID: "radix-count", Name: "Radix sort (distribution count)", Data: "n uniform integers below n", run: runRadixCount,
		estimate: func(p mbram.Params, _, _ int64) int64 { return 7 * p.N * digits(p.N, p.Buckets) }},
}

// Family is the kernel's family, as engine/mbram describes the kernel.
func (k Kernel) Family() mbram.Family {
	m, _ := mbram.Lookup(k.ID)
	return m.Family
}

// Kernels lists the instrumented kernels, in the order of mbram.Kernels.
func Kernels() []Kernel { return append([]Kernel(nil), kernels...) }

// Lookup finds a kernel by id.
func Lookup(id string) (Kernel, bool) {
	for _, k := range kernels {
		if k.ID == id {
			return k, true
		}
	}
	return Kernel{}, false
}

// Limits on a simulated workload. The data really exist in memory (a sort
// of 2^26 four-byte keys needs about 1 GiB with its buckets), and a matrix
// product of dimension n makes 2n³ accesses (2^37 at n = 4096, some
// fifteen minutes).
const (
	MaxElements = 1 << 26
	MaxMatrix   = 4096
	MaxBuckets  = 1 << 16
)

// Check validates a workload for a kernel on a simulator with the given
// line size.
func Check(id string, p mbram.Params, line int64) error {
	k, ok := mbram.Lookup(id)
	if _, ok2 := Lookup(id); !ok || !ok2 {
		return mbram.ErrUnknownKernel(id)
	}
	if err := k.Check(p); err != nil {
		return err
	}
	if k.NIsDimension() && p.N > MaxMatrix {
		return &mbram.ParamError{Field: "n", Msg: fmt.Sprintf("the simulator runs matrices up to %d×%d; got %d", MaxMatrix, MaxMatrix, p.N)}
	}
	if !k.NIsDimension() && p.N > MaxElements {
		return &mbram.ParamError{Field: "n", Msg: fmt.Sprintf("the simulator runs up to %d elements (2^26); got %d", MaxElements, p.N)}
	}
	// Whole words inside one line keep every word access a single line
	// access, the way a compiler aligns them.
	if p.W&(p.W-1) != 0 || p.W > line {
		return &mbram.ParamError{Field: "w", Msg: fmt.Sprintf("the simulator needs a word size that is a power of two no larger than the line (%d B); got %d", line, p.W)}
	}
	if p.Buckets > MaxBuckets {
		return &mbram.ParamError{Field: "b", Msg: fmt.Sprintf("the simulator runs up to %d buckets; got %d", MaxBuckets, p.Buckets)}
	}
	return nil
}

// SliceFor is an Options.Slice for a run of kernel id on workload p that
// reports at least every most accesses and cuts a short run into some tens
// of slices, so that a cost series of it has points to draw: n/16 accesses
// for the kernels on n elements, which make a few n accesses per pass, and
// the same share of a matrix product's 2n³ accesses (as though it had
// 2n³/3 elements); never fewer than 1Ki.
func SliceFor(id string, p mbram.Params, most int64) int64 {
	n := p.N
	if k, _ := mbram.Lookup(id); k.NIsDimension() {
		n = 2 * n * n * n / 3
	}
	return min(max(n/16, 1<<10), most)
}

// Options control a run.
type Options struct {
	// Seed selects the data; the same seed gives the same data, the same
	// accesses and the same counts.
	Seed uint64
	// Slice is the number of accesses between calls of Progress and checks
	// of the context (default 1<<20, a few milliseconds).
	Slice int64
	// Progress, if set, is called after every slice with the accesses so
	// far and an estimate of the total (done may exceed it). It runs on the
	// simulating goroutine: a browser may block in it to yield, and may read
	// s.Counts() for a cost series.
	Progress func(s *sim.Sim, done, total int64)
	// Tracer, if set, receives every access too, in the same order
	// (engine/hier's simulator, for a machine that gives its cache
	// levels). Heapsort's reads of a node's children are dependent: each
	// address follows from the comparison before it.
	Tracer Tracer
}

// ErrWrongResult means an instrumented kernel did not compute what it
// should; it would be a bug.
var ErrWrongResult = errors.New("kernel produced a wrong result")

// Run executes kernel id on generated data through s, then calls
// s.Finish. The result is s.Result(). A cancelled context stops the run
// at the next slice with ctx.Err().
func Run(ctx context.Context, s *sim.Sim, id string, p mbram.Params, o Options) (err error) {
	k, ok := Lookup(id)
	if !ok {
		return mbram.ErrUnknownKernel(id)
	}
	if err := Check(id, p, s.LineSize()); err != nil {
		return err
	}
	c := s.Config()
	total := k.estimate(p, c.Lines, c.Line/p.W)
	slice := o.Slice
	if slice <= 0 {
		slice = 1 << 20
	}
	s.OnSlice(slice, func(s *sim.Sim) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if o.Progress != nil {
			o.Progress(s, s.Counts().Accesses, total)
		}
		return nil
	})
	defer s.OnSlice(0, nil)
	defer func() {
		if r := recover(); r != nil {
			stop, ok := r.(*sim.Stop)
			if !ok {
				panic(r)
			}
			err = stop.Err
		}
	}()
	if err := ctx.Err(); err != nil {
		return err
	}
	e := newEnv(s, p, o.Seed)
	e.s.t = o.Tracer
	if err := k.run(e); err != nil {
		return err
	}
	s.Finish()
	return nil
}

// Simulate runs a kernel on a machine with a fresh simulator.
func Simulate(ctx context.Context, m machine.Machine, pred sim.Predictor, id string, p mbram.Params, o Options) (sim.Result, error) {
	if err := m.Validate(); err != nil {
		return sim.Result{}, err
	}
	s, err := sim.New(sim.ConfigFor(m, pred))
	if err != nil {
		return sim.Result{}, err
	}
	if err := Run(ctx, s, id, p, o); err != nil {
		return sim.Result{}, err
	}
	return s.Result(), nil
}

// env lays the kernel's arrays out in a virtual address space, one after
// another, each aligned to a line and to 4 KiB, starting at 1 MiB.
type env struct {
	s    *mem
	p    mbram.Params
	n    int
	wlog uint
	next uint64
	rng  *splitMix
}

func newEnv(s *sim.Sim, p mbram.Params, seed uint64) *env {
	return &env{s: &mem{Sim: s}, p: p, n: int(p.N), wlog: uint(bits.TrailingZeros64(uint64(p.W))), next: 1 << 20,
		rng: newSplitMix(seed)}
}

// alloc reserves n words and returns the address of the first.
func (e *env) alloc(n int) uint64 {
	align := uint64(4096)
	if l := uint64(e.s.LineSize()); l > align {
		align = l
	}
	base := (e.next + align - 1) &^ (align - 1)
	e.next = base + uint64(n)<<e.wlog
	return base
}

func (e *env) permutation(n int) []uint32 { return permutation(e.rng, n) }

// permutation is a uniformly random permutation of 0..n-1: Fisher–Yates
// for small n; for large n, the values scattered into shuffleBuckets
// buckets at random and each bucket shuffled (Sanders, "Random
// permutations on distributed, external and hierarchical memory", 1998).
// Both give every permutation the same chance; the second keeps each
// swap inside a bucket the host's cache holds, where Fisher–Yates over a
// large array misses the cache on every swap (it took as long as
// simulating the permutation product at N = 2^22).
func permutation(rng *splitMix, n int) []uint32 {
	a := make([]uint32, n)
	if n < bucketShuffleMin {
		for i := range a {
			a[i] = uint32(i)
		}
		shuffle(rng, a)
		return a
	}
	bucketPermutation(rng, a, shuffleBuckets)
	return a
}

const (
	bucketShuffleMin = 1 << 16
	shuffleBuckets   = 256
)

// shuffle is Fisher–Yates.
func shuffle(rng *splitMix, a []uint32) {
	for i := len(a) - 1; i > 0; i-- {
		j := rng.Uint32N(uint32(i + 1))
		a[i], a[j] = a[j], a[i]
	}
}

// bucketPermutation fills a with a uniformly random permutation of
// 0..len(a)-1: each value goes to one of k buckets (k ≤ 256) uniformly at
// random, the buckets are laid out in order and each is shuffled. A given
// permutation arises from exactly one assignment for each vector of bucket
// sizes, with probability k^−n · ∏ 1/size!, the same for every
// permutation.
func bucketPermutation(rng *splitMix, a []uint32, k int) {
	ids := make([]uint8, len(a))
	count := make([]int, k)
	for i := range ids {
		b := uint8(rng.Uint32N(uint32(k)))
		ids[i] = b
		count[b]++
	}
	next := make([]int, k)
	for b, sum := 0, 0; b < k; b++ {
		next[b] = sum
		sum += count[b]
	}
	start := append([]int(nil), next...)
	for i, b := range ids {
		a[next[b]] = uint32(i)
		next[b]++
	}
	for b := range k {
		shuffle(rng, a[start[b]:start[b]+count[b]])
	}
}

// uniform is n integers drawn uniformly from 0..max-1 (the MBRAM paper Fig. 5:
// "input data uniformly distributed between 0 and N").
func (e *env) uniform(n int, max uint32) []uint32 { return uniform(e.rng, n, max) }

func uniform(rng *splitMix, n int, max uint32) []uint32 {
	a := make([]uint32, n)
	for i := range a {
		a[i] = rng.Uint32N(max)
	}
	return a
}

// digits is the number of base-b digits of n−1, the largest key: the
// passes of the bucket and radix sorts (⌈log_b N⌉ for the paper's N).
func digits(n, b int64) int64 {
	if b < 2 {
		return 1
	}
	d := int64(1)
	for v := uint64(n-1) / uint64(b); v > 0; v /= uint64(b) {
		d++
	}
	return d
}
