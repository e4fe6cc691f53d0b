package hier

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"memwall/engine/machine"
)

// naive is the reference hierarchy, written as directly as possible and
// sharing no code with Sim: each level is an explicit LRU list of its
// lines (most recent first), searched linearly, O(lines) per access.
//
// The model it implements, and that Sim claims to compute: an inclusive
// hierarchy of fully associative LRU caches in which every access goes
// down through all levels. It looks the line up in L1; a hit or a miss,
// it then goes on to L2, and so on to the last level, so a hit in L1 also
// makes the line the most recently used of L2 and below. (A hierarchy in
// which only L1's misses reach L2 orders L2 by its own accesses, which
// differ from the program's, and its misses are not those of stack
// distances.) A level that misses fills the line from the level below and
// evicts its least recently used line. The levels' lines grow outwards,
// and so do their numbers of lines, so each level holds every line a
// level above it holds (naive checks this at every eviction of a dirty
// line, which must find its line in the level below).
//
// Writes are write-back and write-allocate as in a real hierarchy: a
// write dirties the line in L1 only; a level that evicts a dirty line
// writes it back, which dirties its line in the level below (memory for
// the last). Finish writes back the dirty lines of L1, then of L2, and so
// on. Sim instead marks the line dirty in every level at the write; the
// counts agree because of inclusion, and this reference checks that they
// do.
//
// The stream rule is that of engine/sim without its cap (doc.go), on a
// plain list of the level's last K fills.
type naive struct {
	levels []machine.Level
	k      int
	cache  [][]naiveLine // per level, most recently used first
	fills  [][]naiveFill // per level, the last K fills, oldest first
	counts []LevelCounts
	hist   map[int64][]int64 // per line size: accesses by stack distance
	stacks map[int64][]uint64
	colds  map[int64]int64
	t      *testing.T
}

type naiveLine struct {
	line       uint64
	dirty, seq bool
}

type naiveFill struct {
	line uint64
	end  bool // still the end of its stream
}

func newNaive(t *testing.T, levels []machine.Level, window int) *naive {
	n := &naive{levels: levels, k: window, cache: make([][]naiveLine, len(levels)), fills: make([][]naiveFill, len(levels)),
		counts: make([]LevelCounts, len(levels)), hist: map[int64][]int64{}, stacks: map[int64][]uint64{}, colds: map[int64]int64{}, t: t}
	if n.k == 0 {
		n.k = DefaultWindow
	}
	return n
}

// access is one access to the word at addr, which crosses no line.
func (n *naive) access(addr uint64, write, dep bool) {
	// The stack distance of each line size, from an explicit LRU stack:
	// the line's index in it.
	seen := map[int64]bool{}
	for _, l := range n.levels {
		b := l.Line
		if seen[b] {
			continue
		}
		seen[b] = true
		line := addr / uint64(b)
		st := n.stacks[b]
		found := -1
		for i, x := range st {
			if x == line {
				found = i
				break
			}
		}
		if found < 0 {
			n.colds[b]++
			st = append(st, 0)
			found = len(st) - 1
		} else {
			for len(n.hist[b]) <= found {
				n.hist[b] = append(n.hist[b], 0)
			}
			n.hist[b][found]++
		}
		// Move to the front.
		copy(st[1:found+1], st[:found])
		st[0] = line
		n.stacks[b] = st
	}
	// The levels, L1 first.
	for i, l := range n.levels {
		line := addr / uint64(l.Line)
		c := &n.counts[i]
		hit := -1
		for j, x := range n.cache[i] {
			if x.line == line {
				hit = j
				break
			}
		}
		if hit >= 0 {
			x := n.cache[i][hit]
			copy(n.cache[i][1:hit+1], n.cache[i][:hit])
			n.cache[i][0] = x
			continue
		}
		c.Misses++
		if dep {
			c.DependentMisses++
		}
		if int64(len(n.cache[i])) == l.Lines() {
			v := n.cache[i][len(n.cache[i])-1]
			n.cache[i] = n.cache[i][:len(n.cache[i])-1]
			if v.dirty {
				n.writeback(i, v)
			}
		}
		seq := n.stream(i, line)
		if seq {
			c.SeqFills++
		} else {
			c.RandFills++
			if dep {
				c.DependentRandFills++
			}
		}
		n.cache[i] = append([]naiveLine{{line: line, seq: seq}}, n.cache[i]...)
	}
	if write {
		for j := range n.cache[0] {
			if n.cache[0][j].line == addr/uint64(n.levels[0].Line) {
				n.cache[0][j].dirty = true
			}
		}
	}
}

// writeback counts the write-back of v by level i and dirties its line
// in level i+1, which must hold it.
func (n *naive) writeback(i int, v naiveLine) {
	n.counts[i].Writebacks++
	if v.seq {
		n.counts[i].SeqWritebacks++
	}
	if i+1 == len(n.levels) {
		return
	}
	below := v.line * uint64(n.levels[i].Line) / uint64(n.levels[i+1].Line)
	for j := range n.cache[i+1] {
		if n.cache[i+1][j].line == below {
			n.cache[i+1][j].dirty = true
			return
		}
	}
	n.t.Fatalf("inclusion broken: level %d evicted line %d, which level %d does not hold", i, v.line, i+1)
}

