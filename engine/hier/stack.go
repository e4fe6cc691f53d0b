package hier

import "math/bits"

// slot is the state of one line ever accessed: its place on the time
// line, or its neighbours on the zones' list (zones.go), whether it is in
// use, a bit for each level of the stack (bit j for its j-th level),
// dirty: written since the line was last filled into that level, and its
// zone on the list. 12 bytes; each level keeps its own word per slot
// besides (level.ends).
type slot struct {
	// pos is the line's position on the time line (Config.Curves), or
	// else the slot of the line before it on the zones' list.
	pos uint32
	// next is the slot of the line after it on the zones' list.
	next  uint32
	used  bool
	dirty uint8
	// zone is 1 + the number of the stack's levels the line lies outside
	// of while it is on the zones' list, 0 while it is not.
	zone uint8
	_    uint8
}

// noLine marks the absence of a most recently used line: lines are
// addresses shifted right by two bits or more, so no line reaches it.
const noLine = ^uint64(0)

// cold is the stack distance of a first access: beyond every cache.
const cold = int64(1<<63 - 1)

// stack computes exact LRU stack distances for one line size, by the
// method of Bennett and Kruskal as Olken made it logarithmic: every line
// ever accessed has one position on a time line, the position of its last
// access; the positions in use are marked, and the stack distance of an
// access is the number of marks after the line's previous position (the
// distinct lines accessed since). The marks are a bitset, one bit per
// position, and a Fenwick tree counts the marks of the bitset's words (64
// positions each), so an access costs a popcount and two walks of the
// tree: O(log(positions/64)), on a tree of 4 bytes a word that stays in
// the host's cache far longer than a tree over positions would.
//
// The time line is compacted when it is full: the marked positions are
// renumbered in order, which keeps every distance, and the line is made at
// least twice the lines, so compaction costs O(1) per access amortised and
// memory stays proportional to the distinct lines, not the trace.
//
// The lines' slots are kept in pages of pageLen consecutive lines, found
// by their page number in a small open-addressed directory, and for the
// first 2^20 page numbers (the first 16 GiB of addresses at 64-byte
// lines, where a trace's arrays lie) in a flat table indexed by the page
// number besides, which takes no hash: the lines of an array share pages,
// so a line's slot is found without hashing the line and costs 8 bytes,
// and a scan's slots are adjacent in the host's memory.
type stack struct {
	shift uint // log2 of the line size

	// The directory: page number+1 (0 is empty) and page index, linear
	// probing, at most half full, hashed by the top dbits bits.
	dkey  []uint64
	dval  []int32
	dbits uint
	dlast uint64 // the page number of the last lookup, and its index
	dlidx int
	// flat is the directory again, by page number for the first ones
	// (below flatPages): page index + 1, or 0 for no page. The pages of
	// a trace's arrays lie there, and an index costs no hash.
	flat  []int32
	slots []slot // page i is slots[i*pageLen:][:pageLen]
	count int64  // distinct lines

	// The recent set: the recentLen most recently used lines (fewer at
	// first), most recent first, and their slots. They are not on the
	// time line: an access to one of them has its rank for distance and
	// moves nothing but these few words, and the others' distances
	// count them all. The least recent leaves the set when another line
	// enters it, and takes the next position of the time line, which is
	// where it belongs: it was used after every line there.
	rline [recentLen]uint64
	rslot [recentLen]int
	nr    int
	marks int64 // lines on the time line: count − nr

	// The time line: marks in bits, counts of the words before the head
	// word (the word of position t) in the Fenwick tree (1-based, tree[i]
	// covers words i−lowbit(i) .. i−1), and t, the next position.
	bits []uint64
	tree []int32
	t    uint64

	// The histogram of distances: hist[d] counts the accesses at
	// distance d since the last flush into hist64, which happens before
	// any bin can overflow; near counts the accesses to the recent set
	// apart, colds the first accesses.
	hist    []uint32
	hist64  []int64
	pending int64
	near    [recentLen]int64 // accesses to the recent set, by rank
	colds   int64
	// The distances not yet in hist: the bins are far apart in the
	// host's memory, and incrementing a queue of them in a loop lets the
	// host overlap their cache misses.
	queue [queueLen]uint32
	nq    int

	// The levels of the hierarchy with this line size, a part of Sim.lv
	// from index first, the lines of the first, and the mask of their
	// bits in slot.dirty.
	first  int
	lv     []level
	lines0 int64
	all    uint8

	// curves: the distances are computed (the time line above) for the
	// miss curve; otherwise the levels' misses come from the zones of an
	// LRU list (zones.go), and the time line and the histogram stay empty.
	curves bool
	zones

	// The fills queued by Batch (fills.go), counted at its end.
	fq [fillLen]fill
	nf int
	// byN[n] is the number of them that miss n levels, and in its upper
	// half the dependent ones among those.
	byN [16]uint64
}

