package lang

import (
	"context"
	"fmt"
	"math"

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

type page [pageLen]int64

// array is a declared array: its shape, its simulated address and its
// values (float arrays keep the bits of their float64 values).
type array struct {
	name     string
	decl     Pos
	elemType string
	shift    uint // log2 of the element size
	float    bool
	dims     []int64
	n        int64
	base     uint64
	register bool
	pages    []*page
}

// Limits of a run.
const (
	// MaxArrayElements bounds one array's elements (its address range,
	// not its memory: untouched pages cost nothing).
	MaxArrayElements = 1 << 32
	// DefaultMaxMemory bounds the pages a run allocates natively.
	DefaultMaxMemory = 4 << 30
	// DefaultMaxSteps bounds loop iterations plus calls.
	DefaultMaxSteps = 1 << 40
	// DefaultMaxDepth bounds the depth of calls.
	DefaultMaxDepth = 10000
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
	g        *frame
	data     *kernels.Data
	ctx      context.Context
	progress func(Progress)

	next      uint64 // the next free address
	align     uint64
	cacheSize int64
	lineSize  int64

	steps    int64
	checkAt  int64
	maxSteps int64
	depth    int
	maxDepth int
	mem      int64
	maxMem   int64

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
	if err := rt.ctx.Err(); err != nil {
		panic(stop{err})
	}
	if rt.progress != nil {
		rt.progress(Progress{Steps: rt.steps, Accesses: rt.s.Counts().Accesses})
		if err := rt.ctx.Err(); err != nil {
			panic(stop{err})
		}
	}
}

// load reads element i of a, an index already checked.
func (rt *runtime) load(a *array, i int64, st *accessSite) int64 {
	if !a.register {
		s := rt.s
		st.n++
		f0, w0, q0 := s.Traffic()
		s.Read(a.base + uint64(i)<<a.shift)
		if f1, w1, q1 := s.Traffic(); f1 != f0 || w1 != w0 {
			st.fills += f1 - f0
			st.wbs += w1 - w0
			st.seq += q1 - q0
		}
	}
	pg := a.pages[i>>pageBits]
	if pg == nil {
		return 0
	}
	return pg[i&pageMask]
}

// store writes element i of a.
func (rt *runtime) store(a *array, i, v int64, st *accessSite) {
	if !a.register {
		s := rt.s
		st.n++
		f0, w0, q0 := s.Traffic()
		s.Write(a.base + uint64(i)<<a.shift)
		if f1, w1, q1 := s.Traffic(); f1 != f0 || w1 != w0 {
			st.fills += f1 - f0
			st.wbs += w1 - w0
			st.seq += q1 - q0
		}
	}
	pg := a.pages[i>>pageBits]
	if pg == nil {
		pg = rt.newPage(a, st.pos)
		a.pages[i>>pageBits] = pg
	}
	pg[i&pageMask] = wrap(a.elemType, v)
}

func (rt *runtime) newPage(a *array, p Pos) *page {
	rt.mem += pageLen * 8
	if rt.mem > rt.maxMem {
		rt.fail(p, "the arrays need more than %s of memory to run (%s is the limit here); use a smaller size", units.FormatSize(rt.maxMem), units.FormatSize(rt.maxMem))
	}
	return new(page)
}

// wrap stores v as an element of type t would hold it.
func wrap(t string, v int64) int64 {
	switch t {
	case "int", "int32":
		return int64(int32(v))
	case "uint32":
		return int64(uint32(v))
	case "char", "int8":
		return int64(int8(v))
	case "byte", "uint8":
		return int64(uint8(v))
	case "short", "int16":
		return int64(int16(v))
	case "uint16":
		return int64(uint16(v))
	case "float", "float32":
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
		pg := a.pages[i>>pageBits]
		if pg == nil {
			pg = rt.newPage(a, p)
			a.pages[i>>pageBits] = pg
		}
		pg[i&pageMask] = wrap(a.elemType, vals(i))
	}
}
