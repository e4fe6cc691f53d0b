package lang

import (
	"fmt"
	"math"
	"math/bits"
)

type kind uint8

const (
	kVoid kind = iota
	kInt
	kFloat
	kString
)

func (k kind) String() string {
	return [...]string{"nothing", "an integer", "a float", "a string"}[k]
}

type ctl uint8

const (
	cNext ctl = iota
	cBreak
	cContinue
	cReturn
)

type (
	iexpr func(*frame) int64
	fexpr func(*frame) float64
	bexpr func(*frame) bool
	sfn   func(*frame) ctl
)

// value is a compiled expression: its kind, its evaluator and the nodes
// of the dependence graph it is computed from.
type value struct {
	k    kind
	i    iexpr
	f    fexpr
	s    string
	deps []int
	p    Pos
}

func (v value) asInt() iexpr {
	if v.k == kFloat {
		f := v.f
		return func(fr *frame) int64 { return floatToInt(f(fr)) }
	}
	return v.i
}

func (v value) asFloat() fexpr {
	if v.k == kInt {
		i := v.i
		return func(fr *frame) float64 { return float64(i(fr)) }
	}
	return v.f
}

// floatToInt truncates toward zero as C does; NaN becomes 0 and values out
// of range saturate, the same on every platform.
func floatToInt(x float64) int64 {
	switch {
	case x != x:
		return 0
	case x >= 9.223372036854775807e18:
		return math.MaxInt64
	case x <= -9.223372036854775808e18:
		return math.MinInt64
	}
	return int64(x)
}

type symKind uint8

const (
	symScalar symKind = iota
	symArray
	symConst
	symParam
)

type symbol struct {
	name   string
	sk     symKind
	k      kind
	global bool
	slot   int
	node   int
	decl   Pos
	ndims  int // arrays: dimensions; -1 for an array parameter
	// implicit: declared by a first assignment at the top level; a
	// function's own first assignment of the name makes a local instead.
	implicit bool
	elem     string
	regist   bool
}

type scope struct {
	syms       map[string]*symbol
	nI, nF, nA int
	funcName   string
}

func newScope(fn string) *scope { return &scope{syms: map[string]*symbol{}, funcName: fn} }

func (s *scope) add(sym *symbol) {
	switch {
	case sym.sk == symArray:
		sym.slot = s.nA
		s.nA++
	case sym.k == kFloat:
		sym.slot = s.nF
		s.nF++
	default:
		sym.slot = s.nI
		s.nI++
	}
	s.syms[sym.name] = sym
}

type fnInfo struct {
	f      *Func
	k      kind
	params []*symbol
	sc     *scope
	body   sfn
	ret    int // graph node of the result
	frees  []*frame
}

// siteKey finds the access site compiled for an element's read or write.
type siteKey struct {
	ix    *Index
	write bool
}

type compiler struct {
	// countOps makes every arithmetic, logic and comparison operator
	// count an operation when evaluated (runtime.ops), for a run whose
	// time charges its work at the machine's compute rate.
	countOps bool
	rt       *runtime
	g        *scope
	fs       *scope
	fn       *fnInfo
	funcs    map[string]*fnInfo
	graph    *graph
	ctrl     [][]int
	loops    int
	inner    int // ifs and loops around the statement being compiled
	sites    map[siteKey]*accessSite
}

// counted is v adding one to the run's operations at each evaluation,
// when the compiler counts them; v itself otherwise, so that a run that
// charges no compute time pays nothing for the count.
func (c *compiler) counted(v value) value {
	if !c.countOps {
		return v
	}
	rt := c.rt
	if v.k == kFloat {
		x := v.f
		v.f = func(f *frame) float64 { rt.ops++; return x(f) }
	} else if x := v.i; x != nil {
		v.i = func(f *frame) int64 { rt.ops++; return x(f) }
	}
	return v
}

func (c *compiler) fail(p Pos, format string, a ...any) {
	panic(&Error{p, fmt.Sprintf(format, a...)})
}

func (c *compiler) lookup(name string) *symbol {
	if c.fs != nil {
		if s, ok := c.fs.syms[name]; ok {
			return s
		}
	}
	return c.g.syms[name]
}

