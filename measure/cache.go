package measure

import "math"

// DetectCache finds the size C of the last cache level from the random-read
// throughput curve (throughput.go): time per access against working-set
// size. It reads each point's fastest repetition (Stat.Min): other
// processes can only take the core or evict lines, never speed a run up, so
// the noise is one-sided and the minimum is the least disturbed value.
//
// Why throughput and not latency: the model charges B/beta2 per random line
// (the MBRAM paper, II; docs/readings.md), the cost of independent random reads that
// overlap, so C is the working set beyond which that cost climbs from the
// cache's rate to memory's. A dependent chase measures something else: on
// the development machine (a KVM guest) its latency is 160-500 ns from 2 MiB
// up to 512 MiB, with two-level page walks in every step and no plateau to
// show the L3, while the independent reads run at about 4 ns per access up
// to 6 MiB and at 20-27 ns beyond 16 MiB. The fit to the latency curve
// (DetectCacheLatency) read 45 MiB in one run and 347 MiB in another.
//
// Method. Above a cache of C bytes a uniformly random read hits with
// probability C/S whatever lines the cache keeps, so the time per access is
//
//	t(S) = tc                          for S <= C
//	t(S) = tm − (tm − tc)·C/S          for S > C
//
// with tc the cache's time and tm memory's. The curve is first made
// non-decreasing by taking at each size the least time at that size or any
// larger one (the true curve rises with S and the noise only adds, so a slow
// point is an outlier and a fast one is not). Given a guess of the cache
// level tc, and tm first read as that curve at the third largest size, the
// curve
// crosses the geometric mean t* = sqrt(tc·tm) at S* (interpolated linearly
// in log-log between the grid's sizes), and the model turns the crossing
// into C = S*·(tm − t*)/(tm − tc) (the model's curve passes t* at that S*;
// the crossing alone would read C 1.3 to 1.7 times too large); tc then
// becomes the curve's value at C/2, on the cache's plateau, tm the value
// the model gives from the curve at the third largest size when that is at
// least 8C (at ten times C the curve still lies 10% of the way back towards
// tc; closer to C the extrapolation would amplify the noise), and the steps
// repeat until C settles. Every step of the curve (L1 to L2, L2 to
// L3, L3 to memory) is such a fixed point, so the iteration starts from
// every point of the curve below tm/2, and the largest C whose level stays
// at least twice as fast as memory wins: the last cache. The result is
// rounded to a whole number of lines; it is 0 when the curve has fewer than
// six points or no step of at least a factor of two below its end. A
// crossing above the fifth largest size does not count: a step made by the
// last few points alone is as likely a burst of load at the end of a round
// as a cache.
func DetectCache(curve []ThroughputPoint, line int64) int64 {
	c, _, _ := detectDrop(curve)
	if c == 0 {
		return 0
	}
	if line <= 0 {
		line = nodeStride
	}
	return max(line, int64(math.Round(c/float64(line)))*line)
}

// detectDrop is DetectCache before rounding; it also returns the two levels
// (seconds per access in the cache and beyond it).
func detectDrop(curve []ThroughputPoint) (c, tc, tm float64) {
	n := len(curve)
	if n < 6 {
		return 0, 0, 0
	}
	ls := make([]float64, n) // log size
	m := make([]float64, n)  // non-decreasing time per access
	lo := math.Inf(1)
	for i := n - 1; i >= 0; i-- {
		t := curve[i].Access.Min
		if !(t > 0) || curve[i].Size <= 0 || (i > 0 && curve[i].Size <= curve[i-1].Size) {
			return 0, 0, 0
		}
		lo = math.Min(lo, t)
		m[i] = lo
		ls[i] = math.Log(float64(curve[i].Size))
	}
	tEnd, sEnd := m[n-3], float64(curve[n-3].Size) // the least of the three largest sizes
	at := func(s float64) float64 {                // m at size s, log-log interpolation
		x := math.Log(s)
		if x <= ls[0] {
			return m[0]
		}
		for i := 1; i < n; i++ {
			if x <= ls[i] {
				f := (x - ls[i-1]) / (ls[i] - ls[i-1])
				return math.Exp(math.Log(m[i-1]) + f*(math.Log(m[i])-math.Log(m[i-1])))
			}
		}
		return m[n-1]
	}
	// settle iterates crossing and plateau from a first guess of tc to a
	// fixed point; ok is false when the levels stop qualifying.
	settle := func(tc float64) (c, tcOut, tm float64, ok bool) {
		tm = tEnd
		for iter := 0; iter < 50; iter++ {
			if tm < 2*tc || tEnd < 2*tc {
				return 0, 0, 0, false
			}
			th := math.Sqrt(tc * tm)
			k := -1
			for i := range m {
				if m[i] <= th {
					k = i
				}
			}
			if k < 0 || k >= n-5 {
				return 0, 0, 0, false
			}
			f := (math.Log(th) - math.Log(m[k])) / (math.Log(m[k+1]) - math.Log(m[k]))
			s := math.Exp(ls[k] + f*(ls[k+1]-ls[k]))
			next := s * (tm - th) / (tm - tc)
			done := math.Abs(next-c) <= 1e-6*next
			c = next
			if done {
				break
			}
			tc = at(c / 2)
			if c < sEnd/8 {
				tm = (tEnd - tc*c/sEnd) / (1 - c/sEnd)
			}
		}
		return c, tc, tm, true
	}
	for j := range m {
		if m[j] > tEnd/2 {
			break // m does not decrease
		}
		if cj, tcj, tmj, ok := settle(m[j]); ok && cj > c {
			c, tc, tm = cj, tcj, tmj
		}
	}
	if c == 0 {
		return 0, 0, 0
	}
	return c, tc, tm
}

