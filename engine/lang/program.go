package lang

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sort"
	"strings"

	"memwall/engine/hier"
	"memwall/engine/kernels"
	"memwall/engine/machine"
	"memwall/engine/sim"
	"memwall/engine/units"
)

// ParamDef is a param declaration: its name and default value.
type ParamDef struct {
	Name    string `json:"name"`
	Default int64  `json:"default"`
	Pos     Pos    `json:"-"`
}

// Program is a compiled program. It holds no run state: Run may be called
// any number of times, one at a time or concurrently.
type Program struct {
	file   *File
	Params []ParamDef
}

// Compile parses a program and checks it: names, types, arities and
// everything else that does not depend on the values of its params.
func Compile(src string) (*Program, error) {
	f, err := Parse(src)
	if err != nil {
		return nil, err
	}
	p := &Program{file: f}
	for _, d := range f.Params {
		v, err := units.ParseCount(d.Value)
		if err != nil {
			return nil, &Error{d.P, fmt.Sprintf("param %s: %v", d.Name, err)}
		}
		p.Params = append(p.Params, ParamDef{Name: d.Name, Default: v, Pos: d.P})
	}
	if _, err := p.build(nil, 512<<10, 64, false); err != nil {
		return nil, err
	}
	return p, nil
}

// Param returns a param's definition.
func (p *Program) Param(name string) (ParamDef, bool) {
	for _, d := range p.Params {
		if d.Name == name {
			return d, true
		}
	}
	return ParamDef{}, false
}

// Values are the params' defaults overridden by set; an unknown name is
// an error naming the params there are.
func (p *Program) Values(set map[string]int64) (map[string]int64, error) {
	vals := map[string]int64{}
	for _, d := range p.Params {
		vals[d.Name] = d.Default
	}
	names := make([]string, 0, len(set))
	for k := range set {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if _, ok := vals[k]; !ok {
			return nil, fmt.Errorf("%s: the program has no param %s (%s)", k, k, p.paramList())
		}
		vals[k] = set[k]
	}
	return vals, nil
}

func (p *Program) paramList() string {
	if len(p.Params) == 0 {
		return "it declares none"
	}
	var names []string
	for _, d := range p.Params {
		names = append(names, d.Name)
	}
	return "its params: " + strings.Join(names, ", ")
}

// image is a program compiled for one run.
type image struct {
	rt  *runtime
	top sfn
	g   *scope
}

