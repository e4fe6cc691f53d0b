package sim

// refSim is the oracle: the model rules of the MBRAM paper's II.d written as
// directly as possible, with slices and linear searches and no shortcut
// (no most-recently-used fast path, no hash table, no ring buffer). It
// shares no code with Sim.
type refSim struct {
	cfg   Config
	k     int
	cache []refLine // most recently used first

	streams     []refStream // every stream ever started
	fillStreams []int       // stream of every fill, in order

	taken, notTaken map[int]int64 // majority predictor
	counter         map[int]int   // 2-bit predictor

	c Counts
}

type refLine struct {
	line  uint64
	dirty bool
	seq   bool
}

type refStream struct {
	end      uint64
	lastFill int
}

func newRef(c Config) *refSim {
	k := c.Window
	if k == 0 {
		k = DefaultWindow(c.Mu1)
	}
	return &refSim{cfg: c, k: k, taken: map[int]int64{}, notTaken: map[int]int64{}, counter: map[int]int{}}
}

func (r *refSim) access(addr uint64, write bool) {
	line := addr / uint64(r.cfg.Line)
	r.c.Accesses++
	if write {
		r.c.Writes++
	} else {
		r.c.Reads++
	}
	for i, l := range r.cache {
		if l.line == line {
			r.c.Hits++
			l.dirty = l.dirty || write
			// move to the front
			rest := append(append([]refLine{}, r.cache[:i]...), r.cache[i+1:]...)
			r.cache = append([]refLine{l}, rest...)
			return
		}
	}
	r.c.Misses++
	if int64(len(r.cache)) == r.cfg.Lines {
		victim := r.cache[len(r.cache)-1]
		r.cache = r.cache[:len(r.cache)-1]
		if victim.dirty {
			r.writeback(victim)
		}
	}
	seq := r.classify(line)
	if seq {
		r.c.SeqTransfers++
	} else {
		r.c.RandTransfers++
	}
	r.cache = append([]refLine{{line: line, dirty: write, seq: seq}}, r.cache...)
}

func (r *refSim) writeback(l refLine) {
	r.c.Writebacks++
	if l.seq {
		r.c.SeqTransfers++
	} else {
		r.c.RandTransfers++
	}
}

// classify applies the region rule of doc.go by brute force: the
// candidate streams are those with a fill among the previous k−1 fills;
// the fill continues the most recently continued candidate that ends next
// to it; it is sequential when it continues one and the last k fills
// belong to at most mu1 streams.
func (r *refSim) classify(line uint64) bool {
	fillNo := len(r.fillStreams) + 1
	from := len(r.fillStreams) - (r.k - 1)
	if from < 0 {
		from = 0
	}
	id := -1
	for _, i := range r.fillStreams[from:] {
		s := r.streams[i]
		if (line == s.end+1 || line+1 == s.end) && (id < 0 || s.lastFill > r.streams[id].lastFill) {
			id = i
		}
	}
	cont := id >= 0
	if !cont {
		r.streams = append(r.streams, refStream{})
		id = len(r.streams) - 1
	}
	r.streams[id].end = line
	r.streams[id].lastFill = fillNo
	r.fillStreams = append(r.fillStreams, id)
	from = len(r.fillStreams) - r.k
	if from < 0 {
		from = 0
	}
	var distinct []int
	for _, s := range r.fillStreams[from:] {
		seen := false
		for _, d := range distinct {
			if d == s {
				seen = true
			}
		}
		if !seen {
			distinct = append(distinct, s)
		}
	}
	return cont && len(distinct) <= r.cfg.Mu1
}

func (r *refSim) accessRange(addr, size uint64, write bool) {
	if size == 0 {
		size = 1
	}
	b := uint64(r.cfg.Line)
	for l := addr / b; l <= (addr+size-1)/b; l++ {
		r.access(l*b, write)
	}
}

func (r *refSim) branch(site int, taken bool) {
	r.c.Branches++
	if r.cfg.Predictor == TwoBit {
		c, ok := r.counter[site]
		if !ok {
			c = 1
		}
		if (c >= 2) != taken {
			r.c.Mispredictions++
		}
		if taken && c < 3 {
			c++
		}
		if !taken && c > 0 {
			c--
		}
		r.counter[site] = c
		return
	}
	predictTaken := r.taken[site] > r.notTaken[site]
	if predictTaken != taken {
		r.c.Mispredictions++
	}
	if taken {
		r.taken[site]++
	} else {
		r.notTaken[site]++
	}
}

func (r *refSim) finish() {
	for i := range r.cache {
		if r.cache[i].dirty {
			r.writeback(r.cache[i])
			r.cache[i].dirty = false
		}
	}
}
