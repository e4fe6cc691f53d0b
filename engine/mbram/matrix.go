package mbram

// evalMatmul is the row-major n×n matrix product of the MBRAM paper §IV, with the
// readings of docs/readings.md:
//
//   - regime (2), Bn + wn >= C: a column's n lines and a row cannot stay in
//     cache together, so every inner product loads its row sequentially
//     (wn/β1) and its column line by line (Bn/β2): w·n³/β1 + B·n³/β2. The
//     paper states the condition as Bn >= C but applies it to n = 4000 on the
//     2.66 GHz Pentium 4, where Bn = 500 KiB < C = 512 KiB; with LRU the
//     column cannot stay cached beside the row.
//   - regime (1), wn > B and Bn + wn < C: the column's lines stay cached
//     while the row is swept, and each line of Q is reloaded once per row of
//     P: w·n³/β2. The paper states wn + 2Bn < C; we warn when that fails.
//   - in cache, 3wn² <= C: only the compulsory traffic 3wn²/β1.
func evalMatmul(e *eval) {
	m := e.m
	n, w := float64(e.p.N), float64(e.p.W)
	B, C := float64(m.B), float64(m.C)
	n3 := n * n * n
	switch {
	case 3*w*n*n <= C:
		e.setRegime("in cache: the three matrices fit (3wn² <= C)")
		e.add("sequential memory traffic (load P and Q, write R once)", 3*w*n*n/m.Beta1, "3wn²/β1",
			func() string { return "3·" + integer(e.p.W) + "·" + num(n) + "² B / " + bw(m.Beta1) })
	case B*n+w*n >= C:
		e.setRegime("(2) a column's lines and a row do not fit in cache together (Bn + wn >= C)")
		e.add("sequential memory traffic (rows of P)", w*n3/m.Beta1, "w·n³/β1",
			func() string { return integer(e.p.W) + "·" + num(n) + "³ B / " + bw(m.Beta1) })
		e.add("random memory traffic (columns of Q, a line per entry)", B*n3/m.Beta2, "B·n³/β2",
			func() string { return integer(m.B) + "·" + num(n) + "³ B / " + bw(m.Beta2) })
		if e.explain && B*n < C {
			e.warnf("Bn = %s < C = %s: the MBRAM paper's condition for regime (2) is Bn >= C, but a column (Bn) and a row (wn = %s) together exceed the cache, so with LRU every column access misses", size(m.B*e.p.N), size(m.C), size(e.p.W*e.p.N))
		}
	case w*n > B:
		e.setRegime("(1) a row spans more than one line and a column's lines stay cached (wn > B, Bn + wn < C)")
		e.add("random memory traffic (each line of Q reloaded once per row of P)", w*n3/m.Beta2, "w·n³/β2",
			func() string { return integer(e.p.W) + "·" + num(n) + "³ B / " + bw(m.Beta2) })
		if e.explain && w*n+2*B*n >= C {
			e.warnf("wn + 2Bn = %s >= C = %s: the MBRAM paper derives regime (1) assuming one row and two columns fit (wn + 2Bn < C); the next column may evict the current one", size(e.p.W*e.p.N+2*m.B*e.p.N), size(m.C))
		}
	default:
		// wn <= B: a whole row of Q lies in one or two lines, so Q occupies
		// about n lines, which fit (Bn < C). Q stays cached after its first
		// load; only the compulsory traffic remains.
		e.setRegime("between regimes: a row fits in a line (wn <= B), so Q's lines stay cached; compulsory traffic only")
		e.add("sequential memory traffic (load P and Q, write R once)", 3*w*n*n/m.Beta1, "3wn²/β1",
			func() string { return "3·" + integer(e.p.W) + "·" + num(n) + "² B / " + bw(m.Beta1) })
		e.warnf("wn = %s <= B = %s: neither of the MBRAM paper's regimes applies (regime (1) needs wn > B); memwall charges the compulsory traffic only", size(e.p.W*e.p.N), size(m.B))
	}
}
