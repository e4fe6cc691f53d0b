package mbram

// Permutation products, the MBRAM paper's section III.

// evalPerm is the traditional Z[i] = Y[X[i]] (the MBRAM paper's §III.C). X is read as
// a sequential stream (wN/β1); Z is a write stream, and a write first loads
// its line (Model Rule 7), so Z costs 2wN/β1; each Y[X[i]] is a line from a
// random place (Model Rule 1), B/β2. The paper prints (12/β1 + B/β2)·N for
// w = 4; docs/readings.md writes it (3w/β1 + B/β2)·N.
func evalPerm(e *eval) {
	m, w, n := e.m, float64(e.p.W), float64(e.p.N)
	e.add("sequential memory traffic (read X, read and write Z)", 3*w*n/m.Beta1, "3wN/β1",
		func() string { return "3·" + integer(e.p.W) + "·" + integer(e.p.N) + " B / " + bw(m.Beta1) })
	e.add("random memory traffic (a line of Y per element)", float64(m.B)*n/m.Beta2, "B·N/β2",
		func() string { return integer(m.B) + "·" + integer(e.p.N) + " B / " + bw(m.Beta2) })
	e.setRegime("Y does not fit in the cache: every Y[X[i]] loads a line from a random place")
	if ybytes := e.p.W * e.p.N; e.explain && ybytes <= m.C {
		e.setRegime("Y fits in the cache (wN <= C)")
		e.overestimates("Y (%s) fits in the cache (%s): after the first touch its lines hit, so the random term overestimates; the formula assumes wN > C", size(ybytes), size(m.C))
	}
	if e.p.W > m.B {
		e.warnf("a word (%d B) is larger than a line (%d B): the formula charges one line per random access", e.p.W, m.B)
	}
}

// evalPermTwoPass is the two-pass algorithm of the MBRAM paper's §III.B: Phase I
// distributes X into blocks of D (X read plus a read-modify-write stream per
// block: 3wN/β2), Phase II permutes each block in cache (read D and Y, write
// D: 3wN/β2), Phase III merges into Z (read X and D, read-modify-write Z:
// 4wN/β2). Total 10wN/β2; the paper prints 40N/β2 for w = 4.
func evalPermTwoPass(e *eval) {
	m, w, n := e.m, float64(e.p.W), float64(e.p.N)
	sub := func(k int) func() string {
		return func() string {
			return integer(int64(k)) + "·" + integer(e.p.W) + "·" + integer(e.p.N) + " B / " + bw(m.Beta2)
		}
	}
	e.add("phase I: distribute X into blocks of D", 3*w*n/m.Beta2, "3wN/β2", sub(3))
	e.add("phase II: permute each block in cache", 3*w*n/m.Beta2, "3wN/β2", sub(3))
	e.add("phase III: merge the blocks into Z", 4*w*n/m.Beta2, "4wN/β2", sub(4))

	// The paper's code: BLOCK_LENGTH = C/2/w, NUMBER_OF_BLOCKS = N/BLOCK_LENGTH.
	blockLen := m.C / 2 / e.p.W
	if blockLen < 1 {
		blockLen = 1
	}
	blocks := (e.p.N + blockLen - 1) / blockLen
	mu2 := m.Mu2()
	if !e.explain {
		// The regime and warnings are words only; a sweep skips them.
		return
	}
	e.setRegime("each block of D (" + size(blockLen*e.p.W) + ") fits in half the cache; " +
		count(blocks, "block", "blocks") + " + 1 <= μ2 = " + integer(mu2) + " cache lines, C/B (Model Rule 8)")
	if blocks+1 > mu2 {
		e.setRegime("assumption fails: " + count(blocks, "block", "blocks") + " + 1 > μ2 = " + integer(mu2))
		e.warnf("%s of D plus the X stream exceed the %d cache lines (μ2 = C/B): Phase I's write streams cannot all stay in cache, so the algorithm needs more passes than the formula charges (the MBRAM paper, section III.B)", count(blocks, "block", "blocks"), mu2)
	}
	if e.p.W*e.p.N <= m.C/2 {
		e.warnf("Y (%s) fits in half the cache: the traditional algorithm needs no blocking here", size(e.p.W*e.p.N))
	}
}
