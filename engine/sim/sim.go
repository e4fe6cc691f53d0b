package sim

import (
	"fmt"
	"math/bits"

	"memwall/engine/machine"
)

// Predictor selects the branch predictor.
type Predictor int

const (
	// Majority is the MBRAM paper's idealised rule (section II.d, rule 3): per
	// site, predict the outcome seen most often so far.
	Majority Predictor = iota
	// TwoBit is a 2-bit saturating counter per site, the classic hardware
	// predictor.
	TwoBit
)

// ParsePredictor reads "majority" or "2bit".
func ParsePredictor(s string) (Predictor, error) {
	switch s {
	case "majority", "":
		return Majority, nil
	case "2bit", "two-bit":
		return TwoBit, nil
	}
	return 0, fmt.Errorf("predictor: must be majority or 2bit; got %q", s)
}

func (p Predictor) String() string {
	if p == TwoBit {
		return "2bit"
	}
	return "majority"
}

// Limits of a configuration. The simulator's own tables take about 40
// to 60 bytes a line, but grow with the lines a run has filled, not with
// the cache (see grow): a cache of 2^25 lines (2 GiB of 64-byte lines,
// the shared last level of a large host) costs that memory only in a run
// that touches 2 GiB of data. The slot indices stay in int32.
const (
	MaxLines  = 1 << 25
	MaxWindow = 64
)

// initLines is the slots a simulator starts with (or all of the cache's
// lines when fewer); they double as a run fills them. A variable so that
// a test can start from one slot and grow at every power of two.
var initLines int64 = 1 << 12

// Config is everything the simulator charges by. Sizes are bytes,
// bandwidths bytes per second, times seconds.
type Config struct {
	Line       int64 // B, a power of two
	Lines      int64 // mu2 = C/B
	Mu1        int   // sequential streams allowed in a region
	Window     int   // K, the region length in line fills; 0 means DefaultWindow(Mu1)
	Beta1      float64
	Beta2      float64
	Mispredict float64 // m
	Predictor  Predictor
}

// DefaultWindow is the region length used when Config.Window is 0: eight
// fills, or mu1+1 when mu1 is larger (see doc.go for the reason).
func DefaultWindow(mu1 int) int {
	if mu1 >= MaxWindow {
		return MaxWindow
	}
	if mu1+1 > 8 {
		return mu1 + 1
	}
	return 8
}

// ConfigFor takes the parameters of a machine.
func ConfigFor(m machine.Machine, p Predictor) Config {
	return Config{Line: m.B, Lines: m.Mu2(), Mu1: m.Mu1, Beta1: m.Beta1, Beta2: m.Beta2, Mispredict: m.M, Predictor: p}
}

// Validate names the first bad field.
func (c Config) Validate() error {
	switch {
	case c.Line < machine.MinLine || c.Line&(c.Line-1) != 0 || c.Line > machine.MaxLine:
		return fmt.Errorf("line: must be a power of two from %d B to %d B; got %d", machine.MinLine, machine.MaxLine, c.Line)
	case c.Lines < 1 || c.Lines > MaxLines:
		return fmt.Errorf("cache: must hold from 1 to %d lines (C/B); got %d", MaxLines, c.Lines)
	case c.Mu1 < 1 || c.Mu1 > machine.MaxMu1:
		return fmt.Errorf("mu1: must be from 1 to %d; got %d", machine.MaxMu1, c.Mu1)
	case c.Window != 0 && (c.Window <= c.Mu1 || c.Window > MaxWindow):
		return fmt.Errorf("window: the region must be longer than mu1 (%d) and at most %d fills; got %d", c.Mu1, MaxWindow, c.Window)
	case !(c.Beta1 > 0) || c.Beta1 > machine.MaxBandwidth:
		return fmt.Errorf("beta1: must be a positive bandwidth up to 1 PB/s; got %g", c.Beta1)
	case !(c.Beta2 > 0) || c.Beta2 > machine.MaxBandwidth:
		return fmt.Errorf("beta2: must be a positive bandwidth up to 1 PB/s; got %g", c.Beta2)
	case !(c.Mispredict >= 0) || c.Mispredict > machine.MaxMispredict:
		return fmt.Errorf("mispredict: must be from 0 to 1 µs; got %g", c.Mispredict)
	case c.Predictor != Majority && c.Predictor != TwoBit:
		return fmt.Errorf("predictor: must be majority or 2bit")
	}
	return nil
}

