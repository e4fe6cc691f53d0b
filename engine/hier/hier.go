package hier

import (
	"errors"
	"fmt"
	"math"
	"math/bits"

	"memwall/engine/machine"
)

// Bits of a Batch operation: addresses are of accesses that do not cross
// a line, and lines are at least 4 bytes, so the two low bits never change
// the line and carry the access's kind instead.
const (
	WriteBit = 1 // the access writes
	DepBit   = 2 // the access is dependent: its address came from a chain of loads
)

// Limits of the stream rule.
const (
	DefaultWindow = 64
	MaxWindow     = 255
)

// Config is what the simulator charges by. Sizes are bytes, bandwidths
// bytes per second, times seconds.
type Config struct {
	// Levels is the hierarchy, L1 first (machine.Machine.Hierarchy).
	Levels []machine.Level
	// MemLatency, when positive, is charged for each dependent random
	// fill of the last level instead of its line/β2.
	MemLatency float64
	// MemLatencyCurve, when given, is memory's latency by the span of
	// the reads (machine.LatencyPoint): the dependent fills are charged
	// its latency at the run's footprint (Sim.Footprint) instead of
	// MemLatency.
	MemLatencyCurve []machine.LatencyPoint
	// ComputeRate, when positive, charges the operations given to
	// Compute at that many per second.
	ComputeRate float64
	// Window is K, the region of the stream rule in fills of a level;
	// 0 means DefaultWindow.
	Window int
	// L1Fill and L1Exposed, when both positive, charge the first
	// level's lines beside the compute time rather than after it
	// (machine.Machine.L1Fill; Result).
	L1Fill, L1Exposed float64
	// LevelOverlap is the share of a line's steps through the levels
	// it passes that hides behind its largest (machine.Machine.LevelOverlap,
	// HideLevels; Result).
	LevelOverlap float64
	// Curves asks for the miss curve of each line size (Sim.Curves),
	// which needs the exact stack distance of every access and costs
	// about three times as much as the levels' counts alone.
	Curves bool
}

// ConfigFor takes the hierarchy of a machine.
func ConfigFor(m machine.Machine) Config {
	return Config{Levels: m.Hierarchy(), MemLatency: m.MemLatency, MemLatencyCurve: m.MemLatencyCurve, ComputeRate: m.ComputeRate, L1Fill: m.L1Fill, L1Exposed: m.L1Exposed, LevelOverlap: m.LevelOverlap}
}

// Validate checks the hierarchy (machine.ValidateLevels), the latency,
// the rate and the window.
func (c Config) Validate() error {
	if len(c.Levels) == 0 {
		return errors.New("levels: the hierarchy needs at least one cache level")
	}
	if es := machine.ValidateLevels(c.Levels); len(es) > 0 {
		return es
	}
	m := machine.Machine{MemLatency: c.MemLatency, ComputeRate: c.ComputeRate, L1Fill: c.L1Fill, L1Exposed: c.L1Exposed, LevelOverlap: c.LevelOverlap, Levels: c.Levels}
	if es := m.ValidateOverlap(); len(es) > 0 {
		return es
	}
	if es := machine.ValidateLatencyCurve(c.MemLatencyCurve); len(es) > 0 {
		return es
	}
	switch {
	case math.IsNaN(c.MemLatency) || c.MemLatency < 0 || c.MemLatency > machine.MaxMemLatency:
		return fmt.Errorf("mem_latency: must be 0 (not given) or up to 10 µs; got %g", m.MemLatency)
	case math.IsNaN(c.ComputeRate) || c.ComputeRate != 0 && (c.ComputeRate < machine.MinComputeRate || c.ComputeRate > machine.MaxComputeRate):
		return fmt.Errorf("compute_rate: must be 0 (not given) or from 1000 to 10^15 operations per second; got %g", c.ComputeRate)
	case c.Window < 0 || c.Window == 1 || c.Window > MaxWindow:
		return fmt.Errorf("window: the region must be from 2 to %d fills, or 0 for %d; got %d", MaxWindow, DefaultWindow, c.Window)
	}
	return nil
}

