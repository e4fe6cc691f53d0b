package measure

import "unsafe"

// Comparison sorts of the MBRAM paper Fig. 5 and Appendix a–c, in their
// straightforward forms: the model counts one comparison per element per
// level, and tuning such as insertion sort at the leaves would change what
// is being checked.

// Quicksort sorts a in place: Hoare partition around the middle element,
// recursing into the smaller side and looping on the larger (so the stack
// stays O(log N)).
//
// Its scans read and swap by address, as merge below does. Hoare's
// scheme keeps them inside a without a check: the middle pivot stops the
// first scan of each side, and after a swap the values swapped stop the
// next ones, so i and j never pass the ends. With an index check on
// every load Go 1.26 ran it 5 to 7 % slower than gcc -O2 runs the same
// loops (scripts/probes/kernels.c, Zen 5 guest: 0.96 and 42.7 ms at 2^14
// and 2^19 keys, against 0.89 and 38.9 for the C program); by address it
// took 0.92 and 39.7. A kernel slower than a careful compiled one would
// have calibration read the machine's core as slower than it is for
// everyone else's sort.
func Quicksort(a []uint32) {
	for len(a) > 1 {
		p := unsafe.Pointer(unsafe.SliceData(a))
		// Hoare's scheme: the middle pivot stops both scans, so neither side
		// ends up empty and the loop always shrinks a.
		pivot := *keyAt(p, (len(a)-1)/2)
		i, j := -1, len(a)
		for {
			i++
			for *keyAt(p, i) < pivot {
				i++
			}
			j--
			for *keyAt(p, j) > pivot {
				j--
			}
			if i >= j {
				break
			}
			x, y := keyAt(p, i), keyAt(p, j)
			*x, *y = *y, *x
		}
		// a[:j+1] <= pivot <= a[j+1:]
		if j+1 < len(a)-j-1 {
			Quicksort(a[:j+1])
			a = a[j+1:]
		} else {
			Quicksort(a[j+1:])
			a = a[:j+1]
		}
	}
}

// Mergesort sorts a with top-down two-way merging, alternating between a
// and tmp (len(tmp) >= len(a)) so that no level copies back. Kept out of
// line: PermTraditional says why.
//
//go:noinline
func Mergesort(a, tmp []uint32) {
	tmp = tmp[:len(a)]
	copy(tmp, a)
	if len(a) >= 2 {
		mergeSplit(tmp, a)
	}
}

// mergeSplit sorts src into dst; both hold the same values on entry, at
// least two of them. It does not call itself on a half of one value, so
// that the leaves cost no call: with the merge below, as gcc -O2 compiles
// the same algorithm, the sort ran 17 to 22 % faster than with a call
// per value and bounds-checked loads (6.3, 126 and 1113 ms at 2^16, 2^20
// and 2^23 keys against 5.2, 105 and 955; a C program of the bottom-up
// sort, scripts/probes/kernels.c, 4.7, 96 and 911).
func mergeSplit(src, dst []uint32) {
	n := len(dst)
	h := n / 2
	// Sort each half of dst into src, then merge src's halves into dst.
	if h >= 2 {
		mergeSplit(dst[:h], src[:h])
	}
	if n-h >= 2 {
		mergeSplit(dst[h:], src[h:])
	}
	merge(dst, src[:h], src[h:])
}

// merge merges the sorted runs x and y into dst. The loop reads and
// writes by address, its one bounds check before it starts: with an
// index check on each of the three slices every step, Go 1.26 kept it
// 10 % slower, and the runs' remainders go by the same loop, not by two
// calls of copy a merge (each a call of memmove for a remainder of one or
// two values at the lower levels).
func merge(dst, x, y []uint32) {
	nx, ny := len(x), len(y)
	if len(dst) < nx+ny {
		panic("merge: dst shorter than its runs")
	}
	d := unsafe.Pointer(unsafe.SliceData(dst))
	px, py := unsafe.Pointer(unsafe.SliceData(x)), unsafe.Pointer(unsafe.SliceData(y))
	i, j := 0, 0
	for i < nx && j < ny {
		a := *keyAt(px, i)
		b := *keyAt(py, j)
		if b < a {
			*keyAt(d, i+j) = b
			j++
		} else {
			*keyAt(d, i+j) = a
			i++
		}
	}
	for ; i < nx; i++ {
		*keyAt(d, i+j) = *keyAt(px, i)
	}
	for ; j < ny; j++ {
		*keyAt(d, i+j) = *keyAt(py, j)
	}
}

// Heapsort sorts a with a binary max-heap: build bottom-up, then move the
// root to the end N times (the MBRAM paper App. c).
func Heapsort(a []uint32) {
	n := len(a)
	for i := n/2 - 1; i >= 0; i-- {
		downheap(a, i, n)
	}
	for end := n - 1; end > 0; end-- {
		a[0], a[end] = a[end], a[0]
		downheap(a, 0, end)
	}
}

func downheap(a []uint32, i, n int) {
	v := a[i]
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && a[c+1] > a[c] {
			c++
		}
		if a[c] <= v {
			break
		}
		a[i] = a[c]
		i = c
	}
	a[i] = v
}
