package lang

import "math"

// initialisers fill an array in its declaration.
var initialisers = map[string]string{
	"perm":    "perm() (a random permutation of 0..n-1)",
	"uniform": "uniform(max) or uniform(lo, hi) (integers drawn uniformly)",
	"seq":     "seq() or seq(start, step) (0, 1, 2, ...)",
	"zeros":   "zeros()",
}

// decl compiles a declaration.
func (c *compiler) decl(d *VarDecl) sfn {
	var fns []sfn
	for _, it := range d.Items {
		if it.Dims == nil {
			fns = append(fns, c.declScalar(d, it))
		} else {
			fns = append(fns, c.declArray(d, it))
		}
	}
	if len(fns) == 1 {
		return fns[0]
	}
	return func(f *frame) ctl {
		for _, s := range fns {
			s(f)
		}
		return cNext
	}
}

func (c *compiler) declScalar(d *VarDecl, it DeclItem) sfn {
	k := kInt
	if isFloatType(d.Type) {
		k = kFloat
	}
	var init value
	if it.Init != nil {
		if call, ok := it.Init.(*Call); ok && initialisers[call.Fn] != "" && c.funcs[call.Fn] == nil {
			c.fail(call.P, "%s initialises an array; %s is a scalar", call.Fn, it.Name)
		}
		init = c.expr(it.Init)
		if init.k != kInt && init.k != kFloat {
			c.fail(it.Init.pos(), "%s must be initialised with a number", it.Name)
		}
	} else {
		init = value{k: kInt, i: func(*frame) int64 { return 0 }}
	}
	sym := c.declareScalar(it.Name, k, it.P)
	c.graph.link(sym.node, init.deps, false)
	for _, dd := range c.ctrl {
		c.graph.link(sym.node, dd, true)
	}
	return c.setScalar(sym, init)
}

func (c *compiler) declArray(d *VarDecl, it DeclItem) sfn {
	if c.fs != nil || c.inner > 0 {
		c.fail(it.P, "arrays are declared at the top level, outside functions, loops and ifs (%s)", it.Name)
	}
	if builtinNames[it.Name] {
		c.fail(it.P, "%s is the machine's and cannot be declared", it.Name)
	}
	if old := c.lookup(it.Name); old != nil {
		c.fail(it.P, "%s is already declared at %s", it.Name, old.decl)
	}
	if _, ok := c.funcs[it.Name]; ok {
		c.fail(it.P, "%s is a function and cannot also be an array", it.Name)
	}
	dims := make([]iexpr, len(it.Dims))
	for k, e := range it.Dims {
		v := c.expr(e)
		if v.k != kInt {
			c.fail(e.pos(), "the length of %s must be an integer; got %s", it.Name, v.k)
		}
		dims[k] = v.i
	}
	var offset iexpr
	if it.Offset != nil {
		v := c.expr(it.Offset)
		if v.k != kInt {
			c.fail(it.Offset.pos(), "the offset of %s must be an integer number of bytes", it.Name)
		}
		offset = v.i
	}
	fill := c.initialiser(d, it)
	sym := &symbol{name: it.Name, sk: symArray, global: true, decl: it.P, ndims: len(it.Dims), elem: d.Type, regist: d.Register}
	if isFloatType(d.Type) {
		sym.k = kFloat
	}
	c.g.add(sym)
	rt, g, slot := c.rt, c.rt.g, sym.slot
	size := typeSizes[d.Type]
	name, p, elem, reg := it.Name, it.P, d.Type, d.Register
	return func(f *frame) ctl {
		a := &array{name: name, decl: p, elemType: elem, wrapKind: wrapKindOf(elem), shift: shiftOf(size), float: isFloatType(elem), register: reg}
		n := int64(1)
		for k, e := range dims {
			v := e(f)
			if v < 1 {
				rt.fail(it.Dims[k].pos(), "the length of %s must be at least 1; got %d", name, v)
			}
			if v > MaxArrayElements || n > MaxArrayElements/v {
				rt.fail(it.Dims[k].pos(), "%s would have more than %d elements (2^32), the most an array may have", name, int64(MaxArrayElements))
			}
			n *= v
			a.dims = append(a.dims, v)
		}
		a.n = n
		var off int64
		if offset != nil {
			off = offset(f)
			if off < 0 || off > MaxOffset || off%size != 0 {
				rt.fail(it.Offset.pos(), "the offset of %s must be a multiple of its element size (%d B) from 0 to %d; got %d", name, size, MaxOffset, off)
			}
		}
		npages := (n + pageLen - 1) / pageLen
		rt.charge(npages*8, p)
		if size <= 4 && !a.float {
			a.pages32 = make([]*page32, npages)
			a.unsigned = elem == "uint32"
		} else {
			a.pages = make([]*page, npages)
		}
		rt.declare(a, off)
		g.a[slot] = a
		rt.arrays = append(rt.arrays, a)
		if fill != nil {
			fill(f, a)
		}
		return cNext
	}
}

