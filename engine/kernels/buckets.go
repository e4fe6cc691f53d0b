package kernels

// Bucket and radix sorts of the MBRAM paper Fig. 5 and Appendix d–e, on keys
// uniform in 0..N−1 with b buckets per pass. A key's digits are base b;
// there are digits(N, b) of them (⌈log_b N⌉ for the paper's N = 8Mi, b =
// 64: 4). None of these sorts compares keys, so none reports a branch.

// radixEnv holds the digit arithmetic shared by the four sorts.
type radixEnv struct {
	b   uint32
	d   int      // digits per key
	div []uint32 // div[k] = b^k
}

func (e *env) radix() radixEnv {
	r := radixEnv{b: uint32(e.p.Buckets), d: int(digits(e.p.N, e.p.Buckets))}
	p := uint64(1)
	for k := 0; k < r.d; k++ {
		r.div = append(r.div, uint32(min(p, 1<<32-1)))
		p *= uint64(r.b)
	}
	return r
}

// digit k of v counting from the least significant, 0 <= k < d.
func (r radixEnv) digit(v uint32, k int) uint32 { return v / r.div[k] % r.b }

// bucketSet is b buckets, each an array of virtual capacity n words (the
// simple sorts do not count first, so each bucket must be able to hold
// every key). Only the addresses are that large; the values live in
// slices that grow as needed.
type bucketSet struct {
	base uint64
	n    int
	vals [][]uint32
}

func (e *env) newBucketSet(b, n int) *bucketSet {
	bs := &bucketSet{n: n, vals: make([][]uint32, b)}
	bs.base = e.alloc(0)
	e.next += uint64(b) * uint64(n) << e.wlog
	return bs
}

func (e *env) bucketAddr(bs *bucketSet, j, i int) uint64 {
	return bs.base + (uint64(j)*uint64(bs.n)+uint64(i))<<e.wlog
}

// push appends v to bucket j: a write to the bucket's next free word.
func (e *env) push(bs *bucketSet, j uint32, v uint32) {
	e.s.Write(e.bucketAddr(bs, int(j), len(bs.vals[j])))
	bs.vals[j] = append(bs.vals[j], v)
}

// runBucket is the simple bucket sort: distribute by the most significant
// digit into b buckets, sort each bucket the same way on the next digit
// (depth first, so a bucket that fits in the cache is sorted there), and
// concatenate the buckets into the output when the digits run out or a
// bucket holds one key.
func runBucket(e *env) error {
	a, want := e.sortInput()
	r := e.radix()
	levels := make([]*bucketSet, r.d)
	for k := range levels {
		levels[k] = e.newBucketSet(int(r.b), e.n)
	}
	e.bucketSimple(r, levels, a.v, a.base, r.d-1, a, 0)
	return checkSorted(a.v, want)
}

// bucketSimple sorts src (at srcBase) on digits k down to 0 into
// out[pos:pos+len(src)]. Level d−1−k's buckets are reused by every call at
// that depth.
func (e *env) bucketSimple(r radixEnv, levels []*bucketSet, src []uint32, srcBase uint64, k int, out array, pos int) {
	s, w := e.s, e.wlog
	n := len(src)
	if k < 0 || n <= 1 {
		for i := 0; i < n; i++ {
			s.Read(srcBase + uint64(i)<<w)
			e.write(out, pos+i, src[i])
		}
		return
	}
	bs := levels[r.d-1-k]
	for j := range bs.vals {
		bs.vals[j] = bs.vals[j][:0]
	}
	for i := 0; i < n; i++ {
		s.Read(srcBase + uint64(i)<<w)
		v := src[i]
		e.push(bs, r.digit(v, k), v)
	}
	for j := range bs.vals {
		e.bucketSimple(r, levels, bs.vals[j], e.bucketAddr(bs, j, 0), k-1, out, pos)
		pos += len(bs.vals[j])
	}
}

// runBucketCount is the distribution-count bucket sort: per subarray, a
// counting pass sizes the buckets, the keys are distributed into one
// array of the same size at the counted offsets, and each bucket is sorted
// the same way on the next digit, the two arrays exchanging roles at each
// level.
func runBucketCount(e *env) error {
	a, want := e.sortInput()
	t := e.newArray(make([]uint32, e.n))
	r := e.radix()
	counts := make([]array, r.d)
	for k := range counts {
		counts[k] = e.newArray(make([]uint32, r.b))
	}
	e.bucketCount(r, counts, a, t, a, 0, e.n, r.d-1)
	return checkSorted(a.v, want)
}

