package measure

import "math"

// DetectCache finds the size of the last cache level from a latency curve.
// It reads each point's fastest repetition (Stat.Min): other processes can
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
func DetectCache(curve []LatencyPoint, line int64) int64 {
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