// builtinNames cannot be declared.
var builtinNames = map[string]bool{"CACHE_SIZE": true, "LINE_SIZE": true}

// declareScalar adds a scalar to the current scope, or finds it again
// (C's block scopes are flattened into the function: a second declaration
// of the same name and kind reuses the variable).
func (c *compiler) declareScalar(name string, k kind, p Pos) *symbol {
	if builtinNames[name] {
		c.fail(p, "%s is the machine's and cannot be declared", name)
	}
	if _, ok := c.funcs[name]; ok {
		c.fail(p, "%s is a function and cannot also be a variable", name)
	}
	sc := c.g
	if c.fs != nil {
		sc = c.fs
	}
	if old, ok := sc.syms[name]; ok {
		if old.sk == symScalar && old.k == k {
			return old
		}
		c.fail(p, "%s is already declared at %s as %s", name, old.decl, describeSym(old))
	}
	sym := &symbol{name: name, sk: symScalar, k: k, global: c.fs == nil, decl: p, node: c.graph.node(false)}
	sc.add(sym)
	return sym
}

func describeSym(s *symbol) string {
	switch s.sk {
	case symArray:
		return "an array"
	case symConst:
		return "a constant"
	case symParam:
		return "a param"
	}
	return "a variable holding " + s.k.String()
}

func (c *compiler) readScalar(sym *symbol, p Pos) value {
	slot, g := sym.slot, c.rt.g
	v := value{k: sym.k, deps: []int{sym.node}, p: p}
	if sym.k == kFloat {
		if sym.global {
			v.f = func(*frame) float64 { return g.f[slot] }
		} else {
			v.f = func(f *frame) float64 { return f.f[slot] }
		}
		return v
	}
	if sym.global {
		v.i = func(*frame) int64 { return g.i[slot] }
	} else {
		v.i = func(f *frame) int64 { return f.i[slot] }
	}
	return v
}

// arrayRef returns the array of a symbol at run time.
func (c *compiler) arrayRef(sym *symbol) func(*frame) *array {
	slot, g := sym.slot, c.rt.g
	if sym.global {
		return func(*frame) *array { return g.a[slot] }
	}
	return func(f *frame) *array { return f.a[slot] }
}

func (c *compiler) arraySym(n *Name) *symbol {
	sym := c.lookup(n.ID)
	if sym == nil {
		c.fail(n.P, "%s is not declared (declare arrays like: int %s[N];)", n.ID, n.ID)
	}
	if sym.sk != symArray {
		c.fail(n.P, "%s is %s, not an array", n.ID, describeSym(sym))
	}
	return sym
}

// index compiles the flat element index of A[i][j]..., checked against
// each dimension.
func (c *compiler) index(ix *Index) (*symbol, func(*frame) *array, iexpr, []int) {
	sym := c.arraySym(ix.Array)
	if sym.ndims >= 0 && len(ix.Idx) != sym.ndims {
		c.fail(ix.P, "%s has %d dimension(s); got %d index(es)", sym.name, sym.ndims, len(ix.Idx))
	}
	ref := c.arrayRef(sym)
	var deps []int
	idx := make([]iexpr, len(ix.Idx))
	for k, e := range ix.Idx {
		v := c.expr(e)
		if v.k != kInt {
			c.fail(e.pos(), "an index must be an integer; got %s", v.k)
		}
		idx[k] = v.i
		deps = union(deps, v.deps)
	}
	rt, p, name := c.rt, ix.P, sym.name
	if len(idx) == 1 {
		i0 := idx[0]
		return sym, ref, func(f *frame) int64 {
			a := ref(f)
			i := i0(f)
			if uint64(i) >= uint64(a.n) || len(a.dims) != 1 {
				rt.indexError(p, name, a, []int64{i})
			}
			return i
		}, deps
	}
	return sym, ref, func(f *frame) int64 {
		a := ref(f)
		if len(a.dims) != len(idx) {
			rt.fail(p, "%s has %d dimension(s); got %d index(es)", name, len(a.dims), len(idx))
		}
		var flat int64
		for k, e := range idx {
			i := e(f)
			if uint64(i) >= uint64(a.dims[k]) {
				vals := make([]int64, len(idx))
				for j, e2 := range idx {
					vals[j] = e2(f)
				}
				rt.indexError(p, name, a, vals)
			}
			flat = flat*a.dims[k] + i
		}
		return flat
	}, deps
}

