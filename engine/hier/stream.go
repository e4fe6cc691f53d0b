package hier

// The stream rule of a level (doc.go, "Sequential and random fills"),
// kept by line rather than by fill. The rule's region is the level's
// last K fills, a ring holding each fill's line while it is the end of
// its stream; a fill next to an end in the ring continues the latest
// such stream. The ring is not kept: each line of the stack has, per
// level, the number of its latest fill into the level (a word of
// level.ends, below), made at least K fills old once that fill is no
// stream's end any more. A fill of line L asks only the two
// slots beside its own, L−1 and L+1, which lie on the same page of
// slots but at a page's two edges: it is sequential when one of them
// was filled among the previous K−1 fills and is still an end, and
// continues the later of the two. No hash, no count to keep, and an end
// leaves the region by growing old, not by being taken out.
//
// What a slot cannot hold is a second end of the same line: a line
// filled again while its earlier fill is still an end in the region (it
// left the level, through hits on other lines, within K−1 fills). The
// earlier end then goes to a short list of its own (level.older), which
// every fill consults while it is not empty; its ends leave it as they
// grow old, after at most K−1 fills. So the rule gives exactly what the
// ring would.

// A level's end of a slot is one 32-bit word: the number of the line's
// latest fill into the level, mod 2^31, shifted left by one, and in the
// low bit whether that fill was sequential, which the write-back of the
// copy it brought in takes after it (doc.go, "Write-backs"). The fill is
// a stream's end while its age is under K fills and it has not been
// continued; continuing it, or a sweep, makes it deadAge old, keeping the
// bit. With now2 the next fill's number shifted as the words are, a word
// v of age A and bit s has now2 − v = 2A − s, under 2K − 1 exactly when A
// is under K, and ordered as the ages are.

// deadAge is the age, in fills, an end is given when it stops being one
// (or never was): far beyond any region, and still below 2^31 fills
// after a sweep's period (level.maybeSweep).
const deadAge = 1 << 30

// sweepEvery is the fills of a level between two sweeps of its ends, so
// that every word stays under 2^31 fills old and its age mod 2^31 is its
// age. A drain counts at most fillLen fills of a level before its next
// check, so the period is at most sweepEvery + fillLen. A variable so
// that the tests can sweep often.
var sweepEvery uint32 = 1 << 28

// olderEnd is an end of a line in the region that is not its latest fill:
// the line and the fill's number.
type olderEnd struct {
	line uint64
	t    uint32
}

// resetStreams forgets the level's fills, keeping the memory.
func (l *level) resetStreams() {
	l.ends = l.ends[:0]
	l.older = l.older[:0]
	l.now, l.swept = 0, 0
}

// addPage gives the level's ends a page of slots never filled.
func (l *level) addPage() {
	var pg [pageLen]uint32
	for i := range pg {
		pg[i] = l.now<<1 - deadAge<<1
	}
	l.ends = append(l.ends, pg)
}

// maybeSweep, called before each fill or drain of fills, makes the ends
// no longer in the region deadAge old every sweepEvery fills.
func (l *level) maybeSweep() {
	if l.now-l.swept < sweepEvery {
		return
	}
	now2, lim := l.now<<1, l.win<<1-1
	for p := range l.ends {
		pg := &l.ends[p]
		for i, v := range pg {
			if now2-v >= lim {
				pg[i] = now2 - deadAge<<1 | v&1
			}
		}
	}
	l.swept = l.now
}

// rule applies the stream rule to a fill of line, in slot si of stack k,
// the level's next fill: it ends the stream the fill continues, if any,
// makes the line an end, and advances the level's count. It reports
// whether the fill is sequential and whether the line's fill before it
// was. It handles every case, the page's edges and the older ends
// included; fillCommon does the common one itself.
func (l *level) rule(k *stack, si int, line uint64) (seq, was bool) {
	now, win := l.now, l.win
	now2, lim := now<<1, win<<1-1
	if len(l.older) > 0 {
		o := l.older[:0]
		for _, e := range l.older {
			if (now-e.t)&(1<<31-1) < win {
				o = append(o, e)
			}
		}
		l.older = o
	}
	// The latest end beside the line: in the slot of line±1 when that
	// is still an end (the latest of its line), or else among the older
	// ends of that line. Ages are compared as now2 − v.
	best := lim
	var bestEnd *uint32
	bestOlder := -1
	for _, nb := range [2]uint64{line - 1, line + 1} {
		if ns := neighbour(k, si, line, nb); ns >= 0 {
			if v := l.end(ns); now2-*v < lim {
				if a := now2 - *v; a < best {
					best, bestEnd, bestOlder = a, v, -1
				}
				continue
			}
		}
		for i, e := range l.older {
			if a := (now - e.t) & (1<<31 - 1) << 1; e.line == nb && a < best {
				best, bestEnd, bestOlder = a, nil, i
			}
		}
	}
	switch {
	case bestEnd != nil:
		*bestEnd = now2 - deadAge<<1 | *bestEnd&1
	case bestOlder >= 0:
		l.older = append(l.older[:bestOlder], l.older[bestOlder+1:]...)
	}
	seq = best < lim
	own := l.end(si)
	if v := *own; now2-v < lim {
		// The line's earlier fill is still an end.
		l.older = append(l.older, olderEnd{line: line, t: v >> 1})
	}
	was = *own&1 != 0
	*own = now2
	if seq {
		*own |= 1
	}
	l.now++
	return seq, was
}

// end is the word of slot si.
func (l *level) end(si int) *uint32 { return &l.ends[si>>pageBits][si&(pageLen-1)] }

// neighbour is the slot of line nb, next to line in slot si of stack k,
// or −1 when no line of nb's page was ever accessed.
func neighbour(k *stack, si int, line, nb uint64) int {
	if nb>>pageBits == line>>pageBits {
		return si + int(nb) - int(line)
	}
	return k.lookup(nb)
}
