package measure

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"memwall/engine/units"
)

// Runner is one reference kernel ready to time: Setup prepares the input
// of the next call (outside its time), Call runs the kernel, Check says
// whether the last call did its job (a sort left its keys in order).
// CoreRates and memwall validate time the same Runners, so a kernel's
// inputs are built in one place.
type Runner struct {
	Kernel string
	Params string // the workload in words, "N=1Mi, b=64"
	Setup  func()
	Call   func()
	Check  func() error
}

// RunOptions chooses a Runner's inputs.
type RunOptions struct {
	// N is the elements (or the matrix dimension for matmul).
	N int
	// C is the cache size the two-pass permutation product blocks for.
	C int64
	// Seed seeds the inputs.
	Seed uint64
	// FreshKeys gives a sort new random keys before every call instead of
	// a copy of the same keys: on the same few thousand keys again and
	// again a current branch predictor learns a small sort's comparisons.
	FreshKeys bool
	// Offset places a sort's keys that many 4-byte words past the start
	// of their allocation, and its second array (the work or merge
	// array) three times as far modulo a page: where arrays lie relative
	// to each other within a page decides whether a load waits for an
	// unrelated store ("4K aliasing"), and the core timers vary it.
	Offset int
}

// Buckets is the buckets per pass of the distribution sorts: 64, six bits
// of the key a pass (the MBRAM paper's Fig. 5).
const Buckets = 64

const radixBits = 6

// NewRunner builds kernel's inputs: random permutations of N points for
// the permutation products, two N×N matrices of 16-bit values for the
// matrix product, keys uniform on [0, N) for the sorts (the MBRAM paper,
// Fig. 5). The distribution sorts' bucket arrays are written once here:
// a first touch of fresh memory is a page fault, the operating system's
// cost and not the algorithm's (SortWork).
func NewRunner(kernel string, o RunOptions) (Runner, error) {
	n := o.N
	if n < 1 {
		return Runner{}, fmt.Errorf("%s: n = %d; want at least 1", kernel, n)
	}
	rng := rand.New(rand.NewPCG(o.Seed, uint64(n)))
	nop := func() {}
	ok := func() error { return nil }
	r := Runner{Kernel: kernel, Params: "N=" + units.FormatCount(int64(n)), Setup: nop, Check: ok}
	switch kernel {
	case "perm", "perm-twopass":
		x, y, z, d := permFrom(rng, n), permFrom(rng, n), make([]uint32, n), make([]uint32, n)
		if kernel == "perm" {
			r.Call = func() { PermTraditional(z, y, x) }
			return r, nil
		}
		bl := TwoPassBlockLength(o.C)
		ptr := make([]int, (n+bl-1)/bl)
		r.Params += ", block " + units.FormatCount(int64(min(bl, n)))
		r.Call = func() { PermTwoPass(z, y, x, d, ptr, bl) }
		return r, nil
	case "matmul":
		p, q, c := keysFrom(rng, n*n, 1<<16), keysFrom(rng, n*n, 1<<16), make([]uint32, n*n)
		r.Params = fmt.Sprintf("n=%d", n)
		r.Call = func() { MatMul(c, p, q, n) }
		return r, nil
	}
	in := keysFrom(rng, n, uint32(n))
	off := max(0, o.Offset) % pageWords
	a, tmp := placedWords(n, off), placedWords(n, 3*off%pageWords)
	kb := KeyBits(uint64(n))
	var work []uint32
	switch kernel {
	case "bucket", "bucket-count", "radix", "radix-count":
		work = placedWords(SortWork(n, radixBits), 3*off%pageWords)
		for i := range work {
			work[i] = uint32(i)
		}
		r.Params += fmt.Sprintf(", b=%d", Buckets)
	}
	if o.FreshKeys {
		r.Setup = func() {
			for i := range a {
				a[i] = rng.Uint32N(uint32(n))
			}
		}
	} else {
		r.Setup = func() { copy(a, in) }
	}
	r.Check = func() error {
		if !slices.IsSorted(a) {
			return fmt.Errorf("%s left its input unsorted", kernel)
		}
		return nil
	}
	switch kernel {
	case "quicksort":
		r.Call = func() { Quicksort(a) }
	case "mergesort":
		r.Call = func() { Mergesort(a, tmp) }
	case "heapsort":
		r.Call = func() { Heapsort(a) }
	case "bucket":
		r.Call = func() { BucketSortBelow(a, work, uint64(n), radixBits) }
	case "bucket-count":
		r.Call = func() { BucketSortCountIn(a, work, kb, radixBits) }
	case "radix":
		r.Call = func() { RadixSortBelow(a, work, uint64(n), radixBits) }
	case "radix-count":
		r.Call = func() { RadixSortCountIn(a, work, kb, radixBits) }
	default:
		return Runner{}, fmt.Errorf("no reference kernel %q; want one of %v", kernel, referenceKernels())
	}
	return r, nil
}

// referenceKernels is the kernels NewRunner runs: CoreKernels less the
// rates that time one of them at another shape.
func referenceKernels() []string {
	var ks []string
	for _, k := range CoreKernels {
		if runs(k) == k {
			ks = append(ks, k)
		}
	}
	return ks
}

// pageWords is the 4-byte words of a 4 KiB page.
const pageWords = 1024

// placedWords is n zero words that begin off words past the start of
// their allocation.
func placedWords(n, off int) []uint32 {
	return make([]uint32, n+off)[off:]
}

func permFrom(rng *rand.Rand, n int) []uint32 {
	p := make([]uint32, n)
	for i := range p {
		p[i] = uint32(i)
	}
	rng.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p
}

func keysFrom(rng *rand.Rand, n int, below uint32) []uint32 {
	a := make([]uint32, n)
	for i := range a {
		a[i] = rng.Uint32N(below)
	}
	return a
}