// stream applies the stream rule to a fill of line at level i.
func (n *naive) stream(i int, line uint64) bool {
	f := n.fills[i]
	if len(f) == n.k {
		f = f[1:]
	}
	seq := false
	for j := len(f) - 1; j >= 0; j-- {
		if f[j].end && (f[j].line+1 == line || f[j].line == line+1) {
			f[j].end = false
			seq = true
			break
		}
	}
	n.fills[i] = append(append([]naiveFill(nil), f...), naiveFill{line: line, end: true})
	return seq
}

func (n *naive) finish() {
	for i := range n.levels {
		for j, x := range n.cache[i] {
			if x.dirty {
				n.writeback(i, x)
				n.cache[i][j].dirty = false
			}
		}
	}
}

// op is one access of a test trace.
type op struct {
	addr       uint64
	write, dep bool
}

// genTrace mixes the patterns a program makes, in word accesses that
// cross no line of 4 bytes or more: scans forward and backward over a few
// arrays, random words over a large range, a small working set, and
// re-accesses of a recent address.
func genTrace(seed uint64, n int) []op {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var ops []op
	var recent []uint64
	bases := []uint64{1 << 20, 3 << 20, 5 << 20, 9 << 20}
	for len(ops) < n {
		switch r.IntN(5) {
		case 0, 1: // a scan of one array, either way, word by word
			base := bases[r.IntN(len(bases))] + uint64(r.IntN(1<<14))*4
			step := []int64{4, 4, 8, -4, 64}[r.IntN(5)]
			length := 1 + r.IntN(200)
			write := r.IntN(3) == 0
			for i := 0; i < length; i++ {
				a := uint64(int64(base) + int64(i)*step)
				ops = append(ops, op{addr: a, write: write})
			}
		case 2: // random words, some dependent
			for i := 0; i < 1+r.IntN(40); i++ {
				a := 1<<24 + uint64(r.IntN(1<<18))*4
				ops = append(ops, op{addr: a, write: r.IntN(4) == 0, dep: r.IntN(2) == 0})
			}
		case 3: // a small working set
			base := uint64(7<<20) + uint64(r.IntN(8))*4096
			span := 1 + r.IntN(24)
			for i := 0; i < 1+r.IntN(100); i++ {
				ops = append(ops, op{addr: base + uint64(r.IntN(span*64)/4)*4, write: r.IntN(5) == 0})
			}
		case 4: // reuse of recent addresses
			for i := 0; i < 1+r.IntN(30) && len(recent) > 0; i++ {
				a := recent[len(recent)-1-r.IntN(min(len(recent), 300))]
				ops = append(ops, op{addr: a, write: r.IntN(6) == 0, dep: r.IntN(3) == 0})
			}
		}
		for _, o := range ops[max(0, len(ops)-50):] {
			recent = append(recent, o.addr)
		}
		if len(recent) > 4096 {
			recent = append([]uint64(nil), recent[len(recent)-1024:]...)
		}
	}
	return ops[:n]
}

func lv(name string, size, line int64) machine.Level {
	return machine.Level{Name: name, Size: size, Line: line, Beta1: 10e9, Beta2: 5e9}
}

// testHierarchies are the shapes the reference test covers.
var testHierarchies = []struct {
	name   string
	levels []machine.Level
}{
	{"one level", []machine.Level{lv("cache", 8*64, 64)}},
	{"one level of 1000 lines", []machine.Level{lv("cache", 1000*64, 64)}},
	{"three levels, one line", []machine.Level{lv("L1", 4*64, 64), lv("L2", 16*64, 64), lv("L3", 64*64, 64)}},
	{"three line sizes", []machine.Level{lv("L1", 8*32, 32), lv("L2", 16*64, 64), lv("L3", 64*128, 128)}},
	{"two lines, shared", []machine.Level{lv("L1", 4*64, 64), lv("L2", 32*64, 64), lv("L3", 64*256, 256)}},
	{"uneven sizes", []machine.Level{lv("L1", 6*64, 64), lv("L2", 20*64, 64), lv("L3", 300*64, 64)}},
	{"one line each", []machine.Level{lv("L1", 4, 4), lv("L2", 8, 8)}},
}

// TestAgainstNaive runs random traces through Sim and through the naive
// hierarchy and wants exactly the same counts for every level, the same
// stack-distance histograms and hence miss curves.
func TestAgainstNaive(t *testing.T) {
	n := 6000
	if testing.Short() || runtime.GOOS == "js" { // WebAssembly runs it several times slower
		n = 1500
	}
	for _, h := range testHierarchies {
		for seed := uint64(1); seed <= 4; seed++ {
			for _, curves := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/seed %d/curves %v", h.name, seed, curves), func(t *testing.T) {
					testAgainstNaive(t, h.levels, seed, n, curves)
				})
			}
		}
	}
}