// Counts are the event counts of a run. Every transfer is a fill (a miss)
// or a write-back, and is either sequential or random:
// Misses + Writebacks == SeqTransfers + RandTransfers.
type Counts struct {
	Accesses       int64 `json:"accesses"`
	Reads          int64 `json:"reads"`
	Writes         int64 `json:"writes"`
	Hits           int64 `json:"hits"`
	Misses         int64 `json:"misses"`
	Writebacks     int64 `json:"writebacks"`
	SeqTransfers   int64 `json:"sequential_transfers"`
	RandTransfers  int64 `json:"random_transfers"`
	Branches       int64 `json:"branches"`
	Mispredictions int64 `json:"mispredictions"`
}

// Sub is c − o, the counts of an interval.
func (c Counts) Sub(o Counts) Counts {
	return Counts{c.Accesses - o.Accesses, c.Reads - o.Reads, c.Writes - o.Writes, c.Hits - o.Hits,
		c.Misses - o.Misses, c.Writebacks - o.Writebacks, c.SeqTransfers - o.SeqTransfers,
		c.RandTransfers - o.RandTransfers, c.Branches - o.Branches, c.Mispredictions - o.Mispredictions}
}

// A slot's key is its line with two flags in the top bits, which no line
// reaches (lines are addresses >> 2 or more).
const (
	keyDirty = 1 << 63 // written since it was filled
	keySeq   = 1 << 62 // filled as part of a sequential stream
	keyLine  = keySeq - 1
)

const none = -1

// topN is the size of the recent set: the topN most recently used lines,
// kept outside the LRU list (see touch). A power of two, so an index into
// it needs no bounds check once masked.
const topN = 4

// noLine marks an unused entry of the recent set: lines are addresses >> 2
// or more, so no line reaches it.
const noLine = ^uint64(0)

// maxStamp is a count of accesses never reached.
const maxStamp = 1<<63 - 1

// The order of the recent set is a byte: its entries from the most to the
// least recently used, two bits each, the most recent in the low bits.
// Initially 0, 1, 2, 3, so the entries fill up in that order.
const initOrder = 0<<0 | 1<<2 | 2<<4 | 3<<6

// toFront[o<<2|i] is order o with entry i moved to the front: an access to
// the set is one table load, and the least recent entry is o>>6.
var toFront = func() (t [256 * topN]uint8) {
	for o := range 256 {
		for i := range topN {
			n, k := uint8(i), 2
			for p := 0; p < 8; p += 2 {
				if e := o >> p & 3; e != i && k < 8 {
					n |= uint8(e) << k
					k += 2
				}
			}
			t[o<<2|i] = n
		}
	}
	return t
}()

// slot is one cache line's entry: its key (line and flags), its place in
// the list's ring and the next slot of its hash chain, in 16 bytes, so
// that evicting a line and filling its slot again reads one host cache
// line, and four slots share one.
type slot struct {
	key   uint64
	pos   int32
	chain int32
}

