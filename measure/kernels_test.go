package measure

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

func randomKeys(n int, below uint32, seed uint64) []uint32 {
	return keysFrom(rand.New(rand.NewPCG(seed, 1)), n, below)
}

func randomPerm(n int, seed uint64) []uint32 {
	return permFrom(rand.New(rand.NewPCG(seed, 2)), n)
}

func junk(n int) []uint32 {
	w := make([]uint32, n)
	for i := range w {
		w[i] = uint32(i * 2654435761)
	}
	return w
}

// The oracle for every sort is slices.Sort on a copy.
func TestSorts(t *testing.T) {
	sorts := []struct {
		name string
		fn   func(a []uint32, keyBits int)
	}{
		{"quicksort", func(a []uint32, _ int) { Quicksort(a) }},
		{"mergesort", func(a []uint32, _ int) { Mergesort(a, make([]uint32, len(a))) }},
		{"heapsort", func(a []uint32, _ int) { Heapsort(a) }},
		{"bucket", func(a []uint32, kb int) { BucketSort(a, kb, 6) }},
		{"bucket-count", func(a []uint32, kb int) { BucketSortCount(a, kb, 6) }},
		{"radix", func(a []uint32, kb int) { RadixSort(a, kb, 6) }},
		{"radix-count", func(a []uint32, kb int) { RadixSortCount(a, kb, 6) }},
		// The same sorts in a work array given once (filled with junk, as
		// a reused array is).
		{"bucket in work", func(a []uint32, kb int) { BucketSortIn(a, junk(SortWork(len(a), 6)), kb, 6) }},
		{"bucket-count in work", func(a []uint32, kb int) { BucketSortCountIn(a, junk(SortWork(len(a), 6)), kb, 6) }},
		{"radix in work", func(a []uint32, kb int) { RadixSortIn(a, junk(SortWork(len(a), 6)), kb, 6) }},
		{"radix-count in work", func(a []uint32, kb int) { RadixSortCountIn(a, junk(SortWork(len(a), 6)), kb, 6) }},
	}
	inputs := []struct {
		name  string
		n     int
		below uint32
	}{
		{"empty", 0, 1}, {"one", 1, 10}, {"two", 2, 4}, {"small", 37, 1000},
		{"uniform on [0,N)", 100_000, 100_000}, {"many equal", 5000, 3},
		{"uneven digits", 40_000, 1 << 23}, {"skewed", 20_000, 1 << 20},
	}
	for _, s := range sorts {
		for _, in := range inputs {
			a := randomKeys(in.n, in.below, uint64(in.n))
			if in.name == "skewed" { // every key in one top-level bucket: exercises the spill path
				for i := range a {
					a[i] &= 0x3fff
				}
			}
			want := slices.Clone(a)
			slices.Sort(want)
			s.fn(a, KeyBits(uint64(in.below)))
			if !slices.Equal(a, want) {
				t.Errorf("%s on %s: not sorted (or values lost)", s.name, in.name)
			}
		}
		a := []uint32{5, 4, 3, 2, 1, 0} // descending
		s.fn(a, 3)
		if !slices.Equal(a, []uint32{0, 1, 2, 3, 4, 5}) {
			t.Errorf("%s on descending input: %v", s.name, a)
		}
	}
}

// Both permutation products must agree with the definition z[i] = y[x[i]]
// evaluated one element at a time, for block lengths that divide N and that
// do not.
func TestPermutationProducts(t *testing.T) {
	for _, tc := range []struct{ n, block int }{{1, 1}, {3, 2}, {7, 3}, {10, 3}, {1000, 128}, {1 << 16, 1 << 10}, {5000, 5000}, {777, 1 << 20}} {
		x, y := randomPerm(tc.n, 1), randomPerm(tc.n, 2)
		want := make([]uint32, tc.n)
		for i := range want {
			want[i] = y[x[i]]
		}
		z := make([]uint32, tc.n)
		PermTraditional(z, y, x)
		if !slices.Equal(z, want) {
			t.Errorf("traditional n=%d: wrong product", tc.n)
		}
		z2 := make([]uint32, tc.n)
		ptr := make([]int, (tc.n+tc.block-1)/tc.block)
		PermTwoPass(z2, y, x, make([]uint32, tc.n), ptr, tc.block)
		if !slices.Equal(z2, want) {
			t.Errorf("two-pass n=%d block=%d: wrong product", tc.n, tc.block)
		}
	}
	if got := TwoPassBlockLength(256 << 10); got != 32768 {
		t.Errorf("block length for 256 KiB = %d, want 32768 (CACHE_SIZE/2/sizeof(int))", got)
	}
}

