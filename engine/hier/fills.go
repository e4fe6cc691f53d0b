package hier

// The fills of Batch's far accesses are queued and counted a level at a
// time: a level's stream rule, its counts and bit j of the lines' seq
// are all its own (a level's fill reads and writes only its own ring and
// filter, and bit j of seq is read only by level j's later write-backs
// and by Finish), so counting the queue's fills level by level, each
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
		k.lv[j].fillAll(ev, k.slots, uint8(1)<<j)
	}
}

// fillAll counts the fills of this level, bit in slot.dirty, among ev,
// slots being the stack's slots.
func (l *level) fillAll(ev []fill, slots []slot, bit uint8) {
	for len(ev) > 0 {
		p := l.fillCommon(ev, slots, bit)
		if p == len(ev) {
			return
		}
		l.fillNear(&ev[p], slots, bit)
		ev = ev[p+1:]
	}
}

// fillCommon counts the fills of this level, bit in slot.dirty, among ev
// while they are the common one, a fill with no stream end in its
// neighbours' buckets; slots are the stack's slots. It returns the index
// of the first other fill, which has taken the oldest fill out of the
// region but is not counted yet, or len(ev). The loop has few values
// live and no call, which would cost it its registers.
func (l *level) fillCommon(ev []fill, slots []slot, bit uint8) int {
	w := l.st.wpos
	for p := range ev {
		x := &ev[p]
		if x.miss&bit == 0 {
			continue // a hit of this level
		}
		line := x.line
		// The oldest fill leaves the filter (and the ring when its
		// entry is overwritten, below or by fillNear).
		l.st.cnt[l.st.eb[w&255]&(2<<filterBits-1)]--
		h := line * hashMul
		lo, hi := (h-hashMul)>>(64-filterBits), (h+hashMul)>>(64-filterBits)
		b := h >> (64 - filterBits)
		if c := uint(l.st.cnt[lo]) | uint(l.st.cnt[hi])<<8; c != 0 {
			// A stream end in a neighbour's bucket. The common case, one
			// end in one of the two buckets, the latest added to it and
			// next to line (a scan's next line), continues that stream
			// here, as streams.near would; anything else is fillNear's.
			// The end added last to the bucket is not the one at w, just
			// taken out: every other end in the ring came after it.
			nb, nl := lo, line-1
			if c != 1 {
				nb, nl = hi, line+1
			}
			q := int(l.st.at[nb&(1<<filterBits-1)])
			if c != 1 && c != 1<<8 || l.st.ends[q&255] != nl {
				l.st.wpos = w
				return p
			}
			// The stream's end moves from nl to line: out of the filter
			// and the ring at q, in at w.
			l.st.drop(q)
			w = l.st.put(line, b, w)
			l.SeqFills++
			if x.dep != 0 {
				l.DependentRandFills--
			}
			e := &slots[x.si]
			if x.dirty&bit != 0 {
				l.writeback(e, bit)
			}
			e.seq |= bit
			continue
		}
		w = l.st.put(line, b, w)
		// A random fill: the line's seq bit of the level is cleared,
		// and most often it is clear already and the copy the level
		// evicted clean.
		if e := &slots[x.si]; (x.dirty|e.seq)&bit != 0 {
			if x.dirty&bit != 0 {
				l.writeback(e, bit)
			}
			e.seq &^= bit
		}
	}
	l.st.wpos = w
	return len(ev)
}

// fillNear counts the fill x of this level, bit in slot.dirty, which
// has a stream end in a neighbour's bucket, after fillCommon.
func (l *level) fillNear(x *fill, slots []slot, bit uint8) {
	line := x.line
	st := &l.st
	w := st.wpos
	st.ends[w&255], st.eb[w&255] = farLine, noBucket // out of the filter already
	seq := uint8(0)
	if st.near(line, st.cnt[bucket(line-1)], st.cnt[bucket(line+1)], w) {
		seq = bit
		l.SeqFills++
		if x.dep != 0 {
			l.DependentRandFills--
		}
	}
	st.push(line, bucket(line), w)
	e := &slots[x.si]
	if x.dirty&bit != 0 {
		l.writeback(e, bit)
	}
	e.seq = e.seq&^bit | seq
}

// writeback counts the write-back of the copy of the line of slot e that
// this level, bit in slot.dirty, evicted dirty since the line's last
// access: it is sequential when the fill the copy left by was.
func (l *level) writeback(e *slot, bit uint8) {
	l.Writebacks++
	if e.seq&bit != 0 {
		l.SeqWritebacks++
	}
}
