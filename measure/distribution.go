package measure

import (
	"math/bits"
	"unsafe"
)

// Non-comparison sorts of the MBRAM paper Fig. 5 and Appendix d–e for keys of
// keyBits significant bits (the paper's keys are uniform on [0, N)), with
// b = 2^radixBits buckets per pass (the paper's b = 64).
//
// The "simple" versions distribute into b buckets of a fixed capacity
// (expected size plus a quarter, plus 16) carved from one arena; a bucket
// that overflows spills into an ordinary growing slice, which uniform keys
// practically never need. The "distribution count" versions first count
// each digit, so every element goes straight to its final place in a second
// array (the MBRAM paper's counting pass, charged wN/beta1).

// digitLevels lists (shift, mask) of each digit, most significant first.
func digitLevels(keyBits, radixBits int) [][2]uint32 {
	var out [][2]uint32
	for s := keyBits; s > 0; {
		lo := max(0, s-radixBits)
		out = append(out, [2]uint32{uint32(lo), uint32(1)<<(s-lo) - 1})
		s = lo
	}
	return out
}

// KeyBits is the number of bits needed for keys below n.
func KeyBits(n uint64) int {
	if n <= 1 {
		return 1
	}
	return bits.Len64(n - 1)
}

// bucketSet is b fixed-capacity buckets with spill slices, of which the
// first used have room in the store and the rest start full.
type bucketSet struct {
	store []uint32
	capE  int
	used  int
	lens  []int
	spill [][]uint32
}

// newBucketSet is b buckets for n keys whose digits reach the first used
// of them (usedBuckets; 0: all), each with room for its share of the keys and a
// quarter more. Sized for all b instead, the buckets of a digit whose
// keys reach only some of them overflow: the top digit of keys uniform
// below 3·2^22 reaches 48 of 64 buckets with n/48 keys each, over the
// capacity of 1.25·n/64, and the simple radix sort at 12Mi keys spilled
// a twentieth of its keys into slices made during the sort, at 11.1 ns a
// key where 8Mi and 16Mi took 7.2 and 7.0.
func newBucketSet(store []uint32, lens []int, b, used, n int) bucketSet {
	if used <= 0 || used > b {
		used = b // 0: all of them
	}
	capE := n/used + n/(4*used) + 16
	if len(store) < used*capE {
		store = make([]uint32, used*capE)
	}
	if len(lens) < b {
		lens = make([]int, b)
	}
	lens = lens[:b]
	clear(lens[:used])
	for d := used; d < b; d++ {
		lens[d] = capE // no room: a key there goes to put, and spills
	}
	return bucketSet{store: store[:used*capE], capE: capE, used: used, lens: lens}
}

// usedBuckets is how many of the buckets of the digit (shift, mask) keys
// below bound reach: all mask+1 but for the most significant digit (a
// bound of 0 wraps round to all of them).
func usedBuckets(bound uint64, shift, mask uint32) int {
	return int(min(uint64(mask), (bound-1)>>shift) + 1)
}

// putAll puts the keys of src into their buckets by the digit
// (v>>shift)&mask: PutDigits's loop, and put for a key whose bucket is
// full.
func (s *bucketSet) putAll(src []uint32, shift, mask uint32) {
	for len(src) > 0 {
		k := PutDigits(src, s.store, s.lens, s.capE, shift, mask)
		if src = src[k:]; len(src) > 0 {
			s.put((src[0]>>shift)&mask, src[0])
			src = src[1:]
		}
	}
}

// PutDigits moves each key of src to the end of bucket d of its digit
// d = (v>>shift)&mask, bucket d being store[d·capE:] with lens[d] keys
// in it, until a key finds its bucket full; it returns the keys it moved.
// It is the simple distribution sorts' loop (bucketSet.putAll), out of
// line so that calibration times the very loop the sorts run. As in
// ScatterDigits the length is stored back before the key.
//
//go:noinline
func PutDigits(src, store []uint32, lens []int, capE int, shift, mask uint32) int {
	shift &= 31
	// Cut to the digit's buckets, as ScatterDigits cuts pos: the loop
	// then tests no index into lens (16.7 or 18.6 ns a line of keys
	// into 64 buckets in L2 on the Zen 5 guest by where the function
	// lay, 15.1 at both without the test).
	m := uint(mask)
	lens = lens[:m+1]
	for i, v := range src {
		d := uint(v>>shift) & m
		l := lens[d]
		if l >= capE {
			return i
		}
		lens[d] = l + 1
		store[int(d)*capE+l] = v
	}
	return len(src)
}

