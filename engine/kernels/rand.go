package kernels

// splitMix is SplitMix64 (Steele, Lea and Flood, "Fast splittable
// pseudorandom number generators", OOPSLA 2014), the generator of the
// kernels' data: per number one add, two 64-bit multiplies and three
// xor-shifts, fast natively and in WebAssembly, where math/rand/v2's PCG
// and its bounded draws need a 128-bit multiply that WebAssembly emulates
// (a third of a permutation-product run in the browser went to it).
type splitMix struct{ x uint64 }

func newSplitMix(seed uint64) *splitMix {
	// Any seed, 0 included, starts a full-period sequence; the constant
	// keeps seed 0 from giving the same first numbers as other users of
	// SplitMix64.
	return &splitMix{x: seed ^ 0x6d656d77616c6c}
}

func (r *splitMix) Uint64() uint64 {
	r.x += 0x9e3779b97f4a7c15
	z := r.x
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Uint32N is uniform in [0, n) for n > 0, by Lemire's multiply-and-shift
// with rejection ("Fast random integer generation in an interval", 2019):
// the 2^32 mod n low products that would favour some results are drawn
// again, so every result has the same chance.
func (r *splitMix) Uint32N(n uint32) uint32 {
	m := uint64(uint32(r.Uint64())) * uint64(n)
	if uint32(m) < n {
		t := -n % n // 2^32 mod n
		for uint32(m) < t {
			m = uint64(uint32(r.Uint64())) * uint64(n)
		}
	}
	return uint32(m >> 32)
}

// Data draws a run's inputs the way the built-in kernels draw theirs: the
// same seed and the same sequence of calls give the same numbers, so a
// program written in engine/lang that declares the same inputs in the same
// order runs on the same data as the kernel.
type Data struct{ r *splitMix }

// NewData starts the generator of a run with the given seed.
func NewData(seed uint64) *Data { return &Data{newSplitMix(seed)} }

// Permutation is a uniformly random permutation of 0..n-1 (the inputs of
// the permutation products).
func (d *Data) Permutation(n int) []uint32 { return permutation(d.r, n) }

// Uniform is n integers uniform in 0..max-1 (the sorts' keys, with
// max = n; the matrices' entries, with max = 1024). max must be positive.
func (d *Data) Uniform(n int, max uint32) []uint32 { return uniform(d.r, n, max) }

// Uint32N is one number uniform in 0..n-1, n > 0.
func (d *Data) Uint32N(n uint32) uint32 { return d.r.Uint32N(n) }

// Uint64 is one uniform 64-bit number.
func (d *Data) Uint64() uint64 { return d.r.Uint64() }