// Sim is the fast simulator. The zero value is not usable; call New.
// A Sim is not safe for concurrent use.
//
// The exact LRU order of the cached lines is the recent set (the topN most
// recently used lines, ordered by their last-use stamps) followed by the
// list from head to tail. See doc.go, "Speed and slices".
type Sim struct {
	// The fields every access reads come first, in one host cache line.
	mru       uint64 // most recently used line; noLine while the cache is empty
	mruW      uint64 // mru once a write has found it in rdirty, else noLine
	mruBit    uint8  // the bit of the recent set's entry of mru in rdirty
	rdirty    uint8  // entries of the recent set written since they entered it
	shift     uint
	reads     int64
	writes    int64
	sliceNext int64 // accesses at or after which the next non-MRU access calls slice

	// The recent set: line and slot of each entry, and their order
	// (rorder). Unused entries hold noLine. A write to
	// a line of the set sets its bit in rdirty, which goes into the slot's
	// key when the line leaves the set: a store that needs no pointer.
	rline  [topN]uint64
	rorder uint8
	rslot  [topN]int32
	nr     int // entries of the recent set in use

	misses     int64
	writebacks int64
	seq        int64 // sequential transfers; the rest are random

	// The slots, and the list as a ring of slots in the order they left
	// the recent set: the front at ring[(head−1)&rmask], the least
	// recently used line at ring[tail&rmask]. Lines leave the list at the
	// tail (evicted) or anywhere (hit, then the entry becomes none), and
	// enter only at the front, so a ring with holes keeps the order; the
	// ring is twice the lines, and compacted when full, so a hole costs
	// O(1) amortised.
	slots  []slot
	used   int32
	nlines int32
	ring   []int32
	rmask  uint64
	head   uint64
	tail   uint64
	nlist  int // lines in the list
	// cold says a miss goes to coldFill: the cache is not yet full, or
	// holds at most topN lines, so that the list is empty (a full cache
	// of more lines has all but topN of them in the list).
	cold bool

	// The hash table of the cached lines: the first slot of each bucket's
	// chain (none when empty). Buckets are four to eight times the lines,
	// so most lookups of a missing line read one empty bucket and most
	// chains are one slot long.
	bucket []int32
	bshift uint // 32 − bucket bits: bucket = hash32 >> bshift

	// The region: the last K fills as a ring. ends[i] is the line of fill
	// i when that fill is the last one of its stream (the stream's end),
	// farLine otherwise. A stream with a fill in the region has its last
	// fill there too, so the streams of the region are its ends.
	k        int
	wpos     int // the oldest fill, which the next fill replaces
	distinct int // ends in the region: its streams
	mu1      int
	ends     [MaxWindow]uint64
	endCnt   [256]uint8 // ends by their low byte, a filter for the scan

	// branch predictor state per site: Majority keeps taken − not taken,
	// TwoBit the counter 0..3.
	bp       []int32
	twoBit   bool
	branches int64
	mispred  int64
	sliceLen int64
	sliceFn  func(*Sim) error

	cfg    Config
	phases []phaseMark
}

type phaseMark struct {
	name string
	at   Counts
}

// New makes an empty simulator.
func New(c Config) (*Sim, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if c.Window == 0 {
		c.Window = DefaultWindow(c.Mu1)
	}
	s := &Sim{
		cfg:       c,
		shift:     uint(bits.TrailingZeros64(uint64(c.Line))),
		nlines:    int32(c.Lines),
		k:         c.Window,
		mu1:       c.Mu1,
		twoBit:    c.Predictor == TwoBit,
		bp:        make([]int32, 64),
		sliceNext: maxStamp,
	}
	s.alloc(int(min(c.Lines, initLines)))
	s.Reset()
	return s, nil
}

// alloc sizes the tables for n slots, empty: the hash table's buckets
// four to eight times n, the ring two to four times.
func (s *Sim) alloc(n int) {
	bbits := max(bits.Len64(uint64(2*n-1))+1, 4)
	s.slots = make([]slot, n)
	s.ring = make([]int32, max(1<<bits.Len64(uint64(2*n-1)), 8))
	s.rmask = uint64(len(s.ring) - 1)
	s.bucket = make([]int32, 1<<bbits)
	s.bshift = uint(32 - bbits)
}