// LevelCounts are the events of one level. Misses = SeqFills + RandFills.
type LevelCounts struct {
	// Accesses reach the level: every line access for the first level,
	// the misses of the level above for the others.
	Accesses int64 `json:"accesses"`
	Hits     int64 `json:"hits"`
	// Misses are the fills of the level from the level below.
	Misses          int64 `json:"misses"`
	DependentMisses int64 `json:"dependent_misses"`
	SeqFills        int64 `json:"sequential_fills"`
	RandFills       int64 `json:"random_fills"`
	// DependentRandFills are the random fills of dependent accesses.
	DependentRandFills int64 `json:"dependent_random_fills"`
	// Writebacks are the dirty lines the level evicted (to the level
	// below), counted when the line is next accessed or by Finish; a
	// write-back is sequential when the line's fill was.
	Writebacks    int64 `json:"writebacks"`
	SeqWritebacks int64 `json:"sequential_writebacks"`
}

// level is the state of one level: its counts but the misses and the
// random fills, which come from its fills (Levels).
type level struct {
	LevelCounts
	fills int64
	lines int64 // Size/Line

	// The stream rule (stream.go): K; the level's fills so far mod 2^32
	// (the next one's number) and at the last sweep; by page of the
	// stack's slots, the word of each line's latest fill into the level;
	// and the older ends of lines filled again.
	win        uint32
	now, swept uint32
	ends       [][pageLen]uint32 // by page of slots
	older      []olderEnd
}

// Sim is the hierarchy simulator. The zero value is not usable; call New.
// A Sim is not safe for concurrent use.
type Sim struct {
	cfg    Config
	stacks []stack // one per distinct line size, shortest first
	lv     []level
	shift  uint // log2 of the shortest line
	reads  int64
	writes int64
	deps   int64
	ops    int64
	one    bool // a single stack: the fast path of Batch
}

// New makes a simulator with empty caches.
func New(c Config) (*Sim, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	c.Levels = append([]machine.Level(nil), c.Levels...)
	c.MemLatencyCurve = append([]machine.LatencyPoint(nil), c.MemLatencyCurve...)
	if c.Window == 0 {
		c.Window = DefaultWindow
	}
	s := &Sim{cfg: c, lv: make([]level, len(c.Levels))}
	for i, l := range c.Levels {
		s.lv[i].win = uint32(c.Window)
		s.lv[i].lines = l.Lines()
		if i > 0 && l.Line == c.Levels[i-1].Line {
			continue
		}
		s.stacks = append(s.stacks, newStack(uint(bits.TrailingZeros64(uint64(l.Line))), i, s.lv[i:i+1], c.Curves))
	}
	for j := range s.stacks {
		k := &s.stacks[j]
		end := len(s.lv)
		if j+1 < len(s.stacks) {
			end = s.stacks[j+1].first
		}
		k.setLevels(s.lv[k.first:end])
	}
	s.shift = s.stacks[0].shift
	s.one = len(s.stacks) == 1
	return s, nil
}

// Config is the simulator's configuration.
func (s *Sim) Config() Config {
	c := s.cfg
	c.Levels = append([]machine.Level(nil), c.Levels...)
	c.MemLatencyCurve = append([]machine.LatencyPoint(nil), c.MemLatencyCurve...)
	return c
}

// Footprint is the bytes of the distinct lines of the last level's line
// size the run has touched: the span its reads from memory go over.
func (s *Sim) Footprint() int64 {
	k := &s.stacks[len(s.stacks)-1]
	return k.count << k.shift
}

// Reset empties the caches and the counts, keeping the memory.
func (s *Sim) Reset() {
	// The levels first: a stack's reset gives their ends the head's page
	// (stack.headPage).
	for i := range s.lv {
		s.lv[i].LevelCounts = LevelCounts{}
		s.lv[i].fills = 0
		s.lv[i].resetStreams()
	}
	for i := range s.stacks {
		s.stacks[i].reset()
	}
	s.reads, s.writes, s.deps, s.ops = 0, 0, 0, 0
}

