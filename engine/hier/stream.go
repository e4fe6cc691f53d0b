package hier

// farLine marks a ring entry that is no stream's end: lines are below
// 2^62, so no line is next to it.
const farLine = 1 << 63

// filterBits sizes the filter of stream ends.
const filterBits = 12

// bucket is the filter's bucket of a line: a multiplicative hash, since
// arrays a power of two apart have lines with the same low bits (the
// permutation product's X and Z), which would share a bucket.
func bucket(line uint64) uint64 { return (line * 0x9E3779B97F4A7C15) >> (64 - filterBits) }

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
	cnt [1 << filterBits]uint8
	at  [1 << filterBits]uint8
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
	s.cnt = [1 << filterBits]uint8{}
	s.at = [1 << filterBits]uint8{}
	s.wpos = 0
}

// fill records the fill of line and reports whether it is sequential.
func (s *streams) fill(line uint64) bool {
	w := s.wpos & 255
	ends := &s.ends
	if old := ends[w]; old != farLine {
		s.cnt[bucket(old)]--
		ends[w] = farLine
	}
	seq := false
	lo, hi := s.cnt[bucket(line-1)], s.cnt[bucket(line+1)]
	if lo|hi != 0 {
		// The latest end next to line among the K−1 fills before w: found
		// at once when each neighbour's bucket holds one end or none, by a
		// scan of the ring otherwise.
		p, ok := s.find(line-1, lo)
		q, ok2 := s.find(line+1, hi)
		if ok && ok2 {
			if q >= 0 && (p < 0 || s.age(q, w) < s.age(p, w)) {
				p = q
			}
		} else {
			p = s.scan(line, w)
		}
		if p >= 0 {
			s.cnt[bucket(ends[p&255])]--
			ends[p&255] = farLine
			seq = true
		}
	}
	ends[w] = line
	s.cnt[bucket(line)]++
	s.at[bucket(line)] = uint8(w)
	if w++; w == s.k {
		w = 0
	}
	s.wpos = w
	return seq
}

// find looks for the end x, c being the count of ends in its bucket:
// the end's ring index, or −1 for none, and ok when that is certain.
func (s *streams) find(x uint64, c uint8) (int, bool) {
	switch c {
	case 0:
		return -1, true
	case 1:
		if p := int(s.at[bucket(x)]); p < s.k && s.ends[p&255] == x {
			return p, true
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
