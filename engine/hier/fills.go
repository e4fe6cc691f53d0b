package hier

// The fills of Batch's far accesses are queued and counted a level at a
// time: a level's stream rule and its counts are all its own (a level's
// fill reads and writes only its own words, level.ends, which the
// level's later write-backs and Finish read), so counting the queue's
// fills level by level, each
// level's in the order of the accesses, gives every count that counting
// each fill through all its levels at once would, while the level's
// state stays in registers. The dirty bits are the accesses' to keep in
// order: each queued fill takes those of its levels off its slot when it
// is queued, as misses does.

// fill is a queued fill: the line, its slot, the stack's levels it fills
// (misses), a bit each as in slot.dirty, the slot's dirty bits of those
// levels when it missed them, and 1 if the access was dependent.
type fill struct {
	line  uint64
	si    uint32
	miss  uint8
	dirty uint8
	dep   uint8
}

// fillLen is the length of a stack's queue of fills.
const fillLen = 256

// queueFill queues the fills of an access that misses the first n levels
// of the stack, e being the line's slot, index si.
func (k *stack) queueFill(e *slot, si int, line uint64, n int, f uint64) {
	mask := uint8(1<<uint(n&15) - 1)
	q := &k.fq[k.nf&(fillLen-1)]
	q.line, q.si, q.miss, q.dirty, q.dep = line, uint32(si), mask, e.dirty&mask, uint8(f>>1)&1
	e.dirty &^= mask
	// One fill of n levels, and one dependent one if it is, in the
	// upper half.
	k.byN[n&15] += 1 | (f>>1&1)<<32
	if k.nf++; k.nf == fillLen {
		k.drainFills()
	}
}

// drainFills counts the queued fills, a level at a time: level j's fills
// are those that miss more than j levels.
func (k *stack) drainFills() {
	ev := k.fq[:k.nf]
	k.nf = 0
	c := uint64(0) // the fills of more than j levels, dependent ones in the upper half
	top := 0       // the levels of the fill of most
	for j := len(k.lv) - 1; j >= 0; j-- {
		c += k.byN[j+1]
		k.byN[j+1] = 0
		if c != 0 && top == 0 {
			top = j + 1
		}
		l := &k.lv[j]
		l.fills += int64(uint32(c))
		l.DependentMisses += int64(c >> 32)
		l.DependentRandFills += int64(c >> 32)
	}
	for j := range k.lv[:top] {
		k.lv[j].maybeSweep()
		k.lv[j].fillAll(ev, k, uint8(1)<<j)
	}
}

// fillAll counts the fills of this level, bit in slot.dirty, among ev,
// the fills queued by stack k.
func (l *level) fillAll(ev []fill, k *stack, bit uint8) {
	for len(ev) > 0 {
		p := l.fillCommon(ev, bit)
		if p == len(ev) {
			return
		}
		x := &ev[p]
		seq, was := l.rule(k, int(x.si), x.line)
		l.counted(seq, was, x.dirty&bit != 0)
		if seq && x.dep != 0 {
			l.DependentRandFills-- // drainFills counted it random
		}
		ev = ev[p+1:]
	}
}

// fillCommon counts the fills of this level, bit in slot.dirty, among ev
// while the stream rule's common case holds for them (stream.go): the
// line is off its page's edges, its fill before is no end in the region,
// and the level has no older ends. It returns the index of the first
// other fill, not counted, or len(ev). The loop has few values live and
// no call, which would cost it its registers.
func (l *level) fillCommon(ev []fill, bit uint8) int {
	if len(l.older) != 0 {
		// Only rule adds to them: they stay until fillAll's next call.
		for p := range ev {
			if ev[p].miss&bit != 0 {
				return p
			}
		}
		return len(ev)
	}
	ends, lim, now2 := l.ends, l.win<<1-1, l.now<<1
	for p := range ev {
		x := &ev[p]
		if x.miss&bit == 0 {
			continue // a hit of this level
		}
		off := uint8(x.line)
		if off-1 >= pageLen-2 {
			l.now = now2 >> 1
			return p
		}
		// The line's word and its neighbours', on its page: a byte's
		// index needs no bounds check.
		pg := &ends[x.si>>pageBits]
		v := pg[off]
		if now2-v < lim {
			l.now = now2 >> 1
			return p
		}
		lo, hi := pg[off-1], pg[off+1]
		if x.dirty&bit != 0 {
			// The copy evicted dirty since the line's last access is
			// written back, sequential when the fill it came by was.
			l.Writebacks++
			l.SeqWritebacks += int64(v & 1)
		}
		if now2-lo < lim || now2-hi < lim {
			// The fill continues the later of the two ends.
			if now2-lo < now2-hi {
				pg[off-1] = now2 - deadAge<<1 | lo&1
			} else {
				pg[off+1] = now2 - deadAge<<1 | hi&1
			}
			pg[off] = now2 | 1
			l.SeqFills++
			if x.dep != 0 {
				l.DependentRandFills--
			}
		} else {
			pg[off] = now2
		}
		now2 += 2
	}
	l.now = now2 >> 1
	return len(ev)
}

// counted counts a fill the stream rule has classed (level.rule): the
// write-back of the line's copy when the level evicted it dirty,
// sequential when the fill before was, and the fill when sequential.
// fillCommon counts its fills itself.
func (l *level) counted(seq, was, dirty bool) {
	if dirty {
		l.Writebacks++
		if was {
			l.SeqWritebacks++
		}
	}
	if seq {
		l.SeqFills++
	}
}