// DetectCacheLatency fits the size of the last cache level to a latency
// curve. Calibrate no longer takes C from it (see DetectCache for why); it
// records the fit beside the throughput value for comparison. It reads each point's fastest repetition (Stat.Min): other processes can
// only evict the chase's lines or take its core, never speed it up, so the
// noise is one-sided and the minimum is the least disturbed value.
//
// Method: above a cache of C bytes, a random step of the chase finds its
// line in that cache with probability about C/S (the cache holds C of the S
// bytes, and the order is random), so the latency is
//
//	L(S) = Lc                          for S <= C
//	L(S) = Lm − (Lm − Lc)·C/S          for S > C
//
// with Lc the cache's latency and Lm memory's. For each candidate C on the
// curve's size grid (refined to 16 steps per octave), the two levels are
// fitted by least squares on the points from C/4 upwards (relative
// residuals, so the memory points do not drown the cache points), and the
// candidate with the smallest mean squared relative residual wins. The
// region below C/4 belongs to the smaller caches and is left out. A
// candidate needs at least three points between C/4 and C and three above
// C, and the memory level must be at least 1.3 times the cache level; the
// result is rounded to a whole number of lines.
//
// Known limit: page walks. With 4 KiB pages a random step beyond the TLB's
// reach also walks the page table, whose entries themselves fall out of
// cache as the set grows; under a hypervisor (two-level walks) this adds a
// rise of its own that continues past the last cache and pulls the fit
// upwards. The curve is therefore only measured to four times the cache the
// OS reports. It returns 0 when no
// candidate qualifies (a curve that does not reach beyond the last cache).
func DetectCacheLatency(curve []LatencyPoint, line int64) int64 {
	if len(curve) < 6 {
		return 0
	}
	lo, hi := float64(curve[0].Size), float64(curve[len(curve)-1].Size)
	best, bestErr := 0.0, math.Inf(1)
	for e := 0.0; ; e++ {
		c := lo * math.Pow(2, e/16)
		if c > hi {
			break
		}
		below, above := 0, 0
		var sw, swh, swhh, swl, swhl float64
		for _, p := range curve {
			s, l := float64(p.Size), p.Latency.Min
			if s < c/4 || l <= 0 {
				continue
			}
			if s <= c {
				below++
			} else {
				above++
			}
			h := math.Min(1, c/s)
			w := 1 / (l * l)
			sw += w
			swh += w * h
			swhh += w * h * h
			swl += w * l
			swhl += w * h * l
		}
		if below < 3 || above < 3 {
			continue
		}
		// Weighted least squares for L = a + b·h (b = Lc − Lm < 0).
		det := sw*swhh - swh*swh
		if det <= 0 {
			continue
		}
		a := (swhh*swl - swh*swhl) / det
		b := (sw*swhl - swh*swl) / det
		lm, lc := a, a+b
		if lc <= 0 || lm < 1.3*lc {
			continue
		}
		var sse float64
		n := 0
		for _, p := range curve {
			s, l := float64(p.Size), p.Latency.Min
			if s < c/4 || l <= 0 {
				continue
			}
			r := (l - (a + b*math.Min(1, c/s))) / l
			sse += r * r
			n++
		}
		if mse := sse / float64(n); mse < bestErr {
			best, bestErr = c, mse
		}
	}
	if best == 0 {
		return 0
	}
	if line <= 0 {
		line = nodeStride
	}
	return int64(math.Round(best/float64(line))) * line
}