func (rt *runtime) indexError(p Pos, name string, a *array, idx []int64) {
	if len(a.dims) != len(idx) {
		rt.fail(p, "%s has %d dimension(s); got %d index(es)", name, len(a.dims), len(idx))
	}
	for k, i := range idx {
		if uint64(i) >= uint64(a.dims[k]) {
			if len(idx) == 1 {
				rt.fail(p, "index %d is out of range for %s (length %d)", i, name, a.dims[k])
			}
			rt.fail(p, "index %d is out of range for dimension %d of %s (length %d)", i, k+1, name, a.dims[k])
		}
	}
}

func (c *compiler) load(ix *Index) value {
	sym, ref, idx, deps := c.index(ix)
	// A register array's values are not loaded from memory: they count
	// as a variable's, not as loaded data.
	site := &accessSite{pos: ix.P, node: c.graph.node(!sym.regist), deps: deps}
	c.sites[siteKey{ix, false}] = site
	c.graph.link(site.node, deps, false)
	c.rt.access = append(c.rt.access, site)
	rt := c.rt
	v := value{k: kInt, deps: []int{site.node}, p: ix.P}
	if isFloatType(sym.elem) || sym.ndims < 0 && sym.k == kFloat {
		v.k = kFloat
		v.f = func(f *frame) float64 {
			i := idx(f)
			return math.Float64frombits(uint64(rt.load(ref(f), i, site)))
		}
		return v
	}
	v.i = func(f *frame) int64 {
		i := idx(f)
		return rt.load(ref(f), i, site)
	}
	return v
}

// storeTo compiles a store of value v into A[...].
func (c *compiler) storeTo(ix *Index, v value) sfn {
	sym, ref, idx, deps := c.index(ix)
	site := &accessSite{pos: ix.P, write: true, deps: deps}
	c.sites[siteKey{ix, true}] = site
	c.rt.access = append(c.rt.access, site)
	rt := c.rt
	if isFloatType(sym.elem) || sym.ndims < 0 && sym.k == kFloat {
		fv := v.asFloat()
		return func(f *frame) ctl {
			i := idx(f)
			x := fv(f)
			rt.store(ref(f), i, int64(math.Float64bits(x)), site)
			return cNext
		}
	}
	iv := v.asInt()
	return func(f *frame) ctl {
		i := idx(f)
		x := iv(f)
		rt.store(ref(f), i, x, site)
		return cNext
	}
}

// assign compiles L op= R.
func (c *compiler) assign(s *Assign) sfn {
	r := c.expr(s.R)
	if r.k != kInt && r.k != kFloat {
		c.fail(s.R.pos(), "cannot assign %s", r.k)
	}
	if ix, ok := s.L.(*Index); ok && s.Op != "=" {
		return c.updateElement(ix, s.Op[:len(s.Op)-1], r)
	}
	if s.Op != "=" {
		// L op= R reads L first: build L op R as an expression.
		cur := c.expr(s.L)
		r = c.binop(s.P, s.Op[:len(s.Op)-1], cur, r)
	}
	switch l := s.L.(type) {
	case *Name:
		sym := c.lookup(l.ID)
		if sym == nil || c.fs != nil && sym.global && sym.implicit {
			// A first assignment declares the name: in a function, a
			// local, even where the top level assigned the same name.
			sym = c.declareScalar(l.ID, r.k, l.P)
			sym.implicit = sym.global
		}
		switch sym.sk {
		case symArray:
			c.fail(l.P, "%s is an array: assign its elements, like %s[i] = ...", l.ID, l.ID)
		case symConst, symParam:
			c.fail(l.P, "%s is %s and cannot be assigned", l.ID, describeSym(sym))
		}
		c.graph.link(sym.node, r.deps, false)
		for _, d := range c.ctrl {
			c.graph.link(sym.node, d, true)
		}
		return c.setScalar(sym, r)
	case *Index:
		return c.storeTo(l, r)
	}
	c.fail(s.P, "only a variable or an array element can be assigned")
	return nil
}

