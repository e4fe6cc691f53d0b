package lang

import (
	"context"
	"fmt"
	"math"
	goruntime "runtime"

	"memwall/engine/hier"
	"memwall/engine/kernels"
	"memwall/engine/sim"
	"memwall/engine/units"
)

// An array's values live in pages allocated on first write, so a large
// array that a program touches sparsely (the bucket sorts' buckets, each
// as long as the input) costs memory only for what it touches.
const (
	pageBits = 10
	pageLen  = 1 << pageBits
	pageMask = pageLen - 1
)

type (
	page   [pageLen]int64
	page32 [pageLen]int32
)

// array is a declared array: its shape, its simulated address and its
// values (float arrays keep the bits of their float64 values).
type array struct {
	name     string
	decl     Pos
	elemType string
	wrapKind uint8 // how a stored value is narrowed (see wrap)
	shift    uint  // log2 of the element size
	float    bool
	dims     []int64
	n        int64
	base     uint64
	register bool
	// Integer elements of 4 bytes or fewer live in 32-bit pages (half the
	// host memory, as the built-in kernels' uint32 arrays), the others in
	// 64-bit pages; one of the two tables is used.
	pages    []*page
	pages32  []*page32
	unsigned bool // a uint32 array: its 32-bit values read back unsigned
}

// Limits of a run.
const (
	// MaxArrayElements bounds one array's elements (its address range,
	// not its memory: untouched pages cost nothing).
	MaxArrayElements = 1 << 32
	// DefaultMaxSteps bounds loop iterations plus calls.
	DefaultMaxSteps = 1 << 40
	// MaxOffset bounds an array's declared offset.
	MaxOffset = 1 << 20
	// arrayStart is the address of the first array (engine/kernels').
	arrayStart = 1 << 20
	// checkEvery is how many steps pass between checks of the context,
	// the step limit and progress.
	checkEvery = 1 << 16
)

// accessSite is one array access in the source, with its counts.
type accessSite struct {
	pos       Pos
	write     bool
	node      int   // its load node (reads)
	deps      []int // what its index depends on
	dependent bool
	n         int64
	fills     int64
	wbs       int64
	seq       int64
}

// branchSite is one condition in the source.
type branchSite struct {
	pos     Pos
	id      int
	deps    []int
	data    bool // depends on loaded data
	report  bool // charged under the run's branch mode
	n       int64
	taken   int64
	mispred int64
}

type frame struct {
	i    []int64
	f    []float64
	a    []*array
	reti int64
	retf float64
}

// runtime is the state of one run, shared by the compiled closures.
type runtime struct {
	s        *sim.Sim
	h        *hier.Sim // the hierarchy simulator, when the machine gives levels
	hops     []uint64  // the buffer as hier.Batch takes it
	g        *frame
	data     *kernels.Data
	ctx      context.Context
	progress func(Progress)

	next      uint64 // the next free address
	align     uint64
	cacheSize int64
	lineSize  int64

	steps    int64
	ops      int64 // operators evaluated, when the compiler counts them
	checkAt  int64
	maxSteps int64
	depth    int
	maxDepth int
	mem      int64
	maxMem   int64

	buf      []uint64 // accesses not yet simulated (see flush)
	bufSite  []*accessSite
	access   []*accessSite
	branch   []*branchSite
	arrays   []*array
	endFills int64 // the final write-backs, charged to no line
}

// Progress is reported during a run about every 65536 steps.
type Progress struct {
	Steps    int64
	Accesses int64
}

// stop carries a cancelled context out of the closures.
type stop struct{ err error }

func (rt *runtime) fail(p Pos, format string, a ...any) {
	panic(&Error{p, fmt.Sprintf(format, a...)})
}

// tick counts a step (a loop iteration or a call).
func (rt *runtime) tick(p Pos) {
	rt.steps++
	if rt.steps >= rt.checkAt {
		rt.check(p)
	}
}

func (rt *runtime) check(p Pos) {
	rt.checkAt = rt.steps + checkEvery
	if rt.steps > rt.maxSteps {
		rt.fail(p, "the run took more than %d steps (loop iterations and calls), the step limit; is a loop endless?", rt.maxSteps)
	}
	// Let the scheduler run: under WebAssembly nothing preempts a running
	// goroutine, so a context's timer could not fire during a run that
	// reports no progress (a browser's progress callback yields anyway).
	goruntime.Gosched()
	if err := rt.ctx.Err(); err != nil {
		panic(stop{err})
	}
	if rt.progress != nil {
		rt.flush()
		rt.progress(Progress{Steps: rt.steps, Accesses: rt.s.Counts().Accesses})
		if err := rt.ctx.Err(); err != nil {
			panic(stop{err})
		}
	}
}

// The accesses of a run are buffered and simulated in batches of
// bufLen: the interpreter's own reads of the values then follow each
// other without the simulator's work in between, so that the host
// overlaps its cache misses on a large array (as engine/kernels' batched
// loops do). Branches go to the predictor at once: its state does not
// depend on the cache.
const bufLen = 1024

// load reads element i of a, an index already checked.
func (rt *runtime) load(a *array, i int64, st *accessSite) int64 {
	var v int64
	if a.pages32 != nil {
		if pg := a.pages32[i>>pageBits]; pg != nil {
			v = int64(pg[i&pageMask])
			if a.unsigned {
				v = int64(uint32(v))
			}
		}
	} else if pg := a.pages[i>>pageBits]; pg != nil {
		v = pg[i&pageMask]
	}
	if !a.register {
		rt.buf = append(rt.buf, a.base+uint64(i)<<a.shift)
		rt.bufSite = append(rt.bufSite, st)
		if len(rt.buf) == bufLen {
			rt.flush()
		}
	}
	return v
}