const (
	pageBits = 8 // 256 lines a page, 2 KiB of slots
	pageLen  = 1 << pageBits
	minDir   = 1 << 6 // directory entries
	// flatPages bounds stack.flat: 4 MiB, the pages of the first 16 GiB
	// of addresses at 64-byte lines.
	flatPages = 1 << 20
	minWords  = 1 << 6  // words of the time line (4096 positions)
	minHist   = 1 << 10 // bins
	// smallSpan is the number of words after a line's word up to which
	// its distance is counted by popcounts instead of the tree.
	smallSpan = 8
	recentLen = 4
	queueLen  = 64
	// flushAt is the accesses after which hist is added into hist64:
	// fewer than 2^32, so no bin overflows.
	flushAt = 1<<32 - 1 - queueLen
)

func newStack(shift uint, first int, lv []level, curves bool) stack {
	k := stack{shift: shift, first: first, lv: lv, all: uint8(1)<<len(lv) - 1, curves: curves}
	k.dkey = make([]uint64, minDir)
	k.dval = make([]int32, minDir)
	k.dbits = uint(bits.TrailingZeros(minDir))
	if curves {
		k.bits = make([]uint64, minWords)
		k.tree = make([]int32, minWords+1)
		k.hist = make([]uint32, minHist)
	}
	k.dlast = noLine
	k.rline = [recentLen]uint64{noLine, noLine, noLine, noLine}
	k.lines0 = lv[0].lines
	return k
}

// setLevels gives the stack its levels, once they are all known.
func (k *stack) setLevels(lv []level) {
	k.lv = lv
	k.all = uint8(1)<<len(lv) - 1
	if !k.curves {
		k.zones = newZones(lv)
		k.headPage()
	}
}

// missed is how many of the stack's levels an access at distance d
// misses: those of at most d lines.
func (k *stack) missed(d int64) int {
	n := 0
	for n < len(k.lv) && d >= k.lv[n].lines {
		n++
	}
	return n
}

// reset forgets every line, keeping the memory.
func (k *stack) reset() {
	clear(k.dkey)
	clear(k.flat)
	k.slots = k.slots[:0]
	clear(k.bits)
	clear(k.tree)
	clear(k.hist)
	clear(k.hist64)
	k.count, k.t, k.pending, k.colds, k.nq, k.nr, k.marks, k.nf = 0, 0, 0, 0, 0, 0, 0, 0
	k.near = [recentLen]int64{}
	k.byN = [16]uint64{}
	k.dlast = noLine
	k.rline = [recentLen]uint64{noLine, noLine, noLine, noLine}
	if !k.curves {
		k.headPage()
	}
}

func hash(pn uint64, dbits uint) uint64 {
	return (pn * 0x9E3779B97F4A7C15) >> (64 - dbits)
}

// page is the index of the page of page number pn, added if new.
func (k *stack) page(pn uint64) int {
	if pn < uint64(len(k.flat)) && k.flat[pn] != 0 {
		return int(k.flat[pn]) - 1
	}
	if pn == k.dlast {
		return k.dlidx
	}
	i, found := k.probe(pn)
	if found {
		k.dlast, k.dlidx = pn, int(k.dval[i])
		return k.dlidx
	}
	// A new page, at the empty entry the probe stopped at.
	idx := len(k.slots) >> pageBits
	k.slots = append(k.slots, make([]slot, pageLen)...)
	for j := range k.lv {
		k.lv[j].addPage()
	}
	k.dkey[i], k.dval[i] = pn+1, int32(idx)
	if pn < flatPages {
		if pn >= uint64(len(k.flat)) {
			n := max(64, len(k.flat))
			for uint64(n) <= pn {
				n *= 2
			}
			k.flat = append(k.flat, make([]int32, n-len(k.flat))...)
		}
		k.flat[pn] = int32(idx) + 1
	}
	if 2*(idx+1) > len(k.dkey) {
		k.growDir()
	}
	k.dlast, k.dlidx = pn, idx
	return idx
}