// build compiles the program's closures against a fresh runtime. Params
// become global constants with the given values (defaults when nil).
func (p *Program) build(vals map[string]int64, cacheSize, lineSize int64, countOps bool) (img *image, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			img, err = nil, e
		}
	}()
	rt := &runtime{g: &frame{}, cacheSize: cacheSize, lineSize: lineSize}
	c := &compiler{countOps: countOps, rt: rt, g: newScope(""), funcs: map[string]*fnInfo{}, graph: &graph{}, sites: map[siteKey]*accessSite{}}
	var sets []sfn
	for _, d := range p.Params {
		if builtinNames[d.Name] {
			c.fail(d.Pos, "%s is the machine's and cannot be a param", d.Name)
		}
		sym := &symbol{name: d.Name, sk: symScalar, k: kInt, global: true, decl: d.Pos, node: c.graph.node(false)}
		c.g.add(sym)
		v := d.Default
		if vals != nil {
			v = vals[d.Name]
		}
		sets = append(sets, c.setScalar(sym, value{k: kInt, i: func(*frame) int64 { return v }}))
		sym.sk = symParam
	}
	// Signatures first, so that a function may call one defined after it.
	for _, f := range p.file.Funcs {
		if builtinNames[f.Name] || c.g.syms[f.Name] != nil {
			c.fail(f.P, "%s is already declared", f.Name)
		}
		fi := &fnInfo{f: f, sc: newScope(f.Name), ret: c.graph.node(false)}
		switch {
		case f.Result == "void":
			fi.k = kVoid
		case isFloatType(f.Result):
			fi.k = kFloat
		default:
			fi.k = kInt
		}
		for _, fp := range f.Params {
			if _, dup := fi.sc.syms[fp.Name]; dup {
				c.fail(fp.P, "%s has two parameters named %s", f.Name, fp.Name)
			}
			sym := &symbol{name: fp.Name, decl: fp.P, elem: fp.Type, node: c.graph.node(false)}
			if isFloatType(fp.Type) {
				sym.k = kFloat
			} else {
				sym.k = kInt
			}
			if fp.Array {
				sym.sk, sym.ndims = symArray, -1
			}
			fi.sc.add(sym)
			fi.params = append(fi.params, sym)
		}
		c.funcs[f.Name] = fi
	}
	// The top level in order; function bodies see the globals declared
	// before the first statement that calls them, and all params.
	var top []sfn
	bodies := false
	compileBodies := func() {
		if bodies {
			return
		}
		bodies = true
		for _, f := range p.file.Funcs {
			fi := c.funcs[f.Name]
			c.fs, c.fn = fi.sc, fi
			body := c.block(f.Body.Stmts)
			fi.body = body
			c.fs, c.fn = nil, nil
		}
	}
	for _, s := range p.file.Top {
		if containsCall(s) {
			compileBodies()
		}
		if f := c.stmt(s); f != nil {
			top = append(top, f)
		}
	}
	compileBodies()
	c.graph.classify(rt.access, rt.branch)
	rt.g.i = make([]int64, c.g.nI)
	rt.g.f = make([]float64, c.g.nF)
	rt.g.a = make([]*array, c.g.nA)
	all := append(sets, top...)
	return &image{rt: rt, g: c.g, top: func(f *frame) ctl {
		for _, s := range all {
			s(f)
		}
		return cNext
	}}, nil
}

// containsCall reports whether a top-level statement calls a user
// function, after which the functions' bodies must be compiled (they may
// use every global declared before it).
func containsCall(s Stmt) bool {
	found := false
	var visitE func(e Expr)
	visitE = func(e Expr) {
		switch e := e.(type) {
		case *Call:
			found = true
		case *Index:
			for _, x := range e.Idx {
				visitE(x)
			}
		case *Unary:
			visitE(e.X)
		case *Binary:
			visitE(e.L)
			visitE(e.R)
		case *Cond:
			visitE(e.C)
			visitE(e.T)
			visitE(e.F)
		}
	}
	var visitS func(s Stmt)
	visitS = func(s Stmt) {
		switch s := s.(type) {
		case *Block:
			for _, x := range s.Stmts {
				visitS(x)
			}
		case *Assign:
			visitE(s.L)
			visitE(s.R)
		case *ExprStmt:
			if c, ok := s.X.(*Call); ok && c.Fn != "phase" {
				found = true
			}
		case *VarDecl:
			for _, it := range s.Items {
				if it.Init != nil {
					if c, ok := it.Init.(*Call); ok && initialisers[c.Fn] != "" {
						continue
					}
					visitE(it.Init)
				}
			}
		case *ConstDecl:
			visitE(s.X)
		case *If:
			visitE(s.C)
			visitS(s.Then)
			if s.Else != nil {
				visitS(s.Else)
			}
		case *Loop:
			for _, x := range s.Init {
				visitS(x)
			}
			if s.C != nil {
				visitE(s.C)
			}
			for _, x := range s.Post {
				visitS(x)
			}
			visitS(s.Body)
		case *Swap:
			visitE(s.A)
			visitE(s.B)
		case *Return:
			if s.X != nil {
				visitE(s.X)
			}
		}
	}
	visitS(s)
	return found
}

// Branches selects which conditions are charged as branches.
type Branches int

const (
	// AllBranches charges every condition, loop tests included.
	AllBranches Branches = iota
	// DataBranches charges only conditions that depend on loaded data,
	// as the built-in kernels report theirs (key comparisons).
	DataBranches
)