// grow doubles the slots (up to the cache's lines) when a fill finds
// them all used, keeping every cached line, its slot, its place in the
// list's order and its chain: the ring is rewritten from tail to head
// without its holes and the hash table is rebuilt. Only fills while the
// cache is filling up call it, so it costs O(1) a fill amortised, and a
// run that touches few lines of a large cache keeps small tables.
func (s *Sim) grow() {
	s.compact()
	oldSlots, oldRing, oldMask, tail := s.slots, s.ring, s.rmask, s.tail
	n := int(s.head - tail)
	used := int(s.used)
	s.alloc(min(2*len(oldSlots), int(s.nlines)))
	copy(s.slots, oldSlots[:used])
	for i := range n {
		v := oldRing[(tail+uint64(i))&oldMask]
		s.ring[i] = v
		s.slots[v].pos = int32(i)
	}
	s.tail, s.head = 0, uint64(n)
	for i := range s.bucket {
		s.bucket[i] = none
	}
	for v := range int32(used) {
		b := hash32(s.slots[v].key&keyLine) >> (s.bshift & 31)
		s.slots[v].chain, s.bucket[b] = s.bucket[b], v
	}
}

// Reset empties the cache, the region and the predictors and zeroes the
// counts, keeping the configuration and the slice hook.
func (s *Sim) Reset() {
	s.mru, s.mruW, s.mruBit, s.rdirty = noLine, noLine, 0, 0
	for i := range s.rline {
		s.rline[i], s.rslot[i] = noLine, none
	}
	s.rorder = initOrder
	s.nr = 0
	clear(s.slots)
	s.used = 0
	s.head, s.tail, s.nlist, s.cold = 0, 0, 0, true
	for i := range s.bucket {
		s.bucket[i] = none
	}
	for i := range s.ends {
		s.ends[i] = farLine
	}
	s.endCnt = [256]uint8{}
	s.wpos, s.distinct = 0, 0
	s.reads, s.writes, s.misses, s.writebacks, s.seq = 0, 0, 0, 0, 0
	s.branches, s.mispred = 0, 0
	s.resetPredictor()
	s.phases = s.phases[:0]
	if s.sliceFn != nil {
		s.sliceNext = s.sliceLen
	}
}

func (s *Sim) resetPredictor() {
	init := int32(0)
	if s.twoBit {
		init = 1 // weakly not taken
	}
	for i := range s.bp {
		s.bp[i] = init
	}
}

// Config returns the configuration, with the window filled in.
func (s *Sim) Config() Config { return s.cfg }

// LineSize is B in bytes.
func (s *Sim) LineSize() int64 { return s.cfg.Line }

// Read records a read of the byte at addr (a word that does not cross a
// line; use Access for longer or unaligned data).
func (s *Sim) Read(addr uint64) {
	s.reads++
	if l := addr >> s.shift; l != s.mru {
		s.touch(l)
	}
}

// Write records a write of the byte at addr (see Read).
func (s *Sim) Write(addr uint64) {
	s.writes++
	if l := addr >> s.shift; l != s.mruW {
		s.touchW(l)
	}
}

// Access records one access of size bytes at addr, as one access to each
// line it spans (a trace record of 8 bytes across a line boundary is two
// accesses). Size 0 counts as 1. An access that would run past the end of
// the address space is clipped to it.
func (s *Sim) Access(addr, size uint64, write bool) {
	if size == 0 {
		size = 1
	}
	last := addr + size - 1
	if last < addr || last == ^uint64(0) {
		last = ^uint64(0) - 1
	}
	for l := addr >> s.shift; l <= last>>s.shift; l++ {
		if write {
			s.Write(l << s.shift)
		} else {
			s.Read(l << s.shift)
		}
	}
}

// Batch records the word accesses ops in order. Each is the address of a
// word that does not cross a line, as for Read, with bit 0 replaced by
// the write flag (WriteBit): lines are at least 4 bytes, so bit 0 never
// changes the line. The counts are those of calling Read and Write one by
// one; a batch saves the kernel a call and the spilling of its registers
// for each access to the recent set.
func (s *Sim) Batch(ops []uint64) {
	for len(ops) > 0 {
		// Accesses that start below sliceNext−1 cannot make the slice
		// hook due, so a run of them goes through batch, which has no
		// hook to call and keeps its loop in registers; the access at the
		// boundary goes through Read or Write.
		n := s.sliceNext - 1 - (s.reads + s.writes)
		if n <= 0 {
			if op := ops[0]; op&WriteBit == 0 {
				s.Read(op)
			} else {
				s.Write(op)
			}
			ops = ops[1:]
			continue
		}
		k := int(min(n, int64(len(ops))))
		s.batch(ops[:k])
		ops = ops[k:]
	}
}