// lookup is the slot of line, or −1 when no line of its page was ever
// accessed; it adds nothing.
func (k *stack) lookup(line uint64) int {
	i, found := k.probe(line >> pageBits)
	if !found {
		return -1
	}
	return int(k.dval[i])<<pageBits | int(line&(pageLen-1))
}

// probe is the directory entry of page number pn, and whether it holds
// it: the entry that does, or else the empty one the probe ends at.
func (k *stack) probe(pn uint64) (uint64, bool) {
	m := uint64(len(k.dkey) - 1)
	for i := hash(pn, k.dbits&63); ; i++ {
		switch k.dkey[i&m] {
		case pn + 1:
			return i & m, true
		case 0:
			return i & m, false
		}
	}
}

// growDir doubles the directory.
func (k *stack) growDir() {
	ok, ov := k.dkey, k.dval
	k.dkey = make([]uint64, 2*len(ok))
	k.dval = make([]int32, 2*len(ok))
	k.dbits++
	m := uint64(len(k.dkey) - 1)
	for j, key := range ok {
		if key == 0 {
			continue
		}
		i := hash(key-1, k.dbits&63)
		for k.dkey[i&m] != 0 {
			i++
		}
		k.dkey[i&m], k.dval[i&m] = key, ov[j]
	}
}

// recent moves entry i of the recent set, line in slot si, to the front
// and counts the access at distance i. It repeats enterRecent's shift
// rather than calling it: the call would keep recent from being inlined
// into the access paths.
func (k *stack) recent(i int, line uint64, si int) {
	switch i {
	case 3:
		k.rline[3], k.rslot[3] = k.rline[2], k.rslot[2]
		fallthrough
	case 2:
		k.rline[2], k.rslot[2] = k.rline[1], k.rslot[1]
		fallthrough
	case 1:
		k.rline[1], k.rslot[1] = k.rline[0], k.rslot[0]
	}
	k.rline[0], k.rslot[0] = line, si
	k.near[i&(recentLen-1)]++
}

// far records an access to line, which is not in the recent set, and
// returns its stack distance (cold for a first access) and its slot's
// index. The slot's bits are the caller's to update.
func (k *stack) far(line uint64) (int64, int) {
	si := k.page(line>>pageBits)<<pageBits | int(line&(pageLen-1))
	e := &k.slots[si]
	d := cold
	if e.used {
		p := uint64(e.pos)
		d = int64(k.nr) + k.distance(p)
		k.unmark(p)
		k.marks--
		k.queue[k.nq&(queueLen-1)] = uint32(d)
		if k.nq++; k.nq == queueLen {
			k.drain()
		}
	} else {
		e.used = true
		k.colds++
		k.count++
		if k.count > int64(len(k.hist)) {
			h := make([]uint32, 2*len(k.hist))
			copy(h, k.hist)
			k.hist = h
		}
	}
	// The line enters the recent set; the least recent line of a full set
	// takes the next position of the time line.
	n := k.nr
	if n == recentLen {
		n--
		k.slots[k.rslot[n]].pos = uint32(k.t)
		k.marks++
		k.mark()
	} else {
		k.nr++
	}
	switch n {
	case 3:
		k.rline[3], k.rslot[3] = k.rline[2], k.rslot[2]
		fallthrough
	case 2:
		k.rline[2], k.rslot[2] = k.rline[1], k.rslot[1]
		fallthrough
	case 1:
		k.rline[1], k.rslot[1] = k.rline[0], k.rslot[0]
	}
	k.rline[0], k.rslot[0] = line, si
	return d, si
}

// drain adds the queued distances to the histogram.
func (k *stack) drain() {
	h := k.hist
	for _, d := range k.queue[:k.nq] {
		h[d]++
	}
	k.pending += int64(k.nq)
	k.nq = 0
	if k.pending >= flushAt {
		k.flush()
	}
}