func (s *bucketSet) put(d uint32, v uint32) {
	if l := s.lens[d]; l < s.capE {
		s.store[int(d)*s.capE+l] = v
		s.lens[d] = l + 1
		return
	}
	if s.spill == nil { // made on the first overflow only: uniform keys never get here
		s.spill = make([][]uint32, len(s.lens))
	}
	s.spill[d] = append(s.spill[d], v)
}

// bucket returns bucket d's values (a fresh slice when it spilled).
func (s *bucketSet) bucket(d int) []uint32 {
	if d >= s.used {
		if s.spill == nil {
			return nil
		}
		return s.spill[d]
	}
	b := s.store[d*s.capE : d*s.capE+s.lens[d]]
	if s.spill == nil || len(s.spill[d]) == 0 {
		return b
	}
	return append(append([]uint32(nil), b...), s.spill[d]...)
}

// SortWork is the length of the work array with which BucketSortIn,
// BucketSortCountIn, RadixSortIn and RadixSortCountIn allocate nothing for
// n keys and 2^radixBits buckets. A timed run should be given one, made
// and written once before the timing: memory fresh from the OS costs a
// page fault per page on its first touch (some microseconds in a virtual
// machine, more than the sort's own work per element), which is the
// operating system's cost, not the algorithm's.
func SortWork(n, radixBits int) int {
	b := 1 << radixBits
	capE := n/b + n/(4*b) + 16
	return max(2*n+64<<radixBits, 2*b*capE)
}

// BucketSort sorts a by most-significant-digit distribution (the MBRAM paper App.
// d): distribute into b buckets by the top digit, sort each bucket the same
// way by the next digit, and write the buckets of the last digit into a.
func BucketSort(a []uint32, keyBits, radixBits int) {
	BucketSortIn(a, nil, keyBits, radixBits)
}

// BucketSortIn is BucketSort using work (SortWork long) for its buckets.
func BucketSortIn(a, work []uint32, keyBits, radixBits int) {
	BucketSortBelow(a, work, 1<<keyBits, radixBits)
}

// BucketSortBelow is BucketSortIn for keys below bound, whose top digit
// reaches only the buckets below it (usedBuckets); the keys' bits are
// those of bound − 1.
func BucketSortBelow(a, work []uint32, bound uint64, radixBits int) {
	lv := digitLevels(KeyBits(bound), radixBits)
	arena := work
	if need := 2*len(a) + 64<<radixBits; len(arena) < need {
		arena = make([]uint32, need)
	}
	var buf [scratchInts]int
	// KeyBits is at least 1, so there is a top digit.
	top := usedBuckets(bound, lv[0][0], lv[0][1])
	bucketInto(a, a, lv, arena, scratch(buf[:], lv, 1, 0), top)
}

// scratchInts is the counters a distribution sort keeps on the stack for
// all its depths (b per depth in BucketSort, 2b+1 in BucketSortCount): six
// 6-bit digits need 64·6 or 129·6.
const scratchInts = 1024

// scratch is buf, or a larger slice when the digits lv need more than it
// holds (per + b·mul ints per depth). Each call of a sort uses the front
// of its part for its own digit and passes the rest to its children, so
// a call clears only its b counters, not a fixed array of 256 as a local
// array would (a call on a few keys then cost as much as a key per 2 KiB
// cleared).
func scratch(buf []int, lv [][2]uint32, mul, per int) []int {
	need := 0
	for _, d := range lv {
		need += per + mul*(int(d[1])+1)
	}
	if need <= len(buf) {
		return buf
	}
	return make([]int, need)
}

// bucketInto sorts src into dst by the digits lv, the first of which
// reaches used of its buckets (0: all; the digits below reach all of
// theirs).
func bucketInto(src, dst []uint32, lv [][2]uint32, arena []uint32, lens []int, used int) {
	if len(lv) == 0 || len(src) <= 1 {
		copy(dst, src)
		return
	}
	shift, mask := lv[0][0], lv[0][1]
	b := int(mask) + 1
	set := newBucketSet(arena, lens[:b], b, used, len(src))
	set.putAll(src, shift, mask)
	rest := arena[min(len(arena), len(set.store)):]
	off := 0
	for d := 0; d < b; d++ {
		bk := set.bucket(d)
		bucketInto(bk, dst[off:off+len(bk)], lv[1:], rest, lens[b:], 0)
		off += len(bk)
	}
}