// batch is Batch for a run of accesses during which the slice hook
// cannot fall due.
func (s *Sim) batch(ops []uint64) {
	sh := s.shift & 63
	for _, op := range ops {
		line := op >> sh
		if op&WriteBit == 0 {
			s.reads++
			if line == s.mru {
				continue
			}
		} else {
			s.writes++
			if line == s.mruW {
				continue
			}
			if line == s.mru {
				s.rdirty |= s.mruBit
				s.mruW = line
				continue
			}
		}
		switch line {
		case s.rline[0]:
			s.hit(0, line)
		case s.rline[1]:
			s.hit(1, line)
		case s.rline[2]:
			s.hit(2, line)
		case s.rline[3]:
			s.hit(3, line)
		default:
			s.other(line)
		}
		if op&WriteBit != 0 {
			s.rdirty |= s.mruBit
			s.mruW = line
		}
	}
}

// WriteBit marks a write in a Batch.
const WriteBit = 1

// touch handles every access that is not to the most recently used line.
// A line of the recent set only gets a new stamp: the order within the set
// is the order of the stamps, so nothing moves. Any other line goes to
// other, which admits it to the set.
func (s *Sim) touch(line uint64) {
	if i := s.recent(line); i < 0 {
		s.other(line)
	} else if s.hit(i, line) {
		s.slice()
	}
}

// touchW handles every write that is not to the most recently used line
// already known to be dirty: it marks the line's entry of the recent set
// written, and remembers so in mruW, so that Write is one compare while it
// stays on that line. It is kept out of Write so that Write is inlined.
//
//go:noinline
func (s *Sim) touchW(line uint64) {
	if line != s.mru {
		if i := s.recent(line); i < 0 {
			s.other(line)
		} else if s.hit(i, line) {
			s.slice()
		}
	}
	s.rdirty |= s.mruBit
	s.mruW = line
}

// recent is the entry of the recent set that holds line, or −1.
func (s *Sim) recent(line uint64) int {
	switch line { // unused entries hold noLine, which no line equals
	case s.rline[0]:
		return 0
	case s.rline[1]:
		return 1
	case s.rline[2]:
		return 2
	case s.rline[3]:
		return 3
	}
	return -1
}

// hit records an access to line, in entry i of the recent set, and says
// whether the slice hook is due (the caller calls it, so hit is inlined).
func (s *Sim) hit(i int, line uint64) bool {
	i &= topN - 1
	s.rorder = toFront[(uint(s.rorder)<<2|uint(i))&(256*topN-1)]
	s.mru, s.mruW, s.mruBit = line, noLine, 1<<i
	return s.reads+s.writes >= s.sliceNext
}

// rmin is the entry of the recent set used least recently.
func (s *Sim) rmin() int {
	return int(s.rorder >> 6)
}

// hash32 is a multiplicative hash of a line; its top bits are its bucket.
func hash32(line uint64) uint64 {
	return (line * 0x9E3779B97F4A7C15) >> 32
}