// updateElement compiles A[i] op= r: the index is evaluated once, the
// element read once and written once, as C does.
func (c *compiler) updateElement(ix *Index, op string, r value) sfn {
	sym, ref, idx, deps := c.index(ix)
	ls := &accessSite{pos: ix.P, node: c.graph.node(!sym.regist), deps: deps}
	c.graph.link(ls.node, deps, false)
	ss := &accessSite{pos: ix.P, write: true, deps: deps}
	c.sites[siteKey{ix, false}], c.sites[siteKey{ix, true}] = ls, ss
	c.rt.access = append(c.rt.access, ls, ss)
	k := kInt
	if isFloatType(sym.elem) || sym.ndims < 0 && sym.k == kFloat {
		k = kFloat
	}
	tmp := c.temp(k)
	c.graph.link(tmp.node, []int{ls.node}, false)
	cur := c.readScalar(tmp, ix.P)
	v := c.binop(ix.P, op, cur, r)
	rt := c.rt
	slot, g := tmp.slot, c.rt.g
	global := tmp.global
	if k == kFloat {
		x := v.asFloat()
		return func(f *frame) ctl {
			a, i := ref(f), idx(f)
			old := math.Float64frombits(uint64(rt.load(a, i, ls)))
			if global {
				g.f[slot] = old
			} else {
				f.f[slot] = old
			}
			rt.store(a, i, int64(math.Float64bits(x(f))), ss)
			return cNext
		}
	}
	x := v.asInt()
	return func(f *frame) ctl {
		a, i := ref(f), idx(f)
		old := rt.load(a, i, ls)
		if global {
			g.i[slot] = old
		} else {
			f.i[slot] = old
		}
		rt.store(a, i, x(f), ss)
		return cNext
	}
}

// temp is a hidden scalar of the current scope.
func (c *compiler) temp(k kind) *symbol {
	sc := c.g
	if c.fs != nil {
		sc = c.fs
	}
	t := &symbol{name: "\x00tmp", sk: symScalar, k: k, global: c.fs == nil, node: c.graph.node(false)}
	sc.add(t)
	delete(sc.syms, t.name)
	return t
}

func (c *compiler) setScalar(sym *symbol, r value) sfn {
	slot, g := sym.slot, c.rt.g
	if sym.k == kFloat {
		fv := r.asFloat()
		if sym.global {
			return func(f *frame) ctl { g.f[slot] = fv(f); return cNext }
		}
		return func(f *frame) ctl { f.f[slot] = fv(f); return cNext }
	}
	iv := r.asInt()
	if sym.global {
		return func(f *frame) ctl { g.i[slot] = iv(f); return cNext }
	}
	return func(f *frame) ctl { f.i[slot] = iv(f); return cNext }
}