// initialiser compiles an array's initialiser call.
func (c *compiler) initialiser(d *VarDecl, it DeclItem) func(*frame, *array) {
	if it.Init == nil {
		return nil
	}
	call, ok := it.Init.(*Call)
	if !ok || initialisers[call.Fn] == "" {
		c.fail(it.Init.pos(), "an array is initialised by perm(), uniform(max), uniform(lo, hi), seq() or zeros()")
	}
	args := make([]iexpr, len(call.Args))
	for k, e := range call.Args {
		v := c.expr(e)
		if v.k != kInt {
			c.fail(e.pos(), "the arguments of %s must be integers", call.Fn)
		}
		args[k] = v.i
	}
	want := map[string][]int{"perm": {0}, "uniform": {1, 2}, "seq": {0, 2}, "zeros": {0}}[call.Fn]
	okArgs := false
	for _, n := range want {
		okArgs = okArgs || n == len(args)
	}
	if !okArgs {
		c.fail(call.P, "%s takes %s", call.Fn, initialisers[call.Fn])
	}
	rt, p, float := c.rt, call.P, isFloatType(d.Type)
	conv := func(v int64) int64 {
		if float {
			return int64(math.Float64bits(float64(v)))
		}
		return v
	}
	switch call.Fn {
	case "perm":
		return func(f *frame, a *array) {
			if a.n > math.MaxUint32 {
				rt.fail(p, "perm() makes permutations of up to 2^32 elements; %s has %d", a.name, a.n)
			}
			rt.reserve(a.n*4, p)
			v := rt.data.Permutation(int(a.n))
			if float {
				rt.fill(a, func(i int64) int64 { return conv(int64(v[i])) }, p)
			} else {
				rt.fillU32(a, v, p)
			}
			rt.mem -= a.n * 4
		}
	case "uniform":
		return func(f *frame, a *array) {
			lo, hi := int64(0), args[0](f)
			if len(args) == 2 {
				lo, hi = hi, args[1](f)
			}
			if hi <= lo || hi-lo > 1<<32 || hi-lo < 0 {
				rt.fail(p, "uniform draws from lo to hi-1: hi must exceed lo by 1 to 2^32; got lo = %d, hi = %d", lo, hi)
			}
			if a.n > math.MaxInt32 {
				rt.fail(p, "uniform() fills arrays of up to 2^31 elements; %s has %d", a.name, a.n)
			}
			rt.reserve(a.n*4, p)
			var v []uint32
			if hi-lo == 1<<32 {
				v = make([]uint32, a.n)
				for i := range v {
					v[i] = uint32(rt.data.Uint64())
				}
			} else {
				v = rt.data.Uniform(int(a.n), uint32(hi-lo))
			}
			if lo == 0 && !float {
				rt.fillU32(a, v, p)
			} else {
				rt.fill(a, func(i int64) int64 { return conv(lo + int64(v[i])) }, p)
			}
			rt.mem -= a.n * 4
		}
	case "seq":
		return func(f *frame, a *array) {
			start, step := int64(0), int64(1)
			if len(args) == 2 {
				start, step = args[0](f), args[1](f)
			}
			rt.fill(a, func(i int64) int64 { return conv(start + i*step) }, p)
		}
	}
	return nil // zeros: pages are zero
}