// MatMul against the textbook i-j-k sum written out separately.
func TestMatMul(t *testing.T) {
	for _, n := range []int{1, 2, 3, 17, 40} {
		p, q := randomKeys(n*n, 1000, 3), randomKeys(n*n, 1000, 4)
		c := make([]uint32, n*n)
		MatMul(c, p, q, n)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				var s uint32
				for k := 0; k < n; k++ {
					s += p[i*n+k] * q[k*n+j]
				}
				if c[i*n+j] != s {
					t.Fatalf("n=%d: c[%d][%d] = %d, want %d", n, i, j, c[i*n+j], s)
				}
			}
		}
	}
	// 2x2 by hand: [1 2; 3 4]·[5 6; 7 8] = [19 22; 43 50].
	c := make([]uint32, 4)
	MatMul(c, []uint32{1, 2, 3, 4}, []uint32{5, 6, 7, 8}, 2)
	if !slices.Equal(c, []uint32{19, 22, 43, 50}) {
		t.Errorf("2x2 product = %v", c)
	}
}

func TestDigitLevels(t *testing.T) {
	// 23-bit keys in base 64: digits at bits 17–22, 11–16, 5–10, 0–4.
	got := digitLevels(23, 6)
	want := [][2]uint32{{17, 63}, {11, 63}, {5, 63}, {0, 31}}
	if !slices.Equal(got, want) {
		t.Errorf("digitLevels(23, 6) = %v, want %v", got, want)
	}
}

// TestSortsInWorkAllocateNoKeys checks SortWork's promise: given a work
// array of that length, a distribution sort makes no array of keys, and
// nothing but its list of digits. Key bits that are
// not a multiple of the digit leave one narrower digit, whose pass uses
// fewer slots of a store than the passes after it (a radix sort of 16-bit
// keys in 6-bit digits: passes of 16, 64 and 64 buckets).
func TestSortsInWorkAllocateNoKeys(t *testing.T) {
	const n = 1 << 14
	sorts := []struct {
		name string
		fn   func(a, work []uint32, keyBits, radixBits int)
	}{
		{"bucket", BucketSortIn},
		{"bucket-count", BucketSortCountIn},
		{"radix", RadixSortIn},
		{"radix-count", RadixSortCountIn},
	}
	for _, s := range sorts {
		for _, keyBits := range []int{12, 16, 17} {
			a, keys := make([]uint32, n), randomKeys(n, 1<<keyBits, uint64(keyBits))
			work := make([]uint32, SortWork(n, 6))
			copy(a, keys)
			s.fn(a, work, keyBits, 6) // any first-use allocation outside the count
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			copy(a, keys)
			s.fn(a, work, keyBits, 6)
			runtime.ReadMemStats(&after)
			// A quarter of the keys' bytes: far above the counters,
			// far below any array of keys.
			if got := after.TotalAlloc - before.TotalAlloc; got > n {
				t.Errorf("%s, %d-bit keys: %d bytes allocated in a sort of %d keys; want no array of keys (under %d)", s.name, keyBits, got, n, n)
			}
			// Nor anything a pass or a call: an allocation costs the
			// same at any size, so it would weigh on the core rate
			// timed at a thousand keys. One is left, the list of
			// digits (digitLevels).
			if got := testing.AllocsPerRun(3, func() { copy(a, keys); s.fn(a, work, keyBits, 6) }); got > 1 {
				t.Errorf("%s, %d-bit keys: %g allocations a sort, want at most 1 (the digits' list)", s.name, keyBits, got)
			}
		}
	}
}

