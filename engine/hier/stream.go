package hier

// farLine marks a ring entry that is no stream's end: lines are below
// 2^62, so no line is next to it.
const farLine = 1 << 63

// filterBits sizes the filter of stream ends by their low bits.
const filterBits = 10

// streams tells the sequential fills of one level from the random ones by
// the stream rule of engine/sim without its cap on the number of streams
// (see doc.go): the region is the level's last K fills, a ring holding
// each fill's line while it is the end of its stream; a fill next to an
// end of the region (either direction) continues that stream, the latest
// such end, and is sequential.
type streams struct {
	k    int
	wpos int // the oldest fill, which the next one replaces
	ends []uint64
	// cnt counts the ends by their low filterBits bits: a random fill
	// whose neighbours match no end skips the scan of the ring.
	cnt [1 << filterBits]uint8
}

func newStreams(k int) streams {
	s := streams{k: k, ends: make([]uint64, k)}
	s.reset()
	return s
}

func (s *streams) reset() {
	for i := range s.ends {
		s.ends[i] = farLine
	}
	s.cnt = [1 << filterBits]uint8{}
	s.wpos = 0
}

// fill records the fill of line and reports whether it is sequential.
func (s *streams) fill(line uint64) bool {
	const fm = 1<<filterBits - 1
	w := s.wpos
	ends := s.ends
	if old := ends[w]; old != farLine {
		s.cnt[old&fm]--
	}
	seq := false
	if s.cnt[(line-1)&fm]|s.cnt[(line+1)&fm] != 0 {
		// The latest end next to line among the K−1 fills before w.
		p := w
		for d := 1; d < s.k; d++ {
			if p--; p < 0 {
				p = s.k - 1
			}
			if e := ends[p]; (line-e+1)&^2 == 0 {
				s.cnt[e&fm]--
				ends[p] = farLine
				seq = true
				break
			}
		}
	}
	ends[w] = line
	s.cnt[line&fm]++
	if w++; w == s.k {
		w = 0
	}
	s.wpos = w
	return seq
}