// reserve fails when n more bytes would pass the memory limit.
func (rt *runtime) reserve(n int64, p Pos) {
	rt.mem += n
	if rt.mem > rt.maxMem {
		rt.fail(p, "the arrays need more memory than the %d bytes allowed here; use a smaller size", rt.maxMem)
	}
}

// call compiles a call of a function or a built-in.
func (c *compiler) call(e *Call) value {
	if fi, ok := c.funcs[e.Fn]; ok {
		return c.callFunc(e, fi)
	}
	if _, ok := initialisers[e.Fn]; ok {
		c.fail(e.P, "%s() initialises an array in its declaration, like int X[N] = %s();", e.Fn, e.Fn)
	}
	rt := c.rt
	nargs := func(n int) {
		if len(e.Args) != n {
			c.fail(e.P, "%s takes %d argument(s); got %d", e.Fn, n, len(e.Args))
		}
	}
	num := func(k int) value {
		v := c.expr(e.Args[k])
		if v.k != kInt && v.k != kFloat {
			c.fail(e.Args[k].pos(), "%s needs a number", e.Fn)
		}
		return v
	}
	switch e.Fn {
	case "rand":
		nargs(1)
		v := num(0)
		if v.k != kInt {
			c.fail(e.P, "rand(n) needs an integer n")
		}
		n, p := v.i, e.P
		return value{k: kInt, deps: v.deps, p: e.P, i: func(f *frame) int64 {
			m := n(f)
			if m < 1 {
				rt.fail(p, "rand(n) draws from 0 to n-1: n must be at least 1; got %d", m)
			}
			if m <= math.MaxUint32 {
				return int64(rt.data.Uint32N(uint32(m)))
			}
			return int64(rt.data.Uint64() % uint64(m))
		}}
	case "min", "max":
		nargs(2)
		a, b := num(0), num(1)
		isMin := e.Fn == "min"
		v := value{deps: union(a.deps, b.deps), p: e.P}
		if a.k == kFloat || b.k == kFloat {
			af, bf := a.asFloat(), b.asFloat()
			v.k, v.f = kFloat, func(f *frame) float64 {
				if isMin {
					return math.Min(af(f), bf(f))
				}
				return math.Max(af(f), bf(f))
			}
			return v
		}
		ai, bi := a.i, b.i
		v.k, v.i = kInt, func(f *frame) int64 {
			if isMin {
				return min(ai(f), bi(f))
			}
			return max(ai(f), bi(f))
		}
		return v
	case "abs":
		nargs(1)
		a := num(0)
		if a.k == kFloat {
			af := a.f
			return value{k: kFloat, deps: a.deps, p: e.P, f: func(f *frame) float64 { return math.Abs(af(f)) }}
		}
		ai := a.i
		return value{k: kInt, deps: a.deps, p: e.P, i: func(f *frame) int64 {
			x := ai(f)
			if x < 0 {
				return -x
			}
			return x
		}}
	case "log2", "sqrt":
		nargs(1)
		a := num(0)
		af := a.asFloat()
		fn := math.Log2
		if e.Fn == "sqrt" {
			fn = math.Sqrt
		}
		return value{k: kFloat, deps: a.deps, p: e.P, f: func(f *frame) float64 { return fn(af(f)) }}
	case "int":
		nargs(1)
		a := num(0)
		return value{k: kInt, deps: a.deps, p: e.P, i: a.asInt()}
	case "float":
		nargs(1)
		a := num(0)
		return value{k: kFloat, deps: a.deps, p: e.P, f: a.asFloat()}
	case "sizeof":
		nargs(1)
		switch x := e.Args[0].(type) {
		case *TypeArg:
			v := typeSizes[x.Type]
			return value{k: kInt, p: e.P, i: func(*frame) int64 { return v }}
		case *Name:
			if sym := c.lookup(x.ID); sym != nil && sym.sk == symArray && sym.ndims >= 0 {
				ref := c.arrayRef(sym)
				size := typeSizes[sym.elem]
				return value{k: kInt, p: e.P, i: func(f *frame) int64 { return ref(f).n * size }}
			}
			if sym := c.lookup(x.ID); sym != nil && sym.sk != symArray {
				return value{k: kInt, p: e.P, i: func(*frame) int64 { return 8 }}
			}
		}
		c.fail(e.P, "sizeof takes a type (sizeof(int)) or an array")
	case "len":
		nargs(1)
		n, ok := e.Args[0].(*Name)
		if !ok {
			c.fail(e.P, "len takes an array's name")
		}
		ref := c.arrayRef(c.arraySym(n))
		return value{k: kInt, p: e.P, i: func(f *frame) int64 { return ref(f).n }}
	case "phase":
		nargs(1)
		s, ok := e.Args[0].(*StrLit)
		if !ok {
			c.fail(e.P, "phase takes a name in quotes: phase(\"merge\")")
		}
		name := s.V
		return value{k: kVoid, p: e.P, i: func(*frame) int64 { rt.flush(); rt.s.Phase(name); return 0 }}
	}
	c.fail(e.P, "%s is not a function (built-ins: rand, min, max, abs, log2, sqrt, int, float, sizeof, len, phase)", e.Fn)
	return value{}
}