// ParseBranches reads "all" or "data".
func ParseBranches(s string) (Branches, error) {
	switch s {
	case "all", "":
		return AllBranches, nil
	case "data":
		return DataBranches, nil
	}
	return 0, fmt.Errorf("branches: must be all or data; got %q", s)
}

func (b Branches) String() string {
	if b == DataBranches {
		return "data"
	}
	return "all"
}

// Options control a run.
type Options struct {
	// Params override the programs' defaults.
	Params map[string]int64
	// Seed selects the data, as kernels.Options.Seed does.
	Seed     uint64
	Branches Branches
	// Limits; zero means the default.
	MaxSteps  int64
	MaxDepth  int
	MaxMemory int64
	// Progress, if set, is called about every 65536 steps on the running
	// goroutine (a browser may block in it to yield).
	Progress func(Progress)
	// MissCurve asks Run for the miss curve over every cache size
	// (Result.MissCurves), on any machine.
	MissCurve bool
}

// LineProfile is what one source line cost.
type LineProfile struct {
	// Line is the source line; 0 is the end of the run (the write-backs
	// of the lines still dirty then).
	Line           int     `json:"line"`
	Accesses       int64   `json:"accesses"`
	Misses         int64   `json:"misses"`
	Writebacks     int64   `json:"writebacks"`
	Sequential     int64   `json:"sequential_transfers"`
	Random         int64   `json:"random_transfers"`
	Dependent      int64   `json:"dependent_accesses"`
	Branches       int64   `json:"branches"`
	Mispredictions int64   `json:"mispredictions"`
	Seconds        float64 `json:"seconds"`
}

// Result is a run's simulated time, with the simulator's breakdown, and
// its per-line profile.
type Result struct {
	sim.Result
	Params map[string]int64 `json:"params"`
	// Footprint is the bytes of the arrays that have addresses.
	Footprint int64 `json:"footprint_bytes"`
	// Dependent counts the accesses whose address depends on a chain of
	// loads (see the package documentation).
	Dependent int64 `json:"dependent_accesses"`
	// DataBranches counts the executions of conditions that depend on
	// loaded data; Counts.Branches counts those charged.
	DataBranches int64         `json:"data_branches"`
	Steps        int64         `json:"steps"`
	Lines        []LineProfile `json:"lines"`
	// Hierarchy is the run through the hierarchy simulator, for a
	// machine that gives its cache levels; nil otherwise.
	Hierarchy *hier.Result `json:"hierarchy,omitempty"`
	// MissCurves are the run's miss curves, one for each line size of
	// the machine's levels, when Options.MissCurve asked for them.
	MissCurves []hier.MissCurve `json:"miss_curves,omitempty"`
}

// MissCurvePerDoubling is the cache sizes a doubling of Result.MissCurves.
const MissCurvePerDoubling = 8