// store writes element i of a.
func (rt *runtime) store(a *array, i, v int64, st *accessSite) {
	if !a.register {
		rt.buf = append(rt.buf, a.base+uint64(i)<<a.shift|writeFlag)
		rt.bufSite = append(rt.bufSite, st)
		if len(rt.buf) == bufLen {
			rt.flush()
		}
	}
	rt.put(a, i, a.wrap(v), st.pos)
}

// put stores a narrowed value, allocating its page on first use.
func (rt *runtime) put(a *array, i, v int64, p Pos) {
	if a.pages32 != nil {
		pg := a.pages32[i>>pageBits]
		if pg == nil {
			rt.charge(pageLen*4, p)
			pg = new(page32)
			a.pages32[i>>pageBits] = pg
		}
		pg[i&pageMask] = int32(v)
		return
	}
	pg := a.pages[i>>pageBits]
	if pg == nil {
		rt.charge(pageLen*8, p)
		pg = new(page)
		a.pages[i>>pageBits] = pg
	}
	pg[i&pageMask] = v
}

// writeFlag marks a write in the buffer: bit 63, which no address of a
// run reaches.
const writeFlag = 1 << 63

// flush simulates the buffered accesses, charging each one's transfers
// to its site.
func (rt *runtime) flush() {
	s := rt.s
	for k, op := range rt.buf {
		st := rt.bufSite[k]
		st.n++
		f0, w0, q0 := s.Traffic()
		if op&writeFlag != 0 {
			s.Write(op &^ writeFlag)
		} else {
			s.Read(op)
		}
		if f1, w1, q1 := s.Traffic(); f1 != f0 || w1 != w0 {
			st.fills += f1 - f0
			st.wbs += w1 - w0
			st.seq += q1 - q0
		}
	}
	if rt.h != nil {
		rt.feed()
	}
	rt.buf = rt.buf[:0]
	rt.bufSite = rt.bufSite[:0]
}

// charge counts n bytes of pages against the run's memory limit.
func (rt *runtime) charge(n int64, p Pos) {
	rt.mem += n
	if rt.mem > rt.maxMem {
		rt.fail(p, "the arrays need more than %s of memory to run (the limit here); use a smaller size", units.FormatSize(rt.maxMem))
	}
}

// Narrowings of a stored value, by element type.
const (
	wrapNone uint8 = iota
	wrapI32
	wrapU32
	wrapI8
	wrapU8
	wrapI16
	wrapU16
	wrapF32
)

func wrapKindOf(t string) uint8 {
	switch t {
	case "int", "int32":
		return wrapI32
	case "uint32":
		return wrapU32
	case "char", "int8":
		return wrapI8
	case "byte", "uint8":
		return wrapU8
	case "short", "int16":
		return wrapI16
	case "uint16":
		return wrapU16
	case "float", "float32":
		return wrapF32
	}
	return wrapNone
}

// wrap narrows v to what an element of a's type holds.
func (a *array) wrap(v int64) int64 {
	switch a.wrapKind {
	case wrapI32:
		return int64(int32(v))
	case wrapU32:
		return int64(uint32(v))
	case wrapI8:
		return int64(int8(v))
	case wrapU8:
		return int64(uint8(v))
	case wrapI16:
		return int64(int16(v))
	case wrapU16:
		return int64(uint16(v))
	case wrapF32:
		return int64(math.Float64bits(float64(float32(math.Float64frombits(uint64(v))))))
	}
	return v
}

// branchAt records the outcome of a condition.
func (rt *runtime) branchAt(b *branchSite, taken bool) {
	b.n++
	if taken {
		b.taken++
	}
	if b.report {
		m0 := rt.s.Mispredictions()
		rt.s.Branch(b.id, taken)
		if rt.s.Mispredictions() != m0 {
			b.mispred++
		}
	}
}

// declare lays an array out and allocates its page table.
func (rt *runtime) declare(a *array, offset int64) {
	if a.register {
		return
	}
	base := (rt.next+rt.align-1)&^(rt.align-1) + uint64(offset)
	a.base = base
	rt.next = base + uint64(a.n)<<a.shift
}

// fill stores an initialiser's values.
func (rt *runtime) fill(a *array, vals func(i int64) int64, p Pos) {
	for i := int64(0); i < a.n; i++ {
		rt.put(a, i, a.wrap(vals(i)), p)
	}
}

// fillU32 stores generated values page by page: an integer array of 4
// bytes or fewer takes them as they are (narrowed), so that generating the
// input costs what the built-in kernels pay for theirs.
func (rt *runtime) fillU32(a *array, v []uint32, p Pos) {
	if a.pages32 == nil || a.wrapKind != wrapI32 && a.wrapKind != wrapU32 {
		rt.fill(a, func(i int64) int64 { return int64(v[i]) }, p)
		return
	}
	for pi := range a.pages32 {
		rt.charge(pageLen*4, p)
		pg := new(page32)
		lo := pi * pageLen
		for k, x := range v[lo:min(lo+pageLen, len(v))] {
			pg[k] = int32(x)
		}
		a.pages32[pi] = pg
	}
}