// BucketSortCount is BucketSort with a counting pass per distribution, so
// each pass moves the elements between a and one array of the same size.
func BucketSortCount(a []uint32, keyBits, radixBits int) {
	BucketSortCountIn(a, nil, keyBits, radixBits)
}

// BucketSortCountIn is BucketSortCount using work (len(a) long) as its
// second array.
func BucketSortCountIn(a, work []uint32, keyBits, radixBits int) {
	lv := digitLevels(keyBits, radixBits)
	tmp := work
	if len(tmp) < len(a) {
		tmp = make([]uint32, len(a))
	}
	var buf [scratchInts]int
	ints := scratch(buf[:], lv, 2, 1)
	// The recursion's result alternates between the arrays from one digit
	// to the next. With an odd number of digits the calls of the last
	// digit would leave each of their buckets in the wrong array and copy
	// it back: N copies of a key or so each, whose data-dependent lengths
	// mispredict (some 5 ns a key measured). One copy of the whole array
	// first, a stream, turns the recursion round so that it ends in a.
	if len(lv)%2 == 1 {
		copy(tmp, a)
		countBucket(tmp[:len(a)], a, lv, false, ints)
		return
	}
	countBucket(a, tmp[:len(a)], lv, true, ints)
}

// countBucket sorts the values in cur by the digits lv, leaving the result
// in cur when wantInCur, else in other.
func countBucket(cur, other []uint32, lv [][2]uint32, wantInCur bool, ints []int) {
	if len(lv) == 0 || len(cur) <= 1 {
		if !wantInCur {
			copy(other, cur)
		}
		return
	}
	shift, mask := lv[0][0], lv[0][1]
	b := int(mask) + 1
	count, pos, rest := ints[:b+1], ints[b+1:2*b+1], ints[2*b+1:]
	clear(count)
	CountDigits(cur, count, shift, mask)
	for d := 1; d <= b; d++ {
		count[d] += count[d-1]
	}
	copy(pos, count[:b])
	ScatterDigits(cur, other, pos, shift, mask)
	for d := 0; d < b; d++ {
		lo, hi := count[d], count[d+1]
		countBucket(other[lo:hi], cur[lo:hi], lv[1:], !wantInCur, rest)
	}
}

// RadixSort sorts a by least-significant-digit distribution (the MBRAM paper App.
// e): each pass reads the previous pass's buckets in order and distributes
// into a second set of buckets; the last buckets are written back to a.
func RadixSort(a []uint32, keyBits, radixBits int) {
	RadixSortIn(a, nil, keyBits, radixBits)
}

// RadixSortIn is RadixSort using work (SortWork long) for its two sets of
// buckets.
func RadixSortIn(a, work []uint32, keyBits, radixBits int) {
	RadixSortBelow(a, work, 1<<keyBits, radixBits)
}

// RadixSortBelow is RadixSortIn for keys below bound, whose top digit,
// the last pass's, reaches only the buckets below it (usedBuckets); the
// keys' bits are those of bound − 1.
func RadixSortBelow(a, work []uint32, bound uint64, radixBits int) {
	lv := digitLevels(KeyBits(bound), radixBits)
	n := len(a)
	var sets [2]bucketSet
	var stores [2][]uint32
	if h := len(work) / 2; h > 0 {
		stores[0], stores[1] = work[:h], work[h:2*h]
	}
	// The two sets' lengths live on the stack: made anew each pass they
	// were two allocations a call, a fixed cost that weighed on the
	// rate timed at a thousand keys. The buffer holds two sets of 64
	// (the paper's b; scratch makes a larger one for wider digits) and
	// no more, as the stack's buffer is cleared on each call.
	var buf [2 * 64]int
	lens := scratch(buf[:], lv[:min(1, len(lv))], 2, 0)
	half := len(lens) / 2
	first := true
	var prev *bucketSet
	for k := len(lv) - 1; k >= 0; k-- {
		shift, mask := lv[k][0], lv[k][1]
		b := int(mask) + 1
		i := k & 1
		used := b
		if k == 0 {
			used = usedBuckets(bound, shift, mask)
		}
		sets[i] = newBucketSet(stores[i], lens[i*half:(i+1)*half], b, used, n)
		// Keep a store made for this digit, but not a given one cut to
		// it: a narrower digit (the least significant, with the bits left
		// over) needs fewer slots than the next pass into the same store,
		// which would then make a new one, page faults and all (at 2^28
		// keys one pass of five ran at 11.4 ns a key instead of 3.4).
		if len(sets[i].store) > len(stores[i]) {
			stores[i] = sets[i].store
		}
		next := &sets[i]
		if first {
			next.putAll(a, shift, mask)
			first = false
		} else {
			for d := range prev.lens {
				next.putAll(prev.bucket(d), shift, mask)
			}
		}
		prev = next
	}
	if prev == nil {
		return
	}
	off := 0
	for d := range prev.lens {
		off += copy(a[off:], prev.bucket(d))
	}
}

