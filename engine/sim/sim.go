package sim

import (
	"fmt"
	"math/bits"

	"memwall/engine/machine"
)

// Predictor selects the branch predictor.
type Predictor int

const (
	// Majority is the seed's idealised rule (seed 000 II.d rule 3): per
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

// Limits of a configuration. MaxLines keeps the slot indices in int32 and
// the simulator's own tables (about 40 bytes a line) under a gigabyte.
const (
	MaxLines  = 1 << 22
	MaxWindow = 64
)

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

// slot flags
const (
	flagDirty = 1 // written since it was filled
	flagSeq   = 2 // filled as part of a sequential stream
)

const none = -1

// topN is how many most recently used lines are kept out of the list;
// touch is written out for 4.
const topN = 4

type topEntry struct {
	line uint64
	slot int32
}

// noLine marks an unused entry of top: lines are addresses >> 2 or more.
const noLine = ^uint64(0)

// slot is one cache line's entry: its line number and its neighbours in
// the LRU list, together in 24 bytes so that one host cache line holds
// all a list operation reads.
type slot struct {
	line       uint64
	prev, next int32
	pos        int32 // its index in the hash table
}

// Sim is the fast simulator. The zero value is not usable; call New.
// A Sim is not safe for concurrent use.
//
// Hot path: Read and Write are small enough to be inlined into the
// kernels; an access to the most recently used line costs a compare and
// two increments, any other access goes to touch, which does one hash
// probe and one move-to-front in flat arrays (no allocation, no
// interface call).
type Sim struct {
	// most recently used line and its slot; mru is ^0 while the cache is
	// empty (no line number reaches it: lines are addresses >> shift with
	// shift >= 2, as B >= 4).
	mru     uint64
	mruFlag *uint8 // &flags[mruSlot], or a dummy while the cache is empty
	dummy   uint8
	shift   uint

	reads  int64
	writes int64
	misses int64

	// LRU order: top[:ntop] (most recent first), then the list over
	// slots from head to tail.
	top    [topN]topEntry
	ntop   int // entries of top in use; the others hold noLine
	slots  []slot
	flags  []uint8
	head   int32
	tail   int32
	used   int32
	nlines int32

	// open-addressing hash table, line -> slot+1 (0 = empty), linear
	// probing, backward-shift deletion.
	table   []uint64
	tombs   int
	ins     uint64 // where the line of the last failed lookup goes
	insHash uint64 // and its hash
	tmask   uint64
	tshift  uint // 32 − table bits: home = hash32 >> tshift

	// region: the last K fills, and the streams they belong to.
	k         int              // region length K
	win       [MaxWindow]uint8 // stream slot of each fill in the window (ring)
	wpos      int
	wlen      int
	winCnt    [MaxWindow]int32  // fills in the window per stream slot
	distinct  int               // stream slots with winCnt > 0
	streamEnd [MaxWindow]uint64 // last line of each stream of the region, or farLine
	streamUse [MaxWindow]int64  // fill number of its last fill
	free      [MaxWindow]uint8  // slots of streams with no fill in the region
	nfree     int
	endCnt    [256]uint16
	fills     int64
	mu1       int

	writebacks int64
	seq        int64
	rnd        int64

	// branch predictor state per site: Majority keeps taken − not taken,
	// TwoBit the counter 0..3.
	bp        []int32
	twoBit    bool
	branches  int64
	mispred   int64
	sliceNext int64
	sliceLen  int64
	sliceFn   func(*Sim) error

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
	n := int(c.Lines)
	tbits := bits.Len64(uint64(2*n-1)) + 1 // table at least 4×, at most 8× the lines
	if tbits < 4 {
		tbits = 4
	}
	s := &Sim{
		cfg:       c,
		shift:     uint(bits.TrailingZeros64(uint64(c.Line))),
		slots:     make([]slot, n),
		flags:     make([]uint8, n),
		nlines:    int32(n),
		table:     make([]uint64, 1<<tbits),
		tmask:     1<<tbits - 1,
		tshift:    uint(32 - tbits),
		k:         c.Window,
		mu1:       c.Mu1,
		twoBit:    c.Predictor == TwoBit,
		bp:        make([]int32, 64),
		sliceNext: 1<<63 - 1,
	}
	s.Reset()
	return s, nil
}

// Reset empties the cache, the region and the predictors and zeroes the
// counts, keeping the configuration and the slice hook.
func (s *Sim) Reset() {
	s.mru, s.mruFlag, s.ntop = ^uint64(0), &s.dummy, 0
	for i := range s.top {
		s.top[i] = topEntry{noLine, none}
	}
	s.head, s.tail, s.used = none, none, 0
	clear(s.table)
	s.tombs = 0
	clear(s.flags)
	s.winCnt = [MaxWindow]int32{}
	s.wpos, s.wlen, s.distinct, s.fills = 0, 0, 0, 0
	s.endCnt = [256]uint16{}
	s.nfree = 0
	for i := s.k - 1; i >= 0; i-- {
		s.streamEnd[i] = farLine
		s.streamUse[i] = 0
		s.free[s.nfree] = uint8(i)
		s.nfree++
	}
	s.reads, s.writes, s.misses, s.writebacks, s.seq, s.rnd = 0, 0, 0, 0, 0, 0
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
	if addr>>s.shift != s.mru {
		s.touch(addr >> s.shift)
	}
}

// Write records a write of the byte at addr (see Read).
func (s *Sim) Write(addr uint64) {
	s.writes++
	if addr>>s.shift != s.mru {
		s.touch(addr >> s.shift)
	}
	*s.mruFlag |= flagDirty
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

// touch handles every access that is not to the most recently used line.
// The LRU order is the few most recently used slots in top (most recent
// first) followed by the list from head to tail; only a line outside top
// needs the hash table, so a loop over a handful of arrays (X, Y and Z of
// the permutation product, the two ends of a partition, the runs of a
// merge) mostly stays in top.
func (s *Sim) touch(line uint64) {
	t := &s.top
	var e topEntry
	switch line { // unused entries hold noLine, which no line equals
	case t[1].line:
		e = t[1]
		t[1] = t[0]
	case t[2].line:
		e = t[2]
		t[2], t[1] = t[1], t[0]
	case t[3].line:
		e = t[3]
		t[3], t[2], t[1] = t[2], t[1], t[0]
	default:
		e = topEntry{line, s.lookup(line)}
		if e.slot >= 0 {
			s.unlink(e.slot) // a hit outside top is in the list
		} else {
			e.slot = s.fill(line)
		}
		if t[3].line != noLine {
			s.pushFront(t[3].slot) // the least recent of top joins the list
		} else {
			s.ntop++
		}
		t[3], t[2], t[1] = t[2], t[1], t[0]
	}
	t[0] = e
	s.setMRU(line, e.slot)
}

func (s *Sim) setMRU(line uint64, slot int32) {
	s.mru, s.mruFlag = line, &s.flags[slot]
	if s.reads+s.writes >= s.sliceNext {
		s.slice()
	}
}

// Table entries are hash<<32 | slot+1, 0 when empty, tomb when deleted.
// The stored 32-bit hash is a tag that rejects other keys without loading
// their slot. Deletion leaves a tombstone at the position the slot
// remembers (one store, no probing); lookups step over tombstones,
// insertions reuse the first one, and the table is rebuilt when a quarter
// of it is tombstones.
func hash32(line uint64) uint64 {
	return (line * 0x9E3779B97F4A7C15) >> 32
}

const tomb = ^uint64(0)

// lookup returns the slot of line, or none; in the second case s.ins is
// where line may be inserted (the first tombstone or the empty cell that
// ended the probe).
func (s *Sim) lookup(line uint64) int32 {
	t, mask := s.table, s.tmask
	h := hash32(line)
	tag := h << 32
	i := h >> s.tshift
	ins := ^uint64(0)
	for {
		e := t[i&mask]
		if e == 0 {
			if ins == ^uint64(0) {
				ins = i & mask
			}
			s.ins, s.insHash = ins, h
			return none
		}
		if e&^0xffffffff == tag {
			if e == tomb {
				if ins == ^uint64(0) {
					ins = i & mask
				}
			} else if s.slots[int32(e)-1].line == line {
				return int32(e) - 1
			}
		}
		i++
	}
}

// insertAt puts slot (holding the line lookup failed to find) at s.ins.
func (s *Sim) insertAt(slot int32) {
	t := s.table
	i := s.ins & s.tmask
	if t[i] == tomb {
		s.tombs--
	}
	t[i] = s.insHash<<32 | uint64(slot+1)
	s.slots[slot].pos = int32(i)
}

// remove deletes the entry of slot.
func (s *Sim) remove(slot int32) {
	s.table[uint64(s.slots[slot].pos)&s.tmask] = tomb
	s.tombs++
}

// rebuild empties the table of tombstones by inserting every cached line
// afresh.
func (s *Sim) rebuild() {
	t, mask, sh, sl := s.table, s.tmask, s.tshift, s.slots
	clear(t)
	s.tombs = 0
	for slot := int32(0); slot < s.used; slot++ {
		h := hash32(sl[slot].line)
		i := (h >> sh) & mask
		for t[i] != 0 {
			i = (i + 1) & mask
		}
		t[i] = h<<32 | uint64(slot+1)
		sl[slot].pos = int32(i)
	}
}

func (s *Sim) unlink(slot int32) {
	sl := s.slots
	p, n := sl[slot].prev, sl[slot].next
	if p != none {
		sl[p].next = n
	} else {
		s.head = n
	}
	if n != none {
		sl[n].prev = p
	} else {
		s.tail = p
	}
}

func (s *Sim) pushFront(slot int32) {
	sl := s.slots
	h := s.head
	sl[slot].prev = none
	sl[slot].next = h
	if h != none {
		sl[h].prev = slot
	} else {
		s.tail = slot
	}
	s.head = slot
}

// fill brings line, which lookup has just failed to find, into a slot
// (the caller puts it at the front of top) (rules 5 and 7: reads and writes alike
// load the line first), evicting the least recently used line when the
// cache is full (rule 6), and charges the transfer.
func (s *Sim) fill(line uint64) int32 {
	s.misses++
	var slot int32
	if s.used < s.nlines {
		slot = s.used
		s.used++
	} else {
		if s.tail != none {
			slot = s.tail
			s.unlink(slot)
		} else { // every line is in top: evict its least recent
			s.ntop--
			slot = s.top[s.ntop].slot
			s.top[s.ntop].line = noLine
		}
		s.remove(slot)
		if s.flags[slot]&flagDirty != 0 {
			s.writeback(s.flags[slot])
		}
	}
	s.slots[slot].line = line
	s.insertAt(slot)
	if s.tombs > len(s.table)/4 {
		s.rebuild()
	}
	if s.region(line) {
		s.flags[slot] = flagSeq
		s.seq++
	} else {
		s.flags[slot] = 0
		s.rnd++
	}
	return slot
}

// writeback charges a dirty line at the rate its fill was charged: the
// write-back belongs to the same program stream as the fill (seed 000
// III.C charges the read and the write of Z together as 2·4N/β1).
func (s *Sim) writeback(f uint8) {
	s.writebacks++
	if f&flagSeq != 0 {
		s.seq++
	} else {
		s.rnd++
	}
}

// region records a fill in the region and says whether it is sequential:
// it continues a stream of the region (its line is next to the last line
// of a stream that has a fill among the previous K−1 fills, either
// direction) and the last K fills, this one included, belong to at most
// mu1 streams. A fill that continues no stream starts a stream of its
// own, so any other traffic in the region counts against mu1.
func (s *Sim) region(line uint64) bool {
	s.fills++
	// The oldest fill leaves the region; a stream left with no fill in it
	// is forgotten and its slot freed.
	if s.wlen == s.k {
		old := s.win[s.wpos&(MaxWindow-1)] & (MaxWindow - 1)
		s.winCnt[old]--
		if s.winCnt[old] == 0 {
			s.distinct--
			s.endCnt[s.streamEnd[old]&0xff]--
			s.streamEnd[old] = farLine
			s.free[s.nfree&(MaxWindow-1)] = old
			s.nfree++
		}
	} else {
		s.wlen++
	}
	// Continue the stream whose last line is adjacent: line − end is +1
	// or −1, that is line − end + 1 is 0 or 2. When both neighbours are
	// streams, the most recently continued one. endCnt counts stream ends
	// by their low byte: most random fills find no end with a neighbour's
	// low byte and skip the scan.
	sid := uint8(MaxWindow)
	if s.endCnt[(line-1)&0xff]|s.endCnt[(line+1)&0xff] != 0 {
		var best int64 = -1
		for i, end := range s.streamEnd[:s.k] {
			if (line-end+1)&^2 == 0 && s.streamUse[i] > best {
				sid, best = uint8(i), s.streamUse[i]
			}
		}
	}
	cont := sid != MaxWindow
	if cont {
		s.endCnt[s.streamEnd[sid&(MaxWindow-1)]&0xff]--
	} else {
		// At most K−1 streams have fills left in the region, so one of
		// the K slots is free.
		s.nfree--
		sid = s.free[s.nfree&(MaxWindow-1)]
	}
	sid &= MaxWindow - 1
	s.endCnt[line&0xff]++
	s.streamEnd[sid] = line
	s.streamUse[sid] = s.fills
	s.win[s.wpos&(MaxWindow-1)] = sid
	s.wpos++
	if s.wpos == s.k {
		s.wpos = 0
	}
	if s.winCnt[sid] == 0 {
		s.distinct++
	}
	s.winCnt[sid]++
	return cont && s.distinct <= s.mu1
}

// farLine marks a free stream slot: lines are addresses >> 2 or more, below
// 2^62, so no line is next to it.
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
	for _, e := range s.top[:s.ntop] {
		slot := e.slot
		if s.flags[slot]&flagDirty != 0 {
			s.writeback(s.flags[slot])
			s.flags[slot] &^= flagDirty
		}
	}
	for slot := s.head; slot != none; slot = s.slots[slot].next {
		if s.flags[slot]&flagDirty != 0 {
			s.writeback(s.flags[slot])
			s.flags[slot] &^= flagDirty
		}
	}
}

// Counts returns the counts so far (write-backs of lines still cached are
// not in them until Finish).
func (s *Sim) Counts() Counts {
	return Counts{
		Accesses: s.reads + s.writes, Reads: s.reads, Writes: s.writes,
		Hits: s.reads + s.writes - s.misses, Misses: s.misses, Writebacks: s.writebacks,
		SeqTransfers: s.seq, RandTransfers: s.rnd,
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
		s.sliceFn, s.sliceLen, s.sliceNext = nil, 0, 1<<63-1
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