// Read records a read of the word at addr: one line access.
func (s *Sim) Read(addr uint64) { s.access(addr, 0) }

// Write records a write of the word at addr.
func (s *Sim) Write(addr uint64) { s.access(addr, WriteBit) }

// ReadDependent records a dependent read: its address came from a chain
// of loads, so a miss to memory waits for the memory's latency.
func (s *Sim) ReadDependent(addr uint64) { s.access(addr, DepBit) }

// Access records an access of size bytes at addr as one access to each
// line of the shortest line size it spans. Size 0 counts as 1; an access
// that would run past the end of the address space is clipped to it.
func (s *Sim) Access(addr, size uint64, write, dependent bool) {
	if size == 0 {
		size = 1
	}
	last := addr + size - 1
	if last < addr || last == ^uint64(0) {
		last = ^uint64(0) - 1
	}
	f := uint64(0)
	if write {
		f |= WriteBit
	}
	if dependent {
		f |= DepBit
	}
	for l := addr >> s.shift; l <= last>>s.shift; l++ {
		s.access(l<<s.shift, f)
	}
}

// Batch records the word accesses ops in order: each is the address of a
// word that does not cross a line, its two low bits replaced by WriteBit
// and DepBit.
func (s *Sim) Batch(ops []uint64) {
	if s.one {
		if s.cfg.Curves {
			s.batchOne(ops)
		} else {
			s.batchZones(ops)
		}
		return
	}
	for _, op := range ops {
		s.access(op, op&(WriteBit|DepBit))
	}
}

// batchOne is Batch for a hierarchy of one line size, with the recent
// set's lookup written out and the counts of reads, writes and dependent
// accesses in registers. Its fills are queued (fills.go) and all counted
// before it returns, as batchZones's are.
func (s *Sim) batchOne(ops []uint64) {
	k := &s.stacks[0]
	sh := k.shift & 63
	var writes, deps uint64
	for _, op := range ops {
		line := op >> sh
		writes += op & WriteBit
		deps += op >> 1 & 1
		var si int
		switch line { // unused entries hold noLine, which no line equals
		case k.rline[0]:
			si = k.rslot[0] // distance 0: a hit everywhere
			k.near[0]++
		case k.rline[1]:
			si = k.rslot[1]
			k.recent(1, line, si)
			if k.lines0 <= 1 {
				k.queueFill(&k.slots[si], si, line, k.missed(1), op)
			}
		case k.rline[2]:
			si = k.rslot[2]
			k.recent(2, line, si)
			if k.lines0 <= 2 {
				k.queueFill(&k.slots[si], si, line, k.missed(2), op)
			}
		case k.rline[3]:
			si = k.rslot[3]
			k.recent(3, line, si)
			if k.lines0 <= 3 {
				k.queueFill(&k.slots[si], si, line, k.missed(3), op)
			}
		default:
			d, si := k.far(line)
			e := &k.slots[si]
			if n := k.missed(d); n > 0 {
				k.queueFill(e, si, line, n, op)
			}
			if op&WriteBit != 0 {
				e.dirty = k.all
			}
			continue
		}
		if op&WriteBit != 0 {
			k.slots[si].dirty = k.all
		}
	}
	k.drainFills()
	s.reads += int64(len(ops)) - int64(writes)
	s.writes += int64(writes)
	s.deps += int64(deps)
}

