package hier

// farLine marks a ring entry that is no stream's end: lines are below
// 2^62, so no line is next to it.
const farLine = 1 << 63

// filterBits sizes the filter of stream ends.
const filterBits = 12

// bucket is the filter's bucket of a line: a multiplicative hash, since
// arrays a power of two apart have lines with the same low bits (the
// permutation product's X and Z), which would share a bucket.
func bucket(line uint64) uint64 { return (line * hashMul) >> (64 - filterBits) }

const hashMul = 0x9E3779B97F4A7C15

// streams tells the sequential fills of one level from the random ones by
// the stream rule of engine/sim without its cap on the number of streams
// (see doc.go): the region is the level's last K fills, a ring holding
// each fill's line while it is the end of its stream; a fill next to an
// end of the region (either direction) continues that stream, the latest
// such end, and is sequential.
type streams struct {
	k    int
	wpos int // the oldest fill, which the next one replaces
	// ends[0..k−1] is the ring; an array of 256 so that an index masked
	// to a byte needs no bounds check.
	ends [256]uint64
	// cnt counts the ends by bucket: a random fill whose neighbours'
	// buckets hold no end skips the scan of the ring. at is the ring
	// index of the end added last to a bucket: when the bucket holds
	// one end, that is it, and a fill continues its stream without a
	// scan.
	// cnt's upper half is noBucket's counter, and padding.
	cnt [2 << filterBits]uint8
	at  [1 << filterBits]uint8
	// eb[i] is the bucket of ends[i], or noBucket when that is farLine,
	// so that the oldest fill leaves the filter without a test or a
	// hash: noBucket's counter counts nothing any fill reads.
	eb [256]uint16
}

// noBucket is streams.eb of a ring entry that is no stream's end.
const noBucket = 1 << filterBits

// drop takes the end at ring index p out of the filter and the ring.
func (s *streams) drop(p int) {
	s.cnt[s.eb[p&255]&(2<<filterBits-1)]--
	s.ends[p&255] = farLine
	s.eb[p&255] = noBucket
}

func newStreams(k int) streams {
	s := streams{k: k}
	s.reset()
	return s
}

func (s *streams) reset() {
	for i := range s.ends {
		s.ends[i] = farLine
	}
	s.cnt = [2 << filterBits]uint8{}
	for i := range s.eb {
		s.eb[i] = noBucket
	}
	s.at = [1 << filterBits]uint8{}
	s.wpos = 0
}

// push makes line, of bucket b, the fill at w, the end of its stream,
// and moves w on.
func (s *streams) push(line, b uint64, w int) {
	s.wpos = s.put(line, b&(1<<filterBits-1), w)
}

// put makes line, of bucket b (below 1<<filterBits), the fill at w, the
// end of its stream, and returns the next w, for a loop that keeps w in
// a register.
func (s *streams) put(line, b uint64, w int) int {
	s.ends[w&255] = line
	s.eb[w&255] = uint16(b)
	s.cnt[b]++
	s.at[b] = uint8(w)
	if w++; w == s.k {
		w = 0
	}
	return w
}

// near ends the stream whose end among the K−1 fills before w is the
// latest next to line, if any, lo and hi being the counts of ends in the
// buckets of line−1 and line+1, and reports whether there was one. The
// entry at w is already out of the filter but not yet overwritten.
func (s *streams) near(line uint64, lo, hi uint8, w int) bool {
	// Found at once when each neighbour's bucket holds one end or none,
	// by a scan of the ring otherwise.
	p, ok := s.find(line-1, lo)
	q, ok2 := s.find(line+1, hi)
	if ok && ok2 {
		if q >= 0 && (p < 0 || s.age(q, w) < s.age(p, w)) {
			p = q
		}
	} else {
		p = s.scan(line, w)
	}
	if p < 0 {
		return false
	}
	s.drop(p)
	return true
}

// find looks for the end x, c being the count of ends in its bucket:
// the end's ring index, or −1 for none, and ok when that is certain.
func (s *streams) find(x uint64, c uint8) (int, bool) {
	switch c {
	case 0:
		return -1, true
	case 1:
		b := bucket(x)
		if p := int(s.at[b]); p < s.k {
			if e := s.ends[p&255]; e == x {
				return p, true
			} else if e != farLine && bucket(e) == b {
				// The end added last to the bucket is still there, so it
				// is the bucket's one end, and it is not x.
				return -1, true
			}
		}
	}
	return -1, false
}

// age is how many fills before w ring index p was filled.
func (s *streams) age(p, w int) int {
	if a := w - p; a > 0 {
		return a
	}
	return w - p + s.k
}

// scan is the ring index of the latest end next to line among the K−1
// fills before w, or −1.
func (s *streams) scan(line uint64, w int) int {
	p := w
	for d := 1; d < s.k; d++ {
		if p--; p < 0 {
			p = s.k - 1
		}
		if e := s.ends[p&255]; (line-e+1)&^2 == 0 {
			return p
		}
	}
	return -1
}
