package kernels

// Permutation products of the MBRAM paper section III: Z = Y∘X for random
// permutations X and Y, that is Z[i] = Y[X[i]].

import "memwall/engine/sim"

// runPerm is the traditional loop of Fig. 1:
//
//	for (i=0; i<N; i++) Z[i]=Y[X[i]];
func runPerm(e *env) error {
	n := e.n
	x, y := e.permutation(n), e.permutation(n)
	z := make([]uint32, n)
	xb, yb, zb := e.alloc(n), e.alloc(n), e.alloc(n)
	permLoop(e, x, y, z, xb, yb, zb)
	for i := range z {
		if z[i] != y[x[i]] {
			return ErrWrongResult
		}
	}
	return nil
}

// permLoop is the hot loop. It computes a batch of Z natively, then feeds
// the simulator the batch's accesses in program order through one Batch
// call: the simulator sees only addresses, so the order of the real loads
// does not matter to it, and the batch lets the host overlap its own cache
// misses on Y instead of stalling once per element, and saves a call per
// simulated access.
func permLoop(e *env, x, y, z []uint32, xb, yb, zb uint64) {
	s, w := e.s, e.wlog&63
	const batch = 256
	var ops [3 * batch]uint64
	for lo := 0; lo < len(z); lo += batch {
		hi := min(lo+batch, len(z))
		xs, zs := x[lo:hi], z[lo:hi]
		for i, xi := range xs {
			zs[i] = y[xi]
		}
		// Bit 0 of a Batch address carries the write flag: it is
		// cleared for reads (only one-byte words have it set), which
		// never changes the line.
		o := ops[:3*len(xs)]
		for i, xi := range xs {
			a := uint64(lo+i) << w
			o[3*i] = (xb + a) &^ sim.WriteBit
			o[3*i+1] = (yb + uint64(xi)<<w) &^ sim.WriteBit
			o[3*i+2] = zb + a | sim.WriteBit
		}
		s.Batch(o)
	}
}

// runPermTwoPass is the two-pass algorithm of the MBRAM paper III.B, line by
// line as printed: BLOCK_LENGTH = C/2/w, NUMBER_OF_BLOCKS blocks of D (the
// last one short when N is not a multiple), D_ptr an array of one word per
// block (the paper's 32-bit pointers, here w bytes).
func runPermTwoPass(e *env) error {
	s, w, n := e.s, e.wlog, e.n
	c := s.Config()
	blockLen := int(c.Line * c.Lines / 2 / e.p.W)
	if blockLen < 1 {
		blockLen = 1
	}
	blocks := (n + blockLen - 1) / blockLen
	x, y := e.permutation(n), e.permutation(n)
	z, d := make([]uint32, n), make([]uint32, n)
	ptr := make([]int, blocks)
	xb, yb, zb, db, pb := e.alloc(n), e.alloc(n), e.alloc(n), e.alloc(n), e.alloc(blocks)

	// Phase I: distribute X[i] into the block given by D_ptr[X[i]/BL].
	s.Phase("phase I: distribute X into blocks of D")
	for b := range ptr {
		s.Write(pb + uint64(b)<<w)
		ptr[b] = b * blockLen
	}
	for i := 0; i < n; i++ {
		s.Read(xb + uint64(i)<<w)
		xi := x[i]
		b := int(xi) / blockLen
		s.Read(pb + uint64(b)<<w)
		p := ptr[b]
		s.Write(db + uint64(p)<<w)
		d[p] = xi
		s.Write(pb + uint64(b)<<w)
		ptr[b] = p + 1
	}
	// Phase II: D[i] = Y[D[i]], block by block in cache.
	s.Phase("phase II: permute each block in cache")
	for i := 0; i < n; i++ {
		s.Read(db + uint64(i)<<w)
		di := d[i]
		s.Read(yb + uint64(di)<<w)
		s.Write(db + uint64(i)<<w)
		d[i] = y[di]
	}
	// Phase III: Z[i] = *D_ptr[X[i]/BL]++.
	s.Phase("phase III: merge the blocks into Z")
	for b := range ptr {
		s.Write(pb + uint64(b)<<w)
		ptr[b] = b * blockLen
	}
	for i := 0; i < n; i++ {
		s.Read(xb + uint64(i)<<w)
		b := int(x[i]) / blockLen
		s.Read(pb + uint64(b)<<w)
		p := ptr[b]
		s.Read(db + uint64(p)<<w)
		s.Write(zb + uint64(i)<<w)
		z[i] = d[p]
		s.Write(pb + uint64(b)<<w)
		ptr[b] = p + 1
	}
	for i := range z {
		if z[i] != y[x[i]] {
			return ErrWrongResult
		}
	}
	return nil
}