// batchZones is batchOne without the distances. While it runs, the
// recent set is kept by the index of each line's last access in ops
// rather than in order: an access to one of its lines hits every level
// (the first level holds more lines than the set) and only sets that
// line's stamp, and a far access replaces the line of the least stamp,
// the least recently used, which goes to the front of the zones' list
// (zoneMove). The set is put back in order before it returns. The inner
// loop has no call, which would cost it its registers on every access
// (Go keeps no register across a call): it stops at each far access. The
// fills are queued (fills.go) and all counted before it returns.
func (s *Sim) batchZones(ops []uint64) {
	k := &s.stacks[0]
	for len(ops) > 0 && (k.lines0 < recentLen || k.nr < recentLen) {
		// A first level of fewer lines than the recent set, which an
		// access to the set can miss, or a set not yet full: one access
		// at a time.
		s.access(ops[0], ops[0]&(WriteBit|DepBit))
		ops = ops[1:]
	}
	if len(ops) == 0 {
		return
	}
	sh := k.shift & 63
	// The stamps: the most recent line of the set is the one at 0.
	stamp := [recentLen]int{-1, -2, -3, -4}
	var writes, deps uint64
	i := 0
	for {
		for ; i < len(ops); i++ {
			op := ops[i]
			line := op >> sh
			var r int
			switch line { // the set is full: no entry holds noLine
			case k.rline[0]:
				r = 0
			case k.rline[1]:
				r = 1
			case k.rline[2]:
				r = 2
			case k.rline[3]:
				r = 3
			default:
				goto far
			}
			stamp[r&(recentLen-1)] = i
			if op&(WriteBit|DepBit) != 0 {
				writes += op & WriteBit
				deps += op >> 1 & 1
				if op&WriteBit != 0 {
					k.slots[k.rslot[r&(recentLen-1)]].dirty = k.all
				}
			}
		}
		break
	far:
		// Written out, as the recent set's lookup: a call more would
		// cost the far access its registers again.
		op := ops[i]
		line := op >> sh
		writes += op & WriteBit
		deps += op >> 1 & 1
		v := 0 // the least recently used line of the set
		if stamp[1] < stamp[v] {
			v = 1
		}
		if stamp[2] < stamp[v] {
			v = 2
		}
		if stamp[3] < stamp[v] {
			v = 3
		}
		n, si, e := k.zoneMove(line, k.rslot[v])
		k.rline[v], k.rslot[v], stamp[v] = line, si, i
		if n > 0 {
			// k.queueFill(e, si, line, n, op)
			mask := uint8(1<<uint(n&15) - 1)
			q := &k.fq[k.nf&(fillLen-1)]
			q.line, q.si, q.miss, q.dirty, q.dep = line, uint32(si), mask, e.dirty&mask, uint8(op>>1)&1
			e.dirty &^= mask
			k.byN[n&15] += 1 | (op>>1&1)<<32
			if k.nf++; k.nf == fillLen {
				k.drainFills()
			}
		}
		if op&WriteBit != 0 {
			e.dirty = k.all
		}
		i++
	}
	// The set in order again, the latest stamp first.
	for a := 1; a < recentLen; a++ {
		for b := a; b > 0 && stamp[b] > stamp[b-1]; b-- {
			stamp[b], stamp[b-1] = stamp[b-1], stamp[b]
			k.rline[b], k.rline[b-1] = k.rline[b-1], k.rline[b]
			k.rslot[b], k.rslot[b-1] = k.rslot[b-1], k.rslot[b]
		}
	}
	k.drainFills()
	s.reads += int64(len(ops)) - int64(writes)
	s.writes += int64(writes)
	s.deps += int64(deps)
}

// access is one line access with flags f (WriteBit, DepBit).
func (s *Sim) access(addr, f uint64) {
	if f&WriteBit == 0 {
		s.reads++
	} else {
		s.writes++
	}
	s.deps += int64(f>>1) & 1
	for i := range s.stacks {
		k := &s.stacks[i]
		line := addr >> (k.shift & 63)
		d := int64(-1)
		switch line {
		case k.rline[0]:
			d = 0
		case k.rline[1]:
			d = 1
		case k.rline[2]:
			d = 2
		case k.rline[3]:
			d = 3
		}
		if d < 0 {
			s.far(k, line, f)
			continue
		}
		si := k.rslot[d&(recentLen-1)]
		k.recent(int(d), line, si)
		e := &k.slots[si]
		if d >= k.lines0 {
			k.misses(e, si, line, k.missed(d), f)
		}
		if f&WriteBit != 0 {
			e.dirty = k.all
		}
	}
}

