package measure

// Comparison sorts of the MBRAM paper Fig. 5 and Appendix a–c, in their
// straightforward forms: the model counts one comparison per element per
// level, and tuning such as insertion sort at the leaves would change what
// is being checked.

// Quicksort sorts a in place: Hoare partition around the middle element,
// recursing into the smaller side and looping on the larger (so the stack
// stays O(log N)).
func Quicksort(a []uint32) {
	for len(a) > 1 {
		// Hoare's scheme: the middle pivot stops both scans, so neither side
		// ends up empty and the loop always shrinks a.
		pivot := a[(len(a)-1)/2]
		i, j := -1, len(a)
		for {
			i++
			for a[i] < pivot {
				i++
			}
			j--
			for a[j] > pivot {
				j--
			}
			if i >= j {
				break
			}
			a[i], a[j] = a[j], a[i]
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
	mergeSplit(tmp, a)
}

// mergeSplit sorts src into dst; both hold the same values on entry.
func mergeSplit(src, dst []uint32) {
	n := len(dst)
	if n < 2 {
		return
	}
	h := n / 2
	// Sort each half of dst into src, then merge src's halves into dst.
	mergeSplit(dst[:h], src[:h])
	mergeSplit(dst[h:], src[h:])
	merge(dst, src[:h], src[h:])
}

func merge(dst, x, y []uint32) {
	i, j, k := 0, 0, 0
	for i < len(x) && j < len(y) {
		if y[j] < x[i] {
			dst[k] = y[j]
			j++
		} else {
			dst[k] = x[i]
			i++
		}
		k++
	}
	k += copy(dst[k:], x[i:])
	copy(dst[k:], y[j:])
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