func (c *compiler) callFunc(e *Call, fi *fnInfo) value {
	if len(e.Args) != len(fi.params) {
		c.fail(e.P, "%s takes %d argument(s); got %d", e.Fn, len(fi.params), len(e.Args))
	}
	type argFn func(from, to *frame)
	var sets []argFn
	for k, ps := range fi.params {
		arg := e.Args[k]
		if ps.sk == symArray {
			n, ok := arg.(*Name)
			if !ok {
				c.fail(arg.pos(), "argument %d of %s is an array: pass an array's name", k+1, e.Fn)
			}
			sym := c.arraySym(n)
			if typeSizes[sym.elem] != typeSizes[ps.elem] || isFloatType(sym.elem) != isFloatType(ps.elem) {
				if sym.ndims >= 0 {
					c.fail(arg.pos(), "%s holds %s elements; %s's parameter %s holds %s", n.ID, sym.elem, e.Fn, ps.name, ps.elem)
				}
			}
			ref, slot := c.arrayRef(sym), ps.slot
			sets = append(sets, func(from, to *frame) { to.a[slot] = ref(from) })
			continue
		}
		v := c.expr(arg)
		if v.k != kInt && v.k != kFloat {
			c.fail(arg.pos(), "argument %d of %s must be a number", k+1, e.Fn)
		}
		c.graph.link(ps.node, v.deps, false)
		for _, d := range c.ctrl {
			c.graph.link(ps.node, d, true)
		}
		slot := ps.slot
		if ps.k == kFloat {
			x := v.asFloat()
			sets = append(sets, func(from, to *frame) { to.f[slot] = x(from) })
		} else {
			x := v.asInt()
			sets = append(sets, func(from, to *frame) { to.i[slot] = x(from) })
		}
	}
	rt, p := c.rt, e.P
	invoke := func(f *frame) *frame {
		nf := fi.get()
		for _, s := range sets {
			s(f, nf)
		}
		rt.depth++
		if rt.depth > rt.maxDepth {
			rt.fail(p, "calls nest more than %d deep (the recursion limit); does %s recurse without end?", rt.maxDepth, fi.f.Name)
		}
		rt.tick(p)
		fi.body(nf)
		rt.depth--
		return nf
	}
	v := value{k: fi.k, deps: []int{fi.ret}, p: e.P}
	switch fi.k {
	case kFloat:
		v.f = func(f *frame) float64 {
			nf := invoke(f)
			r := nf.retf
			fi.put(nf)
			return r
		}
	default:
		v.i = func(f *frame) int64 {
			nf := invoke(f)
			r := nf.reti
			fi.put(nf)
			return r
		}
	}
	return v
}

// get takes a zeroed frame for a call.
func (fi *fnInfo) get() *frame {
	if n := len(fi.frees); n > 0 {
		f := fi.frees[n-1]
		fi.frees = fi.frees[:n-1]
		return f
	}
	return &frame{i: make([]int64, fi.sc.nI), f: make([]float64, fi.sc.nF), a: make([]*array, fi.sc.nA)}
}

// put returns a frame, cleared, for the next call.
func (fi *fnInfo) put(f *frame) {
	clear(f.i)
	clear(f.f)
	clear(f.a)
	f.reti, f.retf = 0, 0
	fi.frees = append(fi.frees, f)
}