// bucketCount sorts src[lo:hi] on digits k down to 0 into out[lo:hi],
// using dst as the other array.
func (e *env) bucketCount(r radixEnv, counts []array, src, dst, out array, lo, hi, k int) {
	if k < 0 || hi-lo <= 1 {
		if src.base != out.base {
			for i := lo; i < hi; i++ {
				e.write(out, i, e.read(src, i))
			}
		}
		return
	}
	cnt := counts[r.d-1-k]
	e.countAndPlace(r, cnt, src, dst, lo, hi, k)
	// cnt[j] is now the end of bucket j, relative to lo.
	start := 0
	for j := 0; j < int(r.b); j++ {
		end := int(cnt.v[j])
		e.bucketCount(r, counts, dst, src, out, lo+start, lo+end, k-1)
		start = end
	}
}

// countAndPlace is one distribution-count pass over src[lo:hi] on digit
// k into dst[lo:hi]: clear the counts, count, turn the counts into
// starting offsets, and place each key at its bucket's next offset. On
// return cnt[j] holds the end of bucket j.
func (e *env) countAndPlace(r radixEnv, cnt, src, dst array, lo, hi, k int) {
	for j := 0; j < int(r.b); j++ {
		e.write(cnt, j, 0)
	}
	for i := lo; i < hi; i++ {
		d := int(r.digit(e.read(src, i), k))
		e.write(cnt, d, e.read(cnt, d)+1)
	}
	sum := uint32(0)
	for j := 0; j < int(r.b); j++ {
		c := e.read(cnt, j)
		e.write(cnt, j, sum)
		sum += c
	}
	for i := lo; i < hi; i++ {
		v := e.read(src, i)
		d := int(r.digit(v, k))
		p := e.read(cnt, d)
		e.write(dst, lo+int(p), v)
		e.write(cnt, d, p+1)
	}
}

// runRadix is the simple radix sort: least significant digit first, each
// pass distributing the keys into b buckets, read back in bucket order by
// the next pass; two sets of buckets alternate, and the last pass's
// buckets are concatenated into the output.
func runRadix(e *env) error {
	a, want := e.sortInput()
	r := e.radix()
	sets := [2]*bucketSet{e.newBucketSet(int(r.b), e.n), e.newBucketSet(int(r.b), e.n)}
	s, w := e.s, e.wlog
	for i := 0; i < e.n; i++ {
		v := e.read(a, i)
		e.push(sets[0], r.digit(v, 0), v)
	}
	for k := 1; k < r.d; k++ {
		from, to := sets[(k-1)%2], sets[k%2]
		for j := range to.vals {
			to.vals[j] = to.vals[j][:0]
		}
		for j, bucket := range from.vals {
			base := e.bucketAddr(from, j, 0)
			for i, v := range bucket {
				s.Read(base + uint64(i)<<w)
				e.push(to, r.digit(v, k), v)
			}
		}
	}
	last := sets[(r.d-1)%2]
	pos := 0
	for j, bucket := range last.vals {
		base := e.bucketAddr(last, j, 0)
		for i, v := range bucket {
			s.Read(base + uint64(i)<<w)
			e.write(a, pos, v)
			pos++
		}
	}
	return checkSorted(a.v, want)
}

// runRadixCount is the distribution-count radix sort: per digit, least
// significant first, a counting pass and a placing pass from one array to
// the other; a final copy when the keys end in the scratch array.
func runRadixCount(e *env) error {
	a, want := e.sortInput()
	t := e.newArray(make([]uint32, e.n))
	r := e.radix()
	cnt := e.newArray(make([]uint32, r.b))
	src, dst := a, t
	for k := 0; k < r.d; k++ {
		e.countAndPlace(r, cnt, src, dst, 0, e.n, k)
		src, dst = dst, src
	}
	if src.base != a.base {
		for i := 0; i < e.n; i++ {
			e.write(a, i, e.read(src, i))
		}
	}
	return checkSorted(a.v, want)
}