// TestSimpleSortsBelowBound: the simple sorts given the keys' bound sort
// keys uniform below a bound that is not a power of two (whose top digit
// reaches only some of its buckets) without spilling: no allocation but
// the list of digits, as TestSortsInWorkAllocateNoKeys asks with a work
// array. Sized for all 64 buckets of the top digit, the 48 that keys
// below 3·2^12 reach would each get n/48 keys against a capacity of
// 1.25·n/64 + 16, and spill a slice each. The oracle is slices.Sort.
func TestSimpleSortsBelowBound(t *testing.T) {
	sorts := []struct {
		name string
		fn   func(a, work []uint32, bound uint64, radixBits int)
	}{{"bucket", BucketSortBelow}, {"radix", RadixSortBelow}}
	for _, s := range sorts {
		for _, c := range []struct{ n, bound int }{{1 << 14, 3 << 12}, {1 << 14, 1 << 14}, {3 << 13, 3 << 13}, {100_000, 100_000}, {5000, 70_000}, {1, 1}, {37, 5}} {
			keys := randomKeys(c.n, uint32(c.bound), uint64(c.n))
			want := slices.Clone(keys)
			slices.Sort(want)
			a, work := slices.Clone(keys), make([]uint32, SortWork(c.n, 6))
			s.fn(a, work, uint64(c.bound), 6)
			if !slices.Equal(a, want) {
				t.Errorf("%s of %d keys below %d: not sorted (or values lost)", s.name, c.n, c.bound)
			}
			if got := testing.AllocsPerRun(3, func() { copy(a, keys); s.fn(a, work, uint64(c.bound), 6) }); got > 1 {
				t.Errorf("%s of %d keys below %d: %g allocations a sort, want at most 1 (the digits' list)", s.name, c.n, c.bound, got)
			}
		}
	}
}

// FuzzSortsByAddress sorts a window of a larger array with the sorts that
// read and write by address (Quicksort's scans, Mergesort's merge, the
// counting sorts' CountDigits and ScatterDigits), whose loops carry no
// bounds check: the window must come out as slices.Sort
// leaves it, and the values on either side of it, 0 and the largest key
// (which would stop a scan run past an end, and be swapped), untouched.
func FuzzSortsByAddress(f *testing.F) {
	f.Add([]byte{5, 4, 3, 2, 1, 0}, uint8(0))
	f.Add([]byte{7, 7, 7, 7, 7}, uint8(3))
	f.Add([]byte{0, 255, 0, 255, 1}, uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, mod uint8) {
		if len(data) > 4096 {
			return
		}
		const pad = 8
		a := make([]uint32, len(data)+2*pad)
		for i := range pad {
			a[i], a[len(a)-1-i] = 0, ^uint32(0)
		}
		for i, b := range data {
			k := uint32(b)
			if mod > 1 {
				k %= uint32(mod) // few distinct keys: runs of equal ones
			}
			a[pad+i] = k
		}
		for _, s := range []struct {
			name string
			fn   func([]uint32)
		}{
			{"quicksort", Quicksort},
			{"mergesort", func(w []uint32) { Mergesort(w, make([]uint32, len(w))) }},
			{"radix-count", func(w []uint32) { RadixSortCount(w, 8, 3) }},
			{"bucket-count", func(w []uint32) { BucketSortCount(w, 8, 3) }},
		} {
			b := slices.Clone(a)
			w := b[pad : pad+len(data)]
			want := slices.Clone(w)
			slices.Sort(want)
			s.fn(w)
			if !slices.Equal(w, want) {
				t.Fatalf("%s: %v, want %v", s.name, w, want)
			}
			if !slices.Equal(b[:pad], a[:pad]) || !slices.Equal(b[len(b)-pad:], a[len(a)-pad:]) {
				t.Fatalf("%s wrote outside its window: %v", s.name, b)
			}
		}
	})
}
