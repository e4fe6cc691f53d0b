package hier

import "math/bits"

// entry is one line ever accessed, in the open-addressed table of a stack:
// its key (line+1, so that the zero entry is empty), its position on the
// time line, and two bits for each level of the stack (bit j for its j-th
// level): dirty, written since the line was last filled into that level,
// and seq, that fill was sequential. 16 bytes, four to a host cache line.
type entry struct {
	key   uint64
	pos   uint32
	dirty uint8
	seq   uint8
	_     uint16
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
type stack struct {
	shift uint   // log2 of the line size
	mru   uint64 // the line of the last access, or noLine
	mruE  int    // its entry in table

	// The table of lines, open addressing with linear probing, at most
	// half full; hashed by the top tbits bits of a multiplicative hash.
	table []entry
	tmask uint64
	tbits uint
	count int64 // distinct lines, the marks

	// The time line: marks in bits, counts of the words before the head
	// word (the word of position t) in the Fenwick tree (1-based, tree[i]
	// covers words i−lowbit(i) .. i−1), and t, the next position.
	bits []uint64
	tree []int32
	t    uint64

	hist  []int64 // hist[d]: accesses at stack distance d
	colds int64   // first accesses

	// The levels of the hierarchy with this line size: first is the
	// index of the first in Sim.lv, lines their numbers of lines
	// (increasing), all a mask of their bits in entry.dirty.
	first int
	lines []int64
	all   uint8
}

const (
	minTable = 1 << 10 // entries
	minWords = 1 << 6  // words of the time line (4096 positions)
	// smallSpan is the number of words after a line's word up to which
	// its distance is counted by popcounts instead of the tree.
	smallSpan = 8
)

func newStack(shift uint, first int, lines []int64) stack {
	k := stack{shift: shift, first: first, lines: lines, all: uint8(1)<<len(lines) - 1}
	k.table = make([]entry, minTable)
	k.tmask = minTable - 1
	k.tbits = uint(bits.TrailingZeros(minTable))
	k.bits = make([]uint64, minWords)
	k.tree = make([]int32, minWords+1)
	k.hist = make([]int64, minTable/2)
	k.mru, k.mruE = noLine, -1
	return k
}

// reset forgets every line, keeping the memory.
func (k *stack) reset() {
	clear(k.table)
	clear(k.bits)
	clear(k.tree)
	clear(k.hist)
	k.count, k.t, k.colds = 0, 0, 0
	k.mru, k.mruE = noLine, -1
}

func hash(line uint64, tbits uint) uint64 {
	return (line * 0x9E3779B97F4A7C15) >> (64 - tbits)
}

// access records an access to line, which is not k.mru, and returns its
// stack distance (cold for a first access) and its entry's index. The
// entry's bits are the caller's to update.
func (k *stack) access(line uint64) (int64, int) {
	key := line + 1
	i := hash(line, k.tbits&63)
	tb := k.table
	m := k.tmask
	for {
		e := &tb[i&m]
		if e.key == key {
			d := k.distance(uint64(e.pos))
			k.unmark(uint64(e.pos))
			e.pos = uint32(k.t)
			k.mark()
			k.hist[d]++
			return d, int(i & m)
		}
		if e.key == 0 {
			break
		}
		i++
	}
	// A new line.
	k.colds++
	k.count++
	if k.count*2 > int64(len(tb)) {
		k.grow()
		tb, m = k.table, k.tmask
		for i = hash(line, k.tbits&63); tb[i&m].key != 0; i++ {
		}
	}
	e := &tb[i&m]
	e.key, e.pos = key, uint32(k.t)
	k.mark()
	return cold, int(i & m)
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
	return d + k.count - s
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

// compact renumbers the marked positions 0..count−1 in order, growing
// the time line to at least twice the lines first.
func (k *stack) compact() {
	words := len(k.bits)
	// rank[w] is the marks in words before w; the tree's storage serves.
	rank := k.tree[:words]
	r := int32(0)
	for w, b := range k.bits {
		rank[w] = r
		r += int32(bits.OnesCount64(b))
	}
	for i := range k.table {
		e := &k.table[i]
		if e.key == 0 {
			continue
		}
		p := uint64(e.pos)
		w := p >> 6
		e.pos = uint32(int64(rank[w]) + int64(bits.OnesCount64(k.bits[w]&(1<<(p&63)-1))))
	}
	if need := 2 * k.count; need > int64(words)*64 {
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
	full := uint64(k.count) >> 6
	for w := uint64(0); w < full; w++ {
		k.bits[w] = ^uint64(0)
	}
	if rem := uint64(k.count) & 63; rem != 0 {
		k.bits[full] = 1<<rem - 1
	}
	k.t = uint64(k.count)
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

// grow doubles the table (and the histogram, which needs one bin per
// line) and forgets the most recently used entry's index.
func (k *stack) grow() {
	old := k.table
	n := 2 * len(old)
	k.table = make([]entry, n)
	k.tmask = uint64(n - 1)
	k.tbits++
	for _, e := range old {
		if e.key == 0 {
			continue
		}
		i := hash(e.key-1, k.tbits&63)
		for k.table[i&k.tmask].key != 0 {
			i++
		}
		k.table[i&k.tmask] = e
	}
	h := make([]int64, n/2)
	copy(h, k.hist)
	k.hist = h
	k.mru, k.mruE = noLine, -1
}