// RadixSortCount is the classic counting radix sort: per digit, count, then
// move every element to its place in the other array.
func RadixSortCount(a []uint32, keyBits, radixBits int) {
	RadixSortCountIn(a, nil, keyBits, radixBits)
}

// RadixSortCountIn is RadixSortCount using work (len(a) long) as its
// second array.
func RadixSortCountIn(a, work []uint32, keyBits, radixBits int) {
	if len(a) == 0 {
		return
	}
	lv := digitLevels(keyBits, radixBits)
	dst := work
	if len(dst) < len(a) {
		dst = make([]uint32, len(a))
	}
	src, dst := a, dst[:len(a)]
	var buf [scratchInts]int
	counts := scratch(buf[:], lv[:1], 1, 1)
	for k := len(lv) - 1; k >= 0; k-- {
		shift, mask := lv[k][0], lv[k][1]
		b := int(mask) + 1
		count := counts[:b+1]
		clear(count)
		CountDigits(src, count, shift, mask)
		for d := 1; d <= b; d++ {
			count[d] += count[d-1]
		}
		ScatterDigits(src, dst, count, shift, mask)
		src, dst = dst, src
	}
	if &src[0] != &a[0] {
		copy(a, src)
	}
}

// CountDigits adds to count[d+1] the keys of src whose digit (v>>shift)&mask
// is d: the counting loop of the counting sorts. count must have
// mask+2 entries.
//
// The shift is masked to 31 so the compiler need not guard shifts of 32 or
// more (three operations a key), and the loop is a function of its own so
// that its few values stay in registers whatever the caller keeps live.
//
// The count is bumped by address, count cut to its mask+2 entries first
// (which checks its length once): every index (v>>shift)&mask+1 lies
// within those, and the loop carries no check of its own.
//
//go:noinline
func CountDigits(src []uint32, count []int, shift, mask uint32) {
	shift &= 31
	c := unsafe.Pointer(unsafe.SliceData(count[:uint(mask)+2]))
	for _, v := range src {
		(*countAt(c, uint((v>>shift)&mask+1)))++
	}
}

// ScatterDigits moves each key of src to dst[pos[d]] for its digit d and
// bumps pos[d]: the distribution loop of the counting sorts. pos must have
// mask+1 entries, and dst room at every position they reach.
//
// The position is stored back before the key. The other order, which
// "dst[pos[d]] = v; pos[d]++" compiles to, re-reads pos[d] after the store
// to dst, and ran the loop at 2.0 ns a key in L2 against 0.8 for this one
// on the development machine (a C loop of the same shape: 0.7); beyond the
// caches the difference is 4.2 against 3.8 ns.
//
// pos is cut to the digit's mask+1 entries before the loop, so that the
// loop tests no index into it: with the test, the loop kept pos's length
// on the stack and read it back each key, and ran at 11.7 or 18.8 ns a
// line of keys into 64 buckets in L2 on the Zen 5 guest depending only
// on whether the linker started the function at a multiple of 64 bytes
// or 32 past one; without it, at 10.3 to 10.5 either way.
//
// The key is stored by address: the positions are the running counts of
// src's digits (CountDigits), which stay below len(src), and dst is
// checked once to be as long. With an index check on the store the
// counting radix sort ran 8 to 11 % slower than gcc -O2's loop of the
// same shape (scripts/probes/kernels.c, Zen 5 guest: 60 to 63 µs at 2^14
// keys against 58 for C, 54 to 58 by address). A pos whose positions
// do not come from src's counts may store past dst: it is for the
// counting sorts' and the calibration's own loops.
//
//go:noinline
func ScatterDigits(src, dst []uint32, pos []int, shift, mask uint32) {
	shift &= 31
	m := uint(mask)
	pos = pos[:m+1]
	if len(dst) < len(src) {
		panic("ScatterDigits: dst shorter than src")
	}
	d0 := unsafe.Pointer(unsafe.SliceData(dst))
	for _, v := range src {
		d := uint(v>>shift) & m
		p := pos[d]
		pos[d] = p + 1
		*keyAt(d0, p) = v
	}
}
