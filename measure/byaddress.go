package measure

import "unsafe"

// keyAt is the i-th 4-byte key of the array that starts at p, for the
// kernels' loops that load and store by address, as a C compiler's do,
// with no index check (Quicksort, merge, ScatterDigits, scatterBuckets;
// the comment on each says why its indices stay in range).
func keyAt(p unsafe.Pointer, i int) *uint32 { return (*uint32)(unsafe.Add(p, 4*i)) }

// countAt is the i-th counter of the array of ints that starts at p, for
// the same loops' counts and positions (CountDigits, scatterBuckets).
func countAt(p unsafe.Pointer, i uint) *int {
	return (*int)(unsafe.Add(p, unsafe.Sizeof(int(0))*uintptr(i)))
}