// other handles an access to a line outside the recent set. The line
// enters the set, whose least recent entry j moves to the front of the
// list (every line in the list is older than every line of the set). The
// common miss, with a full cache and a non-empty list, is written out
// here with its state in locals; a hit in the list, the first fills and
// the scan for a stream go to their own functions.
func (s *Sim) other(line uint64) {
	sl, bk, bs := s.slots, s.bucket, s.bshift&31
	b := hash32(line) >> bs
	for x := bk[b]; x != none; x = sl[x].chain {
		if sl[x].key&keyLine == line {
			s.listHit(line, x)
			return
		}
	}
	s.misses++

	// The region: the fill is sequential (keySeq) when it continues a
	// stream of the region (its line is next to the last line of a
	// stream that has a fill among the previous K−1 fills, either
	// direction) and the last K fills, this one included, belong to at
	// most mu1 streams. A fill that continues no stream starts a stream of
	// its own, so any other traffic in the region counts against mu1.
	//
	// A stream is known by its end, the fill in the ring that was its
	// last: the stream a fill continues is the latest end next to it, and
	// the streams of the region are its ends, so no stream needs a name.
	// Written out here rather than called: it runs on every miss.
	f := uint64(0)
	w, distinct := s.wpos, s.distinct
	// The oldest fill leaves the region; if it was the end of its stream,
	// the stream has no fill left there and is forgotten.
	if old := s.ends[w&(MaxWindow-1)]; old != farLine {
		distinct--
		s.endCnt[old&0xff]--
	}
	// endCnt counts the ends by their low byte: most random fills find no
	// end with a neighbour's low byte and skip the scan.
	cont := false
	if s.endCnt[(line-1)&0xff]|s.endCnt[(line+1)&0xff] != 0 {
		cont = s.continues(line, w)
	}
	if !cont {
		distinct++
	}
	s.distinct = distinct
	s.ends[w&(MaxWindow-1)] = line
	s.endCnt[line&0xff]++
	if w++; w == s.k {
		w = 0
	}
	s.wpos = w
	if cont && distinct <= s.mu1 {
		f = keySeq
		s.seq++
	}

	if s.cold {
		s.coldFill(line, b, f)
		return
	}
	// Evict the least recently used line, the tail of the list: skip the
	// holes left by hits, take the slot, write it back if dirty and take
	// it out of its chain.
	rg, rm := s.ring, s.rmask
	t := s.tail
	for rg[t&rm] == none {
		t++
	}
	v := rg[t&rm]
	s.tail = t + 1
	vs := &sl[v]
	key := vs.key
	if key&keyDirty != 0 {
		s.writebacks++
		s.seq += int64(key>>62) & 1
	}
	if ob := hash32(key&keyLine) >> bs; bk[ob] == v {
		bk[ob] = vs.chain
	} else {
		s.unchain(ob, v)
	}
	// Fill v with line: first in the chain of its bucket.
	vs.key, vs.chain = line|f, bk[b]
	bk[b] = v
	// The least recent entry j of the set goes to the front of the list
	// with its dirty bit, and line takes its place. The list lost v and
	// gains d, so the ring cannot overflow here.
	j := s.rmin() & (topN - 1)
	d := s.rslot[j]
	h := s.head
	rg[h&rm] = d
	s.head = h + 1
	ds := &sl[d]
	ds.pos = int32(h & rm)
	ds.key |= uint64((s.rdirty>>j)&1) << 63
	now := s.reads + s.writes
	s.rline[j], s.rslot[j] = line, v
	s.rorder = toFront[(uint(s.rorder)<<2|uint(j))&(256*topN-1)]
	s.rdirty &^= 1 << j
	s.mru, s.mruW, s.mruBit = line, noLine, 1<<j
	if now >= s.sliceNext {
		s.slice()
	}
}

// unchain takes slot v, which is not the first, out of the chain of
// bucket b.
func (s *Sim) unchain(b uint64, v int32) {
	sl := s.slots
	p := s.bucket[b]
	for sl[p].chain != v {
		p = sl[p].chain
	}
	sl[p].chain = sl[v].chain
}

// demote moves entry j of the recent set to the front of the list, its
// dirty bit into its slot's key.
func (s *Sim) demote(j int) {
	j &= topN - 1
	if s.head-s.tail == uint64(len(s.ring)) {
		s.compact()
	}
	d := s.rslot[j]
	h := s.head
	s.ring[h&s.rmask] = d
	s.head = h + 1
	s.nlist++
	s.slots[d].pos = int32(h & s.rmask)
	s.slots[d].key |= uint64((s.rdirty>>j)&1) << 63
	s.rdirty &^= 1 << j
}

// compact closes the holes of the full ring, keeping the order.
func (s *Sim) compact() {
	rg, rm := s.ring, s.rmask
	w := s.tail
	for r := s.tail; r != s.head; r++ {
		if v := rg[r&rm]; v != none {
			rg[w&rm] = v
			s.slots[v].pos = int32(w & rm)
			w++
		}
	}
	s.head = w
}

