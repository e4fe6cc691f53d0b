package kernels

import "slices"

// Comparison sorts of the MBRAM paper Fig. 5 and Appendix a–c. Each reports every
// key comparison that decides control flow as a branch at its own site
// (rule 3); loop-closing branches are left out (see engine/sim doc.go).

const (
	siteQuickLeft  = iota // quicksort: a[i] < pivot, the left scan goes on
	siteQuickRight        // quicksort: a[j] > pivot, the right scan goes on
	siteMerge             // mergesort: the left run's head is taken
	siteHeapChild         // heapsort: the right child is the larger
	siteHeapDown          // heapsort: the larger child exceeds the sifted key
)

// array is a kernel array: the real values and the simulated address of
// the first.
type array struct {
	v    []uint32
	base uint64
}

func (e *env) newArray(v []uint32) array { return array{v, e.alloc(len(v))} }

func (e *env) read(a array, i int) uint32 {
	e.s.Read(a.base + uint64(i)<<e.wlog)
	return a.v[i]
}

// readDep is read for a dependent access (Tracer).
func (e *env) readDep(a array, i int) uint32 {
	e.s.ReadDependent(a.base + uint64(i)<<e.wlog)
	return a.v[i]
}

func (e *env) write(a array, i int, x uint32) {
	e.s.Write(a.base + uint64(i)<<e.wlog)
	a.v[i] = x
}

// checkSorted reports whether got is want sorted; want is the input, kept
// aside before the run.
func checkSorted(got, want []uint32) error {
	slices.Sort(want)
	if !slices.Equal(got, want) {
		return ErrWrongResult
	}
	return nil
}

func (e *env) sortInput() (array, []uint32) {
	in := e.uniform(e.n, uint32(e.n))
	return e.newArray(in), slices.Clone(in)
}

// runQuicksort: Hoare's partition around the middle element, recursing on
// the smaller part and looping on the larger, down to one element.
func runQuicksort(e *env) error {
	a, want := e.sortInput()
	e.quicksort(a, 0, e.n-1)
	return checkSorted(a.v, want)
}

func (e *env) quicksort(a array, lo, hi int) {
	s := e.s
	for lo < hi {
		p := e.read(a, lo+(hi-lo)/2)
		i, j := lo-1, hi+1
		for {
			for {
				i++
				x := e.read(a, i)
				less := x < p
				s.Branch(siteQuickLeft, less)
				if !less {
					break
				}
			}
			for {
				j--
				x := e.read(a, j)
				more := x > p
				s.Branch(siteQuickRight, more)
				if !more {
					break
				}
			}
			if i >= j {
				break
			}
			x, y := a.v[i], a.v[j]
			e.write(a, i, y)
			e.write(a, j, x)
		}
		// a[lo..j] <= p <= a[j+1..hi]
		if j-lo < hi-j-1 {
			e.quicksort(a, lo, j)
			lo = j + 1
		} else {
			e.quicksort(a, j+1, hi)
			hi = j
		}
	}
}

// runMergesort: top-down two-way mergesort with one scratch array. The
// input is copied to the scratch array once, then each level merges the
// halves sorted in one array into the other (no copy back), depth first,
// so that subarrays that fit in the cache are sorted there (the MBRAM paper App.
// b).
func runMergesort(e *env) error {
	a, want := e.sortInput()
	b := e.newArray(make([]uint32, e.n))
	for i := 0; i < e.n; i++ {
		e.write(b, i, e.read(a, i))
	}
	e.mergesort(b, a, 0, e.n)
	return checkSorted(a.v, want)
}

// mergesort sorts dst[lo:hi], which src[lo:hi] equals on entry, using src
// as scratch.
func (e *env) mergesort(src, dst array, lo, hi int) {
	if hi-lo < 2 {
		return
	}
	mid := lo + (hi-lo)/2
	e.mergesort(dst, src, lo, mid)
	e.mergesort(dst, src, mid, hi)
	// src[lo:mid] and src[mid:hi] are sorted; merge them into dst.
	s := e.s
	i, j := lo, mid
	x, y := e.read(src, i), e.read(src, j)
	for k := lo; k < hi; k++ {
		if i == mid {
			e.write(dst, k, y)
			j++
			if j < hi {
				y = e.read(src, j)
			}
			continue
		}
		if j == hi {
			e.write(dst, k, x)
			i++
			if i < mid {
				x = e.read(src, i)
			}
			continue
		}
		left := x <= y
		s.Branch(siteMerge, left)
		if left {
			e.write(dst, k, x)
			i++
			if i < mid {
				x = e.read(src, i)
			}
		} else {
			e.write(dst, k, y)
			j++
			if j < hi {
				y = e.read(src, j)
			}
		}
	}
}

// runHeapsort: a max-heap built bottom up, then n−1 times the root swapped
// with the last leaf and sifted down (the MBRAM paper App. c).
func runHeapsort(e *env) error {
	a, want := e.sortInput()
	n := e.n
	for i := n/2 - 1; i >= 0; i-- {
		e.siftDown(a, i, n)
	}
	for end := n - 1; end > 0; end-- {
		top, last := e.read(a, 0), e.read(a, end)
		e.write(a, end, top)
		e.write(a, 0, last)
		e.siftDown(a, 0, end)
	}
	return checkSorted(a.v, want)
}

func (e *env) siftDown(a array, root, end int) {
	s := e.s
	v := e.read(a, root)
	for {
		c := 2*root + 1
		if c >= end {
			break
		}
		cv := e.readDep(a, c)
		if c+1 < end {
			rv := e.readDep(a, c+1)
			right := rv > cv
			s.Branch(siteHeapChild, right)
			if right {
				c, cv = c+1, rv
			}
		}
		down := cv > v
		s.Branch(siteHeapDown, down)
		if !down {
			break
		}
		e.write(a, root, cv)
		root = c
	}
	e.write(a, root, v)
}