// far is an access to a line outside the recent set: its distance, then
// the misses.
func (s *Sim) far(k *stack, line, f uint64) {
	var n, si int
	if k.curves {
		var d int64
		d, si = k.far(line)
		n = k.missed(d)
	} else {
		n, si = k.farZone(line)
	}
	e := &k.slots[si]
	if n > 0 {
		k.misses(e, si, line, n, f)
	}
	// Every level of the stack holds the line now: a write makes it dirty
	// in all of them.
	if f&WriteBit != 0 {
		e.dirty = k.all
	}
}

// misses counts the misses of an access that misses the first n levels
// of stack k, e being the line's slot, index si: a fill of each, and the
// write-back of the line's copy evicted dirty from it since the last
// access, sequential when the fill it came by was.
func (k *stack) misses(e *slot, si int, line uint64, n int, f uint64) {
	for j := range k.lv[:n] {
		l := &k.lv[j]
		l.maybeSweep()
		l.fills++
		seq, was := l.rule(k, si, line)
		l.counted(seq, was, e.dirty>>j&1 != 0)
		if f&DepBit != 0 {
			l.DependentMisses++
			if !seq {
				l.DependentRandFills++
			}
		}
	}
	e.dirty &^= uint8(1)<<n - 1
}

// Compute records n simple operations of work other than memory traffic.
func (s *Sim) Compute(n int64) { s.ops += n }

// Finish counts the write-back of every line still dirty in a level (the
// end of the run, or an eviction not yet counted) and leaves the lines
// clean, so a run may go on afterwards.
func (s *Sim) Finish() {
	for i := range s.stacks {
		k := &s.stacks[i]
		k.drainFills()
		for t := range k.slots {
			e := &k.slots[t]
			if e.dirty == 0 {
				continue
			}
			for j := range k.lv {
				b := uint8(1) << j
				if e.dirty&b != 0 {
					l := &k.lv[j]
					l.Writebacks++
					if *l.end(t)&1 != 0 {
						l.SeqWritebacks++
					}
				}
			}
			e.dirty = 0
		}
	}
}

// Levels is the counts of each level so far, L1 first.
func (s *Sim) Levels() []LevelCounts {
	out := make([]LevelCounts, len(s.lv))
	acc := s.reads + s.writes
	for i := range s.lv {
		c := s.lv[i].LevelCounts
		c.Misses = s.lv[i].fills
		c.RandFills = c.Misses - c.SeqFills
		c.Accesses = acc
		c.Hits = acc - c.Misses
		out[i] = c
		acc = c.Misses
	}
	return out
}

// Accesses is the line accesses so far: reads, writes and, among them,
// the dependent ones.
func (s *Sim) Accesses() (reads, writes, dependent int64) { return s.reads, s.writes, s.deps }

// Curve is the miss curve of one line size: the misses of a fully
// associative LRU cache of that line for every number of lines at once.
type Curve struct {
	Line     int64 `json:"line"`
	Accesses int64 `json:"accesses"` // line accesses of this line size
	Cold     int64 `json:"cold"`     // first accesses, misses at every size
	// Hist[d] is the accesses at stack distance d: d other lines were
	// accessed since the line's last access. A cache of c lines misses
	// the accesses at distance c or more.
	Hist []int64 `json:"hist"`
}

// Misses is the misses of a cache of the given number of lines.
func (c Curve) Misses(lines int64) int64 {
	m := c.Cold
	for d := max(lines, 0); d < int64(len(c.Hist)); d++ {
		m += c.Hist[d]
	}
	return m
}

// Curves is the miss curve of each line size of the hierarchy, shortest
// first, with Hist cut after its last non-zero bin; nil unless the
// simulator was made with Config.Curves.
func (s *Sim) Curves() []Curve {
	if !s.cfg.Curves {
		return nil
	}
	out := make([]Curve, len(s.stacks))
	for i := range s.stacks {
		k := &s.stacks[i]
		c := Curve{Line: 1 << k.shift, Cold: k.colds, Hist: k.histogram()}
		c.Accesses = c.Cold
		for _, v := range c.Hist {
			c.Accesses += v
		}
		out[i] = c
	}
	return out
}
