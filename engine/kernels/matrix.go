package kernels

// runMatmul is the straightforward row-major product of the MBRAM paper section
// IV, C = P·Q for n×n matrices:
//
//	for i, for j: sum = 0; for k: sum += P[i][k]·Q[k][j]; C[i][j] = sum
//
// The sum stays in a register; P is read along a row, Q down a column
// (one line per element when wn > B), C written once per element.
func runMatmul(e *env) error {
	n := e.n
	p := e.newArray(e.uniform(n*n, 1024))
	q := e.newArray(e.uniform(n*n, 1024))
	c := e.newArray(make([]uint32, n*n))
	s, w := e.s, e.wlog
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			var sum uint32
			for k := 0; k < n; k++ {
				s.Read(p.base + uint64(i*n+k)<<w)
				s.Read(q.base + uint64(k*n+j)<<w)
				sum += p.v[i*n+k] * q.v[k*n+j]
			}
			e.write(c, i*n+j, sum)
		}
	}
	return e.checkProduct(p.v, q.v, c.v, n)
}

// checkProduct is Freivalds' check: C·r = P·(Q·r) for a random vector r,
// in O(n²) and exact in uint32 arithmetic (a wrong C passes with
// probability at most 1/2 per vector; three vectors).
func (e *env) checkProduct(p, q, c []uint32, n int) error {
	for range 3 {
		r := e.uniform(n, 1<<31)
		qr, pqr, cr := make([]uint32, n), make([]uint32, n), make([]uint32, n)
		for i := 0; i < n; i++ {
			for k := 0; k < n; k++ {
				qr[i] += q[i*n+k] * r[k]
				cr[i] += c[i*n+k] * r[k]
			}
		}
		for i := 0; i < n; i++ {
			for k := 0; k < n; k++ {
				pqr[i] += p[i*n+k] * qr[k]
			}
		}
		for i := range cr {
			if cr[i] != pqr[i] {
				return ErrWrongResult
			}
		}
	}
	return nil
}