// flush adds hist into hist64 and clears it.
func (k *stack) flush() {
	if len(k.hist64) < len(k.hist) {
		h := make([]int64, len(k.hist))
		copy(h, k.hist64)
		k.hist64 = h
	}
	for d, v := range k.hist {
		k.hist64[d] += int64(v)
	}
	clear(k.hist)
	k.pending = 0
}

// distance is the number of marks after position p.
func (k *stack) distance(p uint64) int64 {
	w, hw := p>>6, k.t>>6
	bs := k.bits
	d := int64(bits.OnesCount64(bs[w] >> (p & 63) >> 1))
	if hw-w <= smallSpan {
		for v := w + 1; v <= hw; v++ {
			d += int64(bits.OnesCount64(bs[v]))
		}
		return d
	}
	// Marks in words after w: all of them but those of words 0..w.
	s := int64(0)
	tr := k.tree
	for i := w + 1; i > 0; i &= i - 1 {
		s += int64(tr[i])
	}
	return d + k.marks - s
}

// unmark clears position p.
func (k *stack) unmark(p uint64) {
	w := p >> 6
	k.bits[w] &^= 1 << (p & 63)
	if w < k.t>>6 {
		tr := k.tree
		for i := w + 1; i < uint64(len(tr)); i += i & -i {
			tr[i]--
		}
	}
}

// mark sets position t, the next one; when that completes a word, the
// word's count goes into the tree, and when the time line is full it is
// compacted.
func (k *stack) mark() {
	t := k.t
	w := t >> 6
	k.bits[w] |= 1 << (t & 63)
	t++
	k.t = t
	if t&63 == 0 {
		n := int32(bits.OnesCount64(k.bits[w]))
		tr := k.tree
		for i := w + 1; i < uint64(len(tr)); i += i & -i {
			tr[i] += n
		}
		if t>>6 == uint64(len(k.bits)) {
			k.compact()
		}
	}
}

// compact renumbers the marked positions 0..marks−1 in order, growing
// the time line to at least twice the marks first. The slots of the
// recent set hold stale positions, renumbered to no purpose: a line
// leaving the set gets a new one.
func (k *stack) compact() {
	words := len(k.bits)
	// rank[w] is the marks in words before w; the tree's storage serves.
	rank := k.tree[:words]
	r := int32(0)
	for w, b := range k.bits {
		rank[w] = r
		r += int32(bits.OnesCount64(b))
	}
	for i := range k.slots {
		e := &k.slots[i]
		if !e.used {
			continue
		}
		p := uint64(e.pos)
		w := p >> 6
		e.pos = uint32(int64(rank[w]) + int64(bits.OnesCount64(k.bits[w]&(1<<(p&63)-1))))
	}
	if need := 2 * k.marks; need > int64(words)*64 {
		n := words
		for int64(n)*64 < need {
			n *= 2
		}
		k.bits = make([]uint64, n)
		k.tree = make([]int32, n+1)
	} else {
		clear(k.bits)
		clear(k.tree)
	}
	// Positions 0..count−1 are marked: full words, then the head word.
	full := uint64(k.marks) >> 6
	for w := uint64(0); w < full; w++ {
		k.bits[w] = ^uint64(0)
	}
	if rem := uint64(k.marks) & 63; rem != 0 {
		k.bits[full] = 1<<rem - 1
	}
	k.t = uint64(k.marks)
	// The tree over the full words, built in linear time.
	tr := k.tree
	for i := uint64(1); i < uint64(len(tr)); i++ {
		if i-1 < full {
			tr[i] += 64
		}
		if j := i + i&-i; j < uint64(len(tr)) {
			tr[j] += tr[i]
		}
	}
}

// histogram is the accesses at each distance so far, cut after the last
// non-zero bin.
func (k *stack) histogram() []int64 {
	k.drain()
	n := max(len(k.hist), len(k.hist64))
	h := make([]int64, n)
	for d, v := range k.hist {
		h[d] = int64(v)
	}
	for d, v := range k.hist64 {
		h[d] += v
	}
	for d, v := range k.near {
		h[d] += v
	}
	for n > 0 && h[n-1] == 0 {
		n--
	}
	return h[:n]
}
