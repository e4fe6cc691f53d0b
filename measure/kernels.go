package measure

// Real kernels of the MBRAM paper, in plain Go with 4-byte words (w = 4, the
// paper's int): no instrumentation, no tricks beyond what an ordinary
// careful implementation does, so that their running times can be set
// against the MBRAM predictions (memwall validate).

// PermTraditional computes z[i] = y[x[i]] (the MBRAM paper, section III).
//
// It is kept out of line (go:noinline; the same for MatMul and Mergesort):
// inlined into a caller's closure, whose captured slices take the
// registers, the matrix product kept its running sum on the stack, a
// store and a reload each step, and ran at 1.55 ns a step instead of 0.59
// (n = 347, Intel Xeon KVM guest); a kernel's speed must not depend on
// where it is called from.
//
//go:noinline
func PermTraditional(z, y, x []uint32) {
	z = z[:len(x)]
	for i, xi := range x {
		z[i] = y[xi]
	}
}

// TwoPassBlockLength is the MBRAM paper's BLOCK_LENGTH = CACHE_SIZE/2/sizeof(int)
// for a cache of c bytes and 4-byte words, at least 1.
func TwoPassBlockLength(c int64) int {
	if l := c / 2 / 4; l >= 1 {
		return int(l)
	}
	return 1
}

// PermTwoPass computes z[i] = y[x[i]] by the paper's two-pass algorithm
// (section III.B): phase I distributes the values of x into blocks of d by
// which block of y they point into; phase II replaces each d[i] by y[d[i]],
// one cache-sized segment of y at a time; phase III reads the blocks back in
// the order of x. d must have len(x) entries and ptr at least
// ceil(len(y)/blockLen) entries (the paper's D and D_ptr).
func PermTwoPass(z, y, x, d []uint32, ptr []int, blockLen int) {
	n := len(x)
	z, d = z[:n], d[:n]
	nb := (len(y) + blockLen - 1) / blockLen
	ptr = ptr[:nb]
	// Phase I. The paper sizes every block BLOCK_LENGTH and lets it start at
	// block_num·BLOCK_LENGTH: a block holds exactly the x values pointing
	// into the matching segment of y, which for a permutation is
	// BLOCK_LENGTH of them.
	for b := range ptr {
		ptr[b] = b * blockLen
	}
	for _, v := range x {
		b := int(v) / blockLen
		d[ptr[b]] = v
		ptr[b]++
	}
	// Phase II.
	for i, v := range d {
		d[i] = y[v]
	}
	// Phase III.
	for b := range ptr {
		ptr[b] = b * blockLen
	}
	for i, v := range x {
		b := int(v) / blockLen
		z[i] = d[ptr[b]]
		ptr[b]++
	}
}

// MatMul computes c = p·q for n×n row-major matrices with the plain
// triple loop of the MBRAM paper section IV (the inner loop walks a row of p and a
// column of q). Arithmetic wraps modulo 2^32, as C's unsigned int does.
// Kept out of line: PermTraditional says why.
//
//go:noinline
func MatMul(c, p, q []uint32, n int) {
	for i := 0; i < n; i++ {
		row := p[i*n : i*n+n]
		for j := 0; j < n; j++ {
			var s uint32
			k := j
			for _, a := range row {
				s += a * q[k]
				k += n
			}
			c[i*n+j] = s
		}
	}
}
