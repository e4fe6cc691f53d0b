package measure

import "unsafe"

// Real kernels of the MBRAM paper, in plain Go with 4-byte words (w = 4, the
// paper's int): no instrumentation, no tricks beyond what an ordinary
// careful implementation does, so that their running times can be set
// against the MBRAM predictions (memwall validate). The exceptions are
// loops that go by address where a C compiler's do, so that a kernel runs
// as fast as a compiled program of the same algorithm: the matrix
// product's inner loop (MatMul says why), quicksort's scans, the merge
// sort's merge and the counting sorts' count and scatter.

// PermTraditional computes z[i] = y[x[i]] (the MBRAM paper, section III).
//
// It is kept out of line (go:noinline; the same for MatMul and Mergesort):
// inlined into a caller's closure, whose captured slices take the
// registers, the matrix product kept its running sum on the stack, a
// store and a reload each step, and ran at 1.55 ns a step instead of 0.59
// (n = 347, Intel Xeon KVM guest); a kernel's speed must not depend on
// where it is called from.
//
// Nor on where the linker puts it: its loop is unrolled eight times. The
// simple loop is 22 bytes, and its speed with the data in the first
// level followed whether those bytes lay within one 64-byte line of code
// or straddled two, which moved with whatever came before it in the
// binary: on an AMD Zen 4 guest its core rate read 1.71e10 operations a
// second with one build and 1.08e10 with the next, 0.35 against 0.57 ns
// an element. Unrolled four times, it took 0.343 to 0.375 ns an element
// there at five placements, 0 and 32 bytes into a line; on a Zen 5
// guest that body still read 2.56e10 with the function at a multiple of
// 64 bytes and 2.19e10 with it 32 bytes past one. Unrolled eight times
// it read 2.56e10 to 2.73e10 at both, in three runs of each, as the host
// moves one build from run to run (scripts/probes/placement.sh;
// docs/hierarchy.md, "Where the linker puts a kernel").
//
//go:noinline
func PermTraditional(z, y, x []uint32) {
	z = z[:len(x)]
	i := 0
	for ; i+8 <= len(x); i += 8 {
		x8, z8 := x[i:i+8:i+8], z[i:i+8:i+8]
		z8[0] = y[x8[0]]
		z8[1] = y[x8[1]]
		z8[2] = y[x8[2]]
		z8[3] = y[x8[3]]
		z8[4] = y[x8[4]]
		z8[5] = y[x8[5]]
		z8[6] = y[x8[6]]
		z8[7] = y[x8[7]]
	}
	for ; i < len(x); i++ {
		z[i] = y[x[i]]
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
//
// Each block's pointer is read once, into p, and written back as p + 1,
// as a C compiler makes of d[ptr[b]++] = v: written ptr[b]++ after the
// store, Go 1.26 read ptr[b] and then bumped it in memory (a second
// read-modify-write of the same word), and phase I at 2^28 keys took 2.2 s
// where this takes 0.95 and gcc's loop 0.92.
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
		p := ptr[b]
		d[p] = v
		ptr[b] = p + 1
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
		p := ptr[b]
		z[i] = d[p]
		ptr[b] = p + 1
	}
}

// MatMul computes c = p·q for n×n row-major matrices with the plain
// triple loop of the MBRAM paper section IV (the inner loop walks a row of p and a
// column of q). Arithmetic wraps modulo 2^32, as C's unsigned int does.
// Kept out of line: PermTraditional says why.
//
// The inner loop is a function of its own, dotColumn, that walks the
// column by address: the product is the one kernel whose time is mostly
// its loop's instructions while its data fit in L2, so the loop must be
// the one a C compiler makes of it. Written inline (with q[k] and k += n),
// Go 1.26 kept the running sum on the stack, a store and a reload each
// step, and checked k against q's length: 0.75 ns a step in L1 on the
// development machine, where gcc -O2's code of the C loop takes 0.36 and
// dotColumn 0.37 (0.36 to 0.44 for n = 28 to 96, the call's share falling
// as n grows).
//
//go:noinline
func MatMul(c, p, q []uint32, n int) {
	if n <= 0 {
		return
	}
	// One check for all the reads dotColumn makes, the last being
	// q[(n−1)·n + n−1].
	_, _, _ = p[n*n-1], q[n*n-1], c[n*n-1]
	stride := uintptr(n) * 4
	for i := 0; i < n; i++ {
		row := p[i*n : i*n+n : i*n+n]
		out := c[i*n : i*n+n : i*n+n]
		for j := range out {
			out[j] = dotColumn(row, unsafe.Pointer(&q[j]), stride)
		}
	}
}

// dotColumn is Σ_k row[k]·col_k, where col_k is the uint32 k·stride bytes
// after col: a column of a row-major matrix, read without a bounds check
// a step as C reads q[k*n+j]. The caller guarantees the last, at
// (len(row)−1)·stride, lies within the matrix.
//
//go:noinline
func dotColumn(row []uint32, col unsafe.Pointer, stride uintptr) uint32 {
	var s uint32
	var off uintptr
	for _, a := range row {
		s += a * *(*uint32)(unsafe.Add(col, off))
		off += stride
	}
	return s
}