// Run executes the program on machine m. Errors are *Error (with the
// source position) for the program's own faults, and the context's error
// when it was cancelled.
func (p *Program) Run(ctx context.Context, m machine.Machine, pred sim.Predictor, o Options) (res *Result, err error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	vals, err := p.Values(o.Params)
	if err != nil {
		return nil, err
	}
	s, err := sim.New(sim.ConfigFor(m, pred))
	if err != nil {
		return nil, err
	}
	h, err := hier.NewForRun(m, o.MissCurve)
	if err != nil {
		return nil, err
	}
	// A run through the hierarchy simulator's levels counts its
	// operations, which it charges at the machine's compute rate.
	levels := len(m.Levels) > 0
	img, err := p.build(vals, m.C, m.B, levels)
	if err != nil {
		return nil, err
	}
	rt := img.rt
	rt.s, rt.h, rt.ctx, rt.progress = s, h, ctx, o.Progress
	rt.data = kernels.NewData(o.Seed)
	rt.next, rt.align = arrayStart, uint64(max(4096, m.B))
	rt.maxSteps, rt.maxDepth, rt.maxMem = o.MaxSteps, o.MaxDepth, o.MaxMemory
	if rt.maxSteps <= 0 {
		rt.maxSteps = DefaultMaxSteps
	}
	if rt.maxDepth <= 0 {
		rt.maxDepth = DefaultMaxDepth
	}
	if rt.maxMem <= 0 {
		rt.maxMem = DefaultMaxMemory
	}
	rt.checkAt = checkEvery
	for _, b := range rt.branch {
		b.report = o.Branches == AllBranches || b.data
	}
	defer func() {
		if r := recover(); r != nil {
			switch e := r.(type) {
			case *Error:
				res, err = nil, e
			case stop:
				res, err = nil, e.err
			default:
				res, err = nil, fmt.Errorf("internal error in the interpreter (please report it with the program): %v\n%s", r, debug.Stack())
			}
		}
	}()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rt.buf, rt.bufSite = make([]uint64, 0, bufLen), make([]*accessSite, 0, bufLen)
	if h != nil {
		rt.hops = make([]uint64, 0, bufLen)
	}
	img.top(rt.g)
	rt.flush()
	_, w0, _ := s.Traffic()
	s.Finish()
	_, w1, _ := s.Traffic()
	rt.endFills = w1 - w0
	r := rt.result(vals)
	if levels {
		h.Finish()
		h.Compute(rt.operations())
		r.Hierarchy = rt.hierarchy(m, r.Counts.Mispredictions)
	}
	if o.MissCurve {
		r.MissCurves = h.MissCurves(MissCurvePerDoubling)
	}
	return r, nil
}

// ErrNoProgram is returned for an empty source.
var ErrNoProgram = errors.New("the program is empty")

func (rt *runtime) result(vals map[string]int64) *Result {
	r := &Result{Result: rt.s.Result(), Params: vals, Steps: rt.steps}
	for _, a := range rt.arrays {
		if !a.register {
			r.Footprint += a.n << a.shift
		}
	}
	cfg := rt.s.Config()
	lines := map[int]*LineProfile{}
	at := func(l int) *LineProfile {
		lp := lines[l]
		if lp == nil {
			lp = &LineProfile{Line: l}
			lines[l] = lp
		}
		return lp
	}
	for _, a := range rt.access {
		if a.n == 0 {
			continue
		}
		lp := at(a.pos.Line)
		lp.Accesses += a.n
		if a.dependent {
			lp.Dependent += a.n
			r.Dependent += a.n
		}
		if a.write {
			// A fill caused by a write is a miss of the write.
			lp.Misses += a.fills
		} else {
			lp.Misses += a.fills
		}
		lp.Writebacks += a.wbs
		lp.Sequential += a.seq
		lp.Random += a.fills + a.wbs - a.seq
	}
	for _, b := range rt.branch {
		if b.data {
			r.DataBranches += b.n
		}
		if b.n == 0 || !b.report {
			continue
		}
		lp := at(b.pos.Line)
		lp.Branches += b.n
		lp.Mispredictions += b.mispred
	}
	if rt.endFills > 0 {
		// The final write-backs: the simulator's total less the lines'.
		lp := at(0)
		total := r.Counts
		var seq int64
		for _, l := range lines {
			if l.Line != 0 {
				seq += l.Sequential
			}
		}
		lp.Writebacks = rt.endFills
		lp.Sequential = total.SeqTransfers - seq
		lp.Random = rt.endFills - lp.Sequential
	}
	b := float64(cfg.Line)
	for _, l := range lines {
		l.Seconds = float64(l.Sequential)*b/cfg.Beta1 + float64(l.Random)*b/cfg.Beta2 + float64(l.Mispredictions)*cfg.Mispredict
		r.Lines = append(r.Lines, *l)
	}
	sort.Slice(r.Lines, func(i, j int) bool { return r.Lines[i].Line < r.Lines[j].Line })
	return r
}