// testAgainstNaive is one run of TestAgainstNaive: the levels' counts
// always, and the miss curves when they are asked for.
func testAgainstNaive(t *testing.T, levels []machine.Level, seed uint64, n int, curves bool) {
	trace := genTrace(seed, n)
	if seed == 4 {
		// The arrays of odd mebibytes moved past the flat directory's
		// pages (stack.flat), to the hashed one, the rest left below.
		for i := range trace {
			if trace[i].addr>>20&1 == 1 {
				trace[i].addr += 1 << 40
			}
		}
	}
	window := 0 // the default, and a short region for seed 3
	if seed == 3 {
		window = 5
	}
	s, err := New(Config{Levels: levels, Window: window, Curves: curves})
	if err != nil {
		t.Fatal(err)
	}
	if seed <= 2 {
		// The levels' fill numbers wrap within the run (stream.go keeps
		// them mod 2^32, and its words mod 2^31), and the ends are swept
		// every 64 fills instead of every 2^28.
		for i := range s.lv {
			s.lv[i].now = 1<<32 - 1500
			s.lv[i].swept = s.lv[i].now
		}
		defer func(p uint32) { sweepEvery = p }(sweepEvery)
		sweepEvery = 64
	}
	ref := newNaive(t, levels, window)
	batch := seed%2 == 0 // half the runs go through Batch
	var ops []uint64
	for _, o := range trace {
		ref.access(o.addr, o.write, o.dep)
		switch {
		case batch:
			x := o.addr &^ 3
			if o.write {
				x |= WriteBit
			}
			if o.dep {
				x |= DepBit
			}
			ops = append(ops, x)
		case o.dep && !o.write:
			s.ReadDependent(o.addr)
		case o.write && !o.dep:
			s.Write(o.addr)
		case !o.write:
			s.Read(o.addr)
		default:
			s.Access(o.addr, 4, true, true)
		}
	}
	s.Batch(ops)
	s.Finish()
	ref.finish()
	got := s.Levels()
	acc := int64(len(trace))
	for i, c := range ref.counts {
		c.Accesses, c.Hits = acc, acc-c.Misses
		acc = c.Misses
		if got[i] != c {
			t.Errorf("level %s:\n got %+v\nwant %+v", levels[i].Name, got[i], c)
		}
	}
	// The footprint is the distinct lines of the last level's size, the
	// naive reference's first accesses, in either mode.
	last := levels[len(levels)-1].Line
	if got, want := s.Footprint(), ref.colds[last]*last; got != want {
		t.Errorf("Footprint %d, want %d (%d lines of %d B)", got, want, ref.colds[last], last)
	}
	if !curves && s.Curves() != nil {
		t.Errorf("Curves without Config.Curves: %v, want nil", s.Curves())
	}
	for _, c := range s.Curves() {
		want := ref.hist[c.Line]
		for len(want) > 0 && want[len(want)-1] == 0 {
			want = want[:len(want)-1]
		}
		if c.Cold != ref.colds[c.Line] || fmt.Sprint(c.Hist) != fmt.Sprint(want) {
			t.Errorf("line %d: cold %d, histogram %v\nwant cold %d, histogram %v", c.Line, c.Cold, c.Hist, ref.colds[c.Line], want)
		}
		for _, l := range levels {
			if l.Line == c.Line {
				if m, w := c.Misses(l.Lines()), ref.counts[levelIndex(levels, l.Name)].Misses; m != w {
					t.Errorf("miss curve at %s: %d, want %d", l.Name, m, w)
				}
			}
		}
	}
}

func levelIndex(ls []machine.Level, name string) int {
	for i, l := range ls {
		if l.Name == name {
			return i
		}
	}
	return -1
}

// TestZonesAgainstNaive checks the zones' list (zones.go) against the
// naive hierarchy on drawn hierarchies of up to six levels of one or two
// line sizes, with the edge cases of the list: levels of at most four
// lines (inside the recent set), of five (a boundary at the list's
// first line) and a last level of no more than four lines (no list).
func TestZonesAgainstNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	n := 3000
	if testing.Short() || runtime.GOOS == "js" {
		n = 1000
	}
	for h := range 24 {
		var levels []machine.Level
		line, lines := int64(64), int64(1+r.IntN(6))
		for i := range 2 + r.IntN(5) {
			if i > 0 && r.IntN(4) == 0 {
				line *= 2 // a longer line, as many lines or more
			}
			levels = append(levels, lv(fmt.Sprintf("L%d", i+1), lines*line, line))
			lines += int64(1 + r.IntN(1+int(lines)))
		}
		for seed := uint64(1); seed <= 2; seed++ {
			t.Run(fmt.Sprintf("hierarchy %d/seed %d", h, seed), func(t *testing.T) {
				testAgainstNaive(t, levels, seed, n, false)
			})
		}
	}
}