func (c *compiler) expr(e Expr) value {
	switch e := e.(type) {
	case *IntLit:
		v := e.V
		return value{k: kInt, i: func(*frame) int64 { return v }, p: e.P}
	case *FloatLit:
		v := e.V
		return value{k: kFloat, f: func(*frame) float64 { return v }, p: e.P}
	case *StrLit:
		return value{k: kString, s: e.V, p: e.P}
	case *Name:
		switch e.ID {
		case "CACHE_SIZE":
			v := c.rt.cacheSize
			return value{k: kInt, i: func(*frame) int64 { return v }, p: e.P}
		case "LINE_SIZE":
			v := c.rt.lineSize
			return value{k: kInt, i: func(*frame) int64 { return v }, p: e.P}
		}
		sym := c.lookup(e.ID)
		if sym == nil {
			c.fail(e.P, "%s is not declared", e.ID)
		}
		if sym.sk == symArray {
			c.fail(e.P, "%s is an array: index it, like %s[i]", e.ID, e.ID)
		}
		return c.readScalar(sym, e.P)
	case *Index:
		return c.load(e)
	case *Unary:
		x := c.expr(e.X)
		return c.unop(e.P, e.Op, x)
	case *Binary:
		if e.Op == "&&" || e.Op == "||" {
			lb, ld := c.cond(e.L)
			rb, rd := c.cond(e.R)
			v := value{k: kInt, deps: union(ld, rd), p: e.P}
			if e.Op == "&&" {
				v.i = func(f *frame) int64 { return b2i(lb(f) && rb(f)) }
			} else {
				v.i = func(f *frame) int64 { return b2i(lb(f) || rb(f)) }
			}
			return v
		}
		return c.binop(e.P, e.Op, c.expr(e.L), c.expr(e.R))
	case *Cond:
		cb, cd := c.cond(e.C)
		t, f := c.expr(e.T), c.expr(e.F)
		if t.k != kInt && t.k != kFloat || f.k != kInt && f.k != kFloat {
			c.fail(e.P, "both sides of ? : must be numbers")
		}
		v := value{deps: union(cd, t.deps, f.deps), p: e.P}
		if t.k == kFloat || f.k == kFloat {
			tf, ff := t.asFloat(), f.asFloat()
			v.k, v.f = kFloat, func(fr *frame) float64 {
				if cb(fr) {
					return tf(fr)
				}
				return ff(fr)
			}
			return v
		}
		ti, fi := t.i, f.i
		v.k, v.i = kInt, func(fr *frame) int64 {
			if cb(fr) {
				return ti(fr)
			}
			return fi(fr)
		}
		return v
	case *Call:
		return c.call(e)
	case *TypeArg:
		c.fail(e.P, "a type name (%s) is only an argument of sizeof", e.Type)
	}
	c.fail(e.pos(), "unexpected expression")
	return value{}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// cond compiles a condition to a bool, specialising the comparisons of
// integers (the loop tests), which most runs spend their time in.
func (c *compiler) cond(e Expr) (bexpr, []int) {
	if b, ok := e.(*Binary); ok {
		switch b.Op {
		case "<", "<=", ">", ">=", "==", "!=":
			l, r := c.expr(b.L), c.expr(b.R)
			if l.k == kInt && r.k == kInt {
				li, ri, deps := l.i, r.i, union(l.deps, r.deps)
				switch b.Op {
				case "<":
					return func(f *frame) bool { return li(f) < ri(f) }, deps
				case "<=":
					return func(f *frame) bool { return li(f) <= ri(f) }, deps
				case ">":
					return func(f *frame) bool { return li(f) > ri(f) }, deps
				case ">=":
					return func(f *frame) bool { return li(f) >= ri(f) }, deps
				case "==":
					return func(f *frame) bool { return li(f) == ri(f) }, deps
				default:
					return func(f *frame) bool { return li(f) != ri(f) }, deps
				}
			}
			v := c.binop(b.P, b.Op, l, r)
			i := v.i
			return func(f *frame) bool { return i(f) != 0 }, v.deps
		case "&&":
			l, ld := c.cond(b.L)
			r, rd := c.cond(b.R)
			return func(f *frame) bool { return l(f) && r(f) }, union(ld, rd)
		case "||":
			l, ld := c.cond(b.L)
			r, rd := c.cond(b.R)
			return func(f *frame) bool { return l(f) || r(f) }, union(ld, rd)
		}
	}
	v := c.expr(e)
	switch v.k {
	case kInt:
		i := v.i
		return func(f *frame) bool { return i(f) != 0 }, v.deps
	case kFloat:
		x := v.f
		return func(f *frame) bool { return x(f) != 0 }, v.deps
	}
	c.fail(e.pos(), "a condition must be a number; got %s", v.k)
	return nil, nil
}

// unop compiles op x, counted (see counted).
func (c *compiler) unop(p Pos, op string, x value) value {
	return c.counted(c.unop0(p, op, x))
}

func (c *compiler) unop0(p Pos, op string, x value) value {
	if x.k != kInt && x.k != kFloat {
		c.fail(p, "operator %s needs a number; got %s", op, x.k)
	}
	v := value{k: x.k, deps: x.deps, p: p}
	switch op {
	case "-":
		if x.k == kFloat {
			xf := x.f
			v.f = func(f *frame) float64 { return -xf(f) }
		} else {
			xi := x.i
			v.i = func(f *frame) int64 { return -xi(f) }
		}
	case "!":
		v.k = kInt
		if x.k == kFloat {
			xf := x.f
			v.i = func(f *frame) int64 { return b2i(xf(f) == 0) }
		} else {
			xi := x.i
			v.i = func(f *frame) int64 { return b2i(xi(f) == 0) }
		}
	case "~":
		if x.k != kInt {
			c.fail(p, "operator ~ needs an integer; got %s", x.k)
		}
		xi := x.i
		v.i = func(f *frame) int64 { return ^xi(f) }
	}
	return v
}

// binop compiles l op r, counted (see counted).
func (c *compiler) binop(p Pos, op string, l, r value) value {
	return c.counted(c.binop0(p, op, l, r))
}

func (c *compiler) binop0(p Pos, op string, l, r value) value {
	if l.k != kInt && l.k != kFloat || r.k != kInt && r.k != kFloat {
		c.fail(p, "operator %s needs numbers on both sides", op)
	}
	v := value{k: kInt, deps: union(l.deps, r.deps), p: p}
	rt := c.rt
	if l.k == kFloat || r.k == kFloat {
		lf, rf := l.asFloat(), r.asFloat()
		switch op {
		case "+":
			v.k, v.f = kFloat, func(f *frame) float64 { return lf(f) + rf(f) }
		case "-":
			v.k, v.f = kFloat, func(f *frame) float64 { return lf(f) - rf(f) }
		case "*":
			v.k, v.f = kFloat, func(f *frame) float64 { return lf(f) * rf(f) }
		case "/":
			v.k, v.f = kFloat, func(f *frame) float64 { return lf(f) / rf(f) }
		case "<":
			v.i = func(f *frame) int64 { return b2i(lf(f) < rf(f)) }
		case "<=":
			v.i = func(f *frame) int64 { return b2i(lf(f) <= rf(f)) }
		case ">":
			v.i = func(f *frame) int64 { return b2i(lf(f) > rf(f)) }
		case ">=":
			v.i = func(f *frame) int64 { return b2i(lf(f) >= rf(f)) }
		case "==":
			v.i = func(f *frame) int64 { return b2i(lf(f) == rf(f)) }
		case "!=":
			v.i = func(f *frame) int64 { return b2i(lf(f) != rf(f)) }
		default:
			c.fail(p, "operator %s needs integers; got a float", op)
		}
		return v
	}
	li, ri := l.i, r.i
	switch op {
	case "+":
		v.i = func(f *frame) int64 { return li(f) + ri(f) }
	case "-":
		v.i = func(f *frame) int64 { return li(f) - ri(f) }
	case "*":
		v.i = func(f *frame) int64 { return li(f) * ri(f) }
	case "/":
		v.i = func(f *frame) int64 {
			a, b := li(f), ri(f)
			if b == 0 {
				rt.fail(p, "division by zero")
			}
			return a / b
		}
	case "%":
		v.i = func(f *frame) int64 {
			a, b := li(f), ri(f)
			if b == 0 {
				rt.fail(p, "division by zero (the right side of %% is 0)")
			}
			return a % b
		}
	case "&":
		v.i = func(f *frame) int64 { return li(f) & ri(f) }
	case "|":
		v.i = func(f *frame) int64 { return li(f) | ri(f) }
	case "^":
		v.i = func(f *frame) int64 { return li(f) ^ ri(f) }
	case "<<", ">>":
		left := op == "<<"
		v.i = func(f *frame) int64 {
			a, b := li(f), ri(f)
			if b < 0 || b > 63 {
				rt.fail(p, "a shift count must be from 0 to 63; got %d", b)
			}
			if left {
				return a << uint(b)
			}
			return a >> uint(b)
		}
	case "<":
		v.i = func(f *frame) int64 { return b2i(li(f) < ri(f)) }
	case "<=":
		v.i = func(f *frame) int64 { return b2i(li(f) <= ri(f)) }
	case ">":
		v.i = func(f *frame) int64 { return b2i(li(f) > ri(f)) }
	case ">=":
		v.i = func(f *frame) int64 { return b2i(li(f) >= ri(f)) }
	case "==":
		v.i = func(f *frame) int64 { return b2i(li(f) == ri(f)) }
	case "!=":
		v.i = func(f *frame) int64 { return b2i(li(f) != ri(f)) }
	default:
		c.fail(p, "unknown operator %s", op)
	}
	return v
}

// branch wraps a statement's condition: a branch site at its position.
func (c *compiler) branch(e Expr) (bexpr, []int, *branchSite) {
	b, deps := c.cond(e)
	site := &branchSite{pos: e.pos(), id: len(c.rt.branch), deps: deps}
	c.rt.branch = append(c.rt.branch, site)
	rt := c.rt
	return func(f *frame) bool {
		t := b(f)
		rt.branchAt(site, t)
		return t
	}, deps, site
}

func (c *compiler) block(stmts []Stmt) sfn {
	fns := make([]sfn, 0, len(stmts))
	for _, s := range stmts {
		if f := c.stmt(s); f != nil {
			fns = append(fns, f)
		}
	}
	switch len(fns) {
	case 0:
		return func(*frame) ctl { return cNext }
	case 1:
		return fns[0]
	case 2:
		a, b := fns[0], fns[1]
		return func(f *frame) ctl {
			if r := a(f); r != cNext {
				return r
			}
			return b(f)
		}
	}
	return func(f *frame) ctl {
		for _, s := range fns {
			if r := s(f); r != cNext {
				return r
			}
		}
		return cNext
	}
}

func (c *compiler) stmt(s Stmt) sfn {
	switch s := s.(type) {
	case *Block:
		return c.block(s.Stmts)
	case *Assign:
		return c.assign(s)
	case *ExprStmt:
		v := c.expr(s.X)
		switch v.k {
		case kInt:
			i := v.i
			return func(f *frame) ctl { i(f); return cNext }
		case kFloat:
			x := v.f
			return func(f *frame) ctl { x(f); return cNext }
		}
		if v.i != nil {
			i := v.i
			return func(f *frame) ctl { i(f); return cNext }
		}
		return nil
	case *VarDecl:
		return c.decl(s)
	case *ConstDecl:
		if c.fs != nil {
			c.fail(s.P, "const is declared at the top level")
		}
		v := c.expr(s.X)
		if v.k != kInt && v.k != kFloat {
			c.fail(s.X.pos(), "a constant must be a number")
		}
		if old := c.lookup(s.Name); old != nil {
			c.fail(s.P, "%s is already declared at %s", s.Name, old.decl)
		}
		if builtinNames[s.Name] {
			c.fail(s.P, "%s is the machine's and cannot be declared", s.Name)
		}
		sym := &symbol{name: s.Name, sk: symScalar, k: v.k, global: true, decl: s.P, node: c.graph.node(false)}
		c.g.add(sym)
		c.graph.link(sym.node, v.deps, false)
		set := c.setScalar(sym, v)
		sym.sk = symConst
		return set
	case *If:
		cb, deps, _ := c.branch(s.C)
		c.ctrl = append(c.ctrl, deps)
		c.inner++
		then := c.stmt(s.Then)
		var els sfn
		if s.Else != nil {
			els = c.stmt(s.Else)
		}
		c.inner--
		c.ctrl = c.ctrl[:len(c.ctrl)-1]
		if els == nil {
			return func(f *frame) ctl {
				if cb(f) {
					return then(f)
				}
				return cNext
			}
		}
		return func(f *frame) ctl {
			if cb(f) {
				return then(f)
			}
			return els(f)
		}
	case *Loop:
		return c.loop(s)
	case *Break:
		if c.loops == 0 {
			c.fail(s.P, "break is only allowed inside a loop")
		}
		return func(*frame) ctl { return cBreak }
	case *Continue:
		if c.loops == 0 {
			c.fail(s.P, "continue is only allowed inside a loop")
		}
		return func(*frame) ctl { return cContinue }
	case *Return:
		return c.ret(s)
	case *Swap:
		return c.swap(s)
	}
	c.fail(s.pos(), "unexpected statement")
	return nil
}

func (c *compiler) loop(s *Loop) sfn {
	init := c.block(s.Init)
	var cond bexpr
	var site *branchSite
	if s.C != nil {
		cond, _, site = c.branch(s.C)
	}
	c.loops++
	c.inner++
	body := c.stmt(s.Body)
	post := c.block(s.Post)
	c.inner--
	c.loops--
	rt, p := c.rt, s.P
	// A chunked loop evaluates its expressions outside the closures
	// that count operations; the trace it gives is the same.
	if !c.countOps {
		if v := c.vectorize(s, init, site); v != nil {
			return v
		}
	}
	if s.Do {
		return func(f *frame) ctl {
			for {
				switch body(f) {
				case cBreak:
					return cNext
				case cReturn:
					return cReturn
				}
				rt.tick(p)
				if !cond(f) {
					return cNext
				}
			}
		}
	}
	if cond == nil {
		cond = func(*frame) bool { return true }
	}
	return func(f *frame) ctl {
		if r := init(f); r != cNext {
			return r
		}
		for cond(f) {
			switch body(f) {
			case cBreak:
				return cNext
			case cReturn:
				return cReturn
			}
			post(f)
			rt.tick(p)
		}
		return cNext
	}
}

func (c *compiler) ret(s *Return) sfn {
	if c.fn == nil {
		c.fail(s.P, "return is only allowed inside a function")
	}
	fn := c.fn
	if s.X == nil {
		if fn.k != kVoid {
			c.fail(s.P, "%s returns %s: return a value", fn.f.Name, fn.k)
		}
		return func(*frame) ctl { return cReturn }
	}
	if fn.k == kVoid {
		c.fail(s.P, "%s is void and returns no value", fn.f.Name)
	}
	v := c.expr(s.X)
	if v.k != kInt && v.k != kFloat {
		c.fail(s.X.pos(), "return needs a number")
	}
	c.graph.link(fn.ret, v.deps, false)
	for _, d := range c.ctrl {
		c.graph.link(fn.ret, d, true)
	}
	if fn.k == kFloat {
		x := v.asFloat()
		return func(f *frame) ctl { f.retf = x(f); return cReturn }
	}
	x := v.asInt()
	return func(f *frame) ctl { f.reti = x(f); return cReturn }
}

// swap exchanges two places: both are read, then both written, as
// t = a; a = b; b = t does.
func (c *compiler) swap(s *Swap) sfn {
	a, b := c.expr(s.A), c.expr(s.B)
	if a.k != b.k {
		c.fail(s.P, "swap needs two places of the same kind; got %s and %s", a.k, b.k)
	}
	// Reading each place gives its value to a temporary; writing stores
	// the other's.
	tmpA, tmpB := c.temp(a.k), c.temp(b.k)
	c.graph.link(tmpA.node, a.deps, false)
	c.graph.link(tmpB.node, b.deps, false)
	setA, setB := c.setScalar(tmpA, a), c.setScalar(tmpB, b)
	wa := c.write(s.A, c.readScalar(tmpB, s.P))
	wb := c.write(s.B, c.readScalar(tmpA, s.P))
	return func(f *frame) ctl {
		setA(f)
		setB(f)
		wa(f)
		wb(f)
		return cNext
	}
}

// write stores v into a place (a variable or an element).
func (c *compiler) write(place Expr, v value) sfn {
	switch l := place.(type) {
	case *Name:
		sym := c.lookup(l.ID)
		if sym == nil || sym.sk != symScalar {
			c.fail(l.P, "%s is not a variable that can be assigned", l.ID)
		}
		c.graph.link(sym.node, v.deps, false)
		return c.setScalar(sym, v)
	case *Index:
		return c.storeTo(l, v)
	}
	c.fail(place.pos(), "only a variable or an array element can be assigned")
	return nil
}

// log2 of an element size.
func shiftOf(size int64) uint { return uint(bits.TrailingZeros64(uint64(size))) }