// listHit moves line, in slot v of the list, into the recent set; its
// place in the ring becomes a hole.
func (s *Sim) listHit(line uint64, v int32) {
	s.ring[s.slots[v].pos] = none
	s.nlist--
	j := s.rmin()
	s.demote(j)
	s.admit(j, line, v)
}

// coldFill is a miss while the cache is filling up, or when every cached
// line is in the recent set (a cache of at most topN lines): then the
// least recent entry of the set is evicted and line takes its place.
func (s *Sim) coldFill(line, b, f uint64) {
	sl := s.slots
	var v int32
	var j int
	if s.used < s.nlines {
		if int(s.used) == len(sl) {
			s.grow()
			sl = s.slots
			b = hash32(line) >> (s.bshift & 31)
		}
		v = s.used
		s.used++
		s.cold = s.used < s.nlines || s.nlines <= topN
		if s.nr < topN {
			j = s.nr
			s.nr++
		} else {
			j = s.rmin()
			s.demote(j)
		}
	} else {
		// The least recent entry in use: a cache of fewer than topN
		// lines leaves the last entries of the order unused.
		for p := 6; ; p -= 2 {
			if j = int(s.rorder>>p) & (topN - 1); j < s.nr {
				break
			}
		}
		v = s.rslot[j]
		key := sl[v].key | uint64((s.rdirty>>j)&1)<<63
		if key&keyDirty != 0 {
			s.writebacks++
			s.seq += int64(key>>62) & 1
		}
		s.rdirty &^= 1 << j
		if ob := hash32(key&keyLine) >> (s.bshift & 31); s.bucket[ob] == v {
			s.bucket[ob] = sl[v].chain
		} else {
			s.unchain(ob, v)
		}
	}
	sl[v].key, sl[v].chain = line|f, s.bucket[b]
	s.bucket[b] = v
	s.admit(j, line, v)
}

// admit puts line, in slot v, into entry j of the recent set as the most
// recently used line.
func (s *Sim) admit(j int, line uint64, v int32) {
	j &= topN - 1
	t := s.reads + s.writes
	s.rline[j], s.rslot[j] = line, v
	s.rorder = toFront[(uint(s.rorder)<<2|uint(j))&(256*topN-1)]
	s.mru, s.mruW, s.mruBit = line, noLine, 1<<j
	if t >= s.sliceNext {
		s.slice()
	}
}

// A write-back is charged at the rate the line's fill was charged
// (keySeq): the write-back belongs to the same program stream as the fill
// (the MBRAM paper III.C charges the read and the write of Z together as
// 2·4N/β1).

// continues looks for the latest end next to line (line − end + 1 is 0
// or 2) among the K−1 fills before position w of the ring; if there is
// one, it stops being an end (line will be the stream's end) and
// continues reports true.
func (s *Sim) continues(line uint64, w int) bool {
	p := w
	for d := 1; d < s.k; d++ {
		if p--; p < 0 {
			p = s.k - 1
		}
		if e := s.ends[p&(MaxWindow-1)]; (line-e+1)&^2 == 0 {
			s.endCnt[e&0xff]--
			s.ends[p&(MaxWindow-1)] = farLine
			return true
		}
	}
	return false
}

// farLine marks a ring entry that is no stream's end: lines are addresses
// >> 2 or more, below 2^62, so no line is next to it.
const farLine = 1 << 63

// Branch records one execution of the conditional branch at site (a small
// non-negative number chosen by the kernel) with its outcome, and charges
// a misprediction when the predictor guessed wrong.
func (s *Sim) Branch(site int, taken bool) {
	s.branches++
	if s.twoBit || uint(site) >= uint(len(s.bp)) {
		s.branchSlow(site, taken)
		return
	}
	// Majority: predict taken only when taken has been seen strictly more
	// often; a tie (including the first execution) predicts not taken.
	st := s.bp[site]
	if (st > 0) != taken {
		s.mispred++
	}
	if taken {
		st++
	} else {
		st--
	}
	s.bp[site] = st
}

