package mbram

// ceilLog returns the smallest k >= 0 with b^k >= n, computed in integers so
// that exact powers (N = 64^4) never round up through a floating logarithm.
func ceilLog(b, n int64) int64 {
	var k int64
	p := int64(1)
	for p < n {
		if p > (1<<62)/b {
			return k + 1
		}
		p *= b
		k++
	}
	return k
}

// floorLog returns the largest k >= 0 with b^k <= n, or -1 when n < 1.
func floorLog(b, n int64) int64 {
	if n < 1 {
		return -1
	}
	var k int64
	p := int64(1)
	for p <= n/b {
		p *= b
		k++
	}
	return k
}

// isPowerOf reports whether n = b^k for some k >= 0.
func isPowerOf(b, n int64) bool {
	p := int64(1)
	for p < n {
		if p > (1<<62)/b {
			return false
		}
		p *= b
	}
	return p == n
}