func (s *Sim) branchSlow(site int, taken bool) {
	if uint(site) >= uint(len(s.bp)) {
		s.growSites(site)
	}
	st := s.bp[site]
	if !s.twoBit {
		if (st > 0) != taken {
			s.mispred++
		}
		if taken {
			s.bp[site] = st + 1
		} else {
			s.bp[site] = st - 1
		}
		return
	}
	if (st >= 2) != taken {
		s.mispred++
	}
	if taken {
		if st < 3 {
			s.bp[site] = st + 1
		}
	} else if st > 0 {
		s.bp[site] = st - 1
	}
}

func (s *Sim) growSites(site int) {
	if site < 0 {
		panic(fmt.Sprintf("sim: negative branch site %d", site))
	}
	n := len(s.bp)
	for n <= site {
		n *= 2
	}
	old := len(s.bp)
	s.bp = append(s.bp, make([]int32, n-old)...)
	if s.twoBit {
		for i := old; i < n; i++ {
			s.bp[i] = 1
		}
	}
}

// Finish writes back every dirty line (the end of the run) and leaves the
// lines cached and clean, so a run may go on afterwards.
func (s *Sim) Finish() {
	// The dirty bits of the recent set go into the slots' keys first.
	// Every slot below used holds a cached line; the order of the
	// write-backs does not matter to the counts.
	for j := range s.nr {
		s.slots[s.rslot[j]].key |= uint64((s.rdirty>>j)&1) << 63
	}
	s.rdirty, s.mruW = 0, noLine
	for i := range s.slots[:s.used] {
		if key := s.slots[i].key; key&keyDirty != 0 {
			s.writebacks++
			s.seq += int64(key>>62) & 1
			s.slots[i].key = key &^ keyDirty
		}
	}
}

// Counts returns the counts so far (write-backs of lines still cached are
// not in them until Finish).
func (s *Sim) Counts() Counts {
	return Counts{
		Accesses: s.reads + s.writes, Reads: s.reads, Writes: s.writes,
		Hits: s.reads + s.writes - s.misses, Misses: s.misses, Writebacks: s.writebacks,
		SeqTransfers: s.seq, RandTransfers: s.misses + s.writebacks - s.seq,
		Branches: s.branches, Mispredictions: s.mispred,
	}
}

// Phase marks the start of a named phase; Result reports the counts and
// seconds of each phase.
func (s *Sim) Phase(name string) {
	s.phases = append(s.phases, phaseMark{name, s.Counts()})
}

// Stop is the panic value a slice hook's error travels in: Read, Write and
// Branch have no error result, so a run is stopped by unwinding the
// kernel. Run functions recover it and return Err.
type Stop struct{ Err error }

// OnSlice calls fn about every n accesses (after the first access at or
// after each multiple of n that is not to the most recently used line). If fn returns
// an error the simulator panics with *Stop; kernels.Run and the trace
// replayer recover it. A browser uses fn to yield, to report progress and
// to read a cost series; n <= 0 or fn nil turns it off.
func (s *Sim) OnSlice(n int64, fn func(*Sim) error) {
	if n <= 0 || fn == nil {
		s.sliceFn, s.sliceLen, s.sliceNext = nil, 0, maxStamp
		return
	}
	s.sliceFn, s.sliceLen = fn, n
	s.sliceNext = ((s.reads+s.writes)/n + 1) * n
}

func (s *Sim) slice() {
	s.sliceNext = ((s.reads+s.writes)/s.sliceLen + 1) * s.sliceLen
	if err := s.sliceFn(s); err != nil {
		panic(&Stop{err})
	}
}

// Traffic is the line fills, write-backs and sequential transfers so far:
// three loads, cheap enough for an interpreter to attribute each access's
// transfers to its source line by comparing them before and after it.
func (s *Sim) Traffic() (fills, writebacks, seq int64) { return s.misses, s.writebacks, s.seq }

// Mispredictions is the mispredicted branches so far.
func (s *Sim) Mispredictions() int64 { return s.mispred }
