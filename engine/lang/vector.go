package lang

import (
	"fmt"
	"strings"
)

// Simple counted loops run a chunk of iterations at a time.
//
// A loop "for (i = a; i < b; i++) body" whose body is straight-line
// assignments of integers, where no iteration reads what another writes,
// is evaluated lane by lane over chunks of iterations: each expression of
// the body for every iteration of the chunk before the next expression.
// The reads of one array then follow each other in a tight loop, and the
// host overlaps their cache misses, where one iteration at a time it waits
// for each (the random reads of Y in Z[i] = Y[X[i]] made the interpreter
// four times slower than the built-in kernel). The simulated trace is
// unchanged: the accesses are handed to the simulator iteration by
// iteration in program order, the loop test is charged once per iteration
// and once at the exit, and the steps are counted per iteration.
//
// What runs lane by lane (anything else runs one iteration at a time):
//   - the body is assignments only: to elements, and to scalars that the
//     iteration assigns before it reads them (temporaries); no calls
//     other than min, max and abs, no ?:, no conditions, no floats;
//   - the loop variable is not assigned in the body, the bound does not
//     change in it;
//   - an array that the body writes is accessed, read or write, only at
//     one index, which depends on the loop variable and on values that do
//     not change in the loop (D[i] = Y[D[i]] qualifies, CNT[d]++ does not);
//   - no array parameter is accessed when the body writes an array (two
//     parameters may be one array).
const chunk = 256

type vec func(f *frame, i0 int64, n int) []int64
type vstmt func(f *frame, i0 int64, n int)

type vsite struct {
	site *accessSite
	addr []uint64
	reg  *bool // the array is a register array (known at run time)
	flag uint64
}

type vectorizer struct {
	c        *compiler
	loopVar  *symbol
	assigned map[*symbol]bool
	temps    map[*symbol][]int64
	defined  map[*symbol]bool
	order    []*vsite
	uses     map[*symbol][]string // index texts of each array's accesses
	writes   map[*symbol]bool
	params   bool
}

type notVector struct{}

func (v *vectorizer) no() { panic(notVector{}) }

// vectorize returns the lane-by-lane form of a loop, or nil.
func (c *compiler) vectorize(s *Loop, init sfn, site *branchSite) (out sfn) {
	if s.Do || s.C == nil || len(s.Init) != 1 || len(s.Post) != 1 || site == nil {
		return nil
	}
	var loopName string
	switch in := s.Init[0].(type) {
	case *Assign:
		n, ok := in.L.(*Name)
		if !ok || in.Op != "=" {
			return nil
		}
		loopName = n.ID
	case *VarDecl:
		if len(in.Items) != 1 || in.Items[0].Dims != nil {
			return nil
		}
		loopName = in.Items[0].Name
	default:
		return nil
	}
	post, ok := s.Post[0].(*Assign)
	if !ok {
		return nil
	}
	if pn, ok := post.L.(*Name); !ok || pn.ID != loopName || post.Op != "+=" {
		return nil
	} else if one, ok := post.R.(*IntLit); !ok || one.V != 1 {
		return nil
	}
	cond, ok := s.C.(*Binary)
	if !ok || cond.Op != "<" && cond.Op != "<=" {
		return nil
	}
	if cn, ok := cond.L.(*Name); !ok || cn.ID != loopName {
		return nil
	}
	lv := c.lookup(loopName)
	if lv == nil || lv.sk != symScalar || lv.k != kInt {
		return nil
	}
	var body []Stmt
	if !flatten(s.Body, &body) {
		return nil
	}
	v := &vectorizer{c: c, loopVar: lv, assigned: map[*symbol]bool{}, temps: map[*symbol][]int64{},
		defined: map[*symbol]bool{}, uses: map[*symbol][]string{}, writes: map[*symbol]bool{}}
	for _, st := range body {
		a := st.(*Assign)
		if n, ok := a.L.(*Name); ok {
			sym := c.lookup(n.ID)
			if sym == nil || sym.sk != symScalar || sym.k != kInt || sym == lv {
				return nil
			}
			v.assigned[sym] = true
		}
	}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(notVector); !ok {
				panic(r)
			}
			out = nil
		}
	}()
	if !v.invariant(cond.R) {
		return nil
	}
	bound := c.expr(cond.R)
	if bound.k != kInt {
		return nil
	}
	var stmts []vstmt
	for _, st := range body {
		stmts = append(stmts, v.stmt(st.(*Assign)))
	}
	for arr, texts := range v.uses {
		if !v.writes[arr] {
			continue
		}
		for _, t := range texts {
			if t != texts[0] || strings.HasPrefix(t, "!") {
				return nil
			}
		}
	}
	if v.params && len(v.writes) > 0 {
		return nil
	}
	return v.loop(s, init, site, bound.i, cond.Op == "<=", stmts)
}

// flatten lists a body's statements; false when one is not an assignment.
func flatten(s Stmt, out *[]Stmt) bool {
	switch s := s.(type) {
	case *Block:
		for _, x := range s.Stmts {
			if !flatten(x, out) {
				return false
			}
		}
		return true
	case *Assign:
		*out = append(*out, s)
		return true
	}
	return false
}

// invariant: the expression reads nothing the loop changes.
func (v *vectorizer) invariant(e Expr) bool {
	switch e := e.(type) {
	case *IntLit:
		return true
	case *Name:
		if e.ID == "CACHE_SIZE" || e.ID == "LINE_SIZE" {
			return true
		}
		sym := v.c.lookup(e.ID)
		return sym != nil && sym.sk != symArray && sym != v.loopVar && !v.assigned[sym]
	case *Unary:
		return v.invariant(e.X)
	case *Binary:
		return v.invariant(e.L) && v.invariant(e.R)
	}
	return false
}

// text is an index expression as text, prefixed by "!" when it depends
// on anything but the loop variable and invariants.
func (v *vectorizer) text(e Expr) string {
	var b strings.Builder
	pure := true
	var walk func(e Expr)
	walk = func(e Expr) {
		switch e := e.(type) {
		case *IntLit:
			fmt.Fprint(&b, e.V)
		case *Name:
			sym := v.c.lookup(e.ID)
			if sym != v.loopVar && !v.invariant(e) {
				pure = false
			}
			b.WriteString(e.ID)
		case *Unary:
			b.WriteString("(" + e.Op)
			walk(e.X)
			b.WriteString(")")
		case *Binary:
			b.WriteString("(")
			walk(e.L)
			b.WriteString(e.Op)
			walk(e.R)
			b.WriteString(")")
		default:
			pure = false
			fmt.Fprintf(&b, "%p", e)
		}
	}
	walk(e)
	if !pure {
		return "!" + b.String()
	}
	return b.String()
}

func (v *vectorizer) expr(e Expr) vec {
	switch e := e.(type) {
	case *IntLit:
		x := e.V
		buf := make([]int64, chunk)
		return func(_ *frame, _ int64, n int) []int64 {
			for k := range buf[:n] {
				buf[k] = x
			}
			return buf[:n]
		}
	case *Name:
		if e.ID == "CACHE_SIZE" || e.ID == "LINE_SIZE" {
			return v.broadcast(v.c.expr(e).i)
		}
		sym := v.c.lookup(e.ID)
		if sym == nil || sym.sk == symArray || sym.k != kInt {
			v.no()
		}
		if sym == v.loopVar {
			buf := make([]int64, chunk)
			return func(_ *frame, i0 int64, n int) []int64 {
				for k := range buf[:n] {
					buf[k] = i0 + int64(k)
				}
				return buf[:n]
			}
		}
		if v.assigned[sym] {
			if !v.defined[sym] {
				v.no() // read before this iteration assigns it: carried over
			}
			buf := v.temps[sym]
			return func(_ *frame, _ int64, n int) []int64 { return buf[:n] }
		}
		return v.broadcast(v.c.readScalar(sym, e.P).i)
	case *Unary:
		x := v.expr(e.X)
		buf := make([]int64, chunk)
		op := e.Op
		return func(f *frame, i0 int64, n int) []int64 {
			xs := x(f, i0, n)
			for k, a := range xs {
				switch op {
				case "-":
					buf[k] = -a
				case "!":
					buf[k] = b2i(a == 0)
				default:
					buf[k] = ^a
				}
			}
			return buf[:n]
		}
	case *Binary:
		if e.Op == "&&" || e.Op == "||" {
			v.no()
		}
		return v.binary(e)
	case *Index:
		return v.load(e)
	case *Call:
		if len(e.Args) == 2 && (e.Fn == "min" || e.Fn == "max") && v.c.funcs[e.Fn] == nil {
			a, b := v.expr(e.Args[0]), v.expr(e.Args[1])
			buf := make([]int64, chunk)
			isMin := e.Fn == "min"
			return func(f *frame, i0 int64, n int) []int64 {
				as, bs := a(f, i0, n), b(f, i0, n)
				for k := range as {
					if isMin {
						buf[k] = min(as[k], bs[k])
					} else {
						buf[k] = max(as[k], bs[k])
					}
				}
				return buf[:n]
			}
		}
	}
	v.no()
	return nil
}

func (v *vectorizer) broadcast(x iexpr) vec {
	buf := make([]int64, chunk)
	return func(f *frame, _ int64, n int) []int64 {
		a := x(f)
		for k := range buf[:n] {
			buf[k] = a
		}
		return buf[:n]
	}
}

func (v *vectorizer) binary(e *Binary) vec {
	l, r := v.expr(e.L), v.expr(e.R)
	buf := make([]int64, chunk)
	rt, p := v.c.rt, e.P
	var op func(a, b int64) int64
	switch e.Op {
	case "+":
		return func(f *frame, i0 int64, n int) []int64 {
			ls, rs := l(f, i0, n), r(f, i0, n)
			for k := range ls {
				buf[k] = ls[k] + rs[k]
			}
			return buf[:n]
		}
	case "-":
		op = func(a, b int64) int64 { return a - b }
	case "*":
		return func(f *frame, i0 int64, n int) []int64 {
			ls, rs := l(f, i0, n), r(f, i0, n)
			for k := range ls {
				buf[k] = ls[k] * rs[k]
			}
			return buf[:n]
		}
	case "/":
		op = func(a, b int64) int64 {
			if b == 0 {
				rt.fail(p, "division by zero")
			}
			return a / b
		}
	case "%":
		op = func(a, b int64) int64 {
			if b == 0 {
				rt.fail(p, "division by zero (the right side of %% is 0)")
			}
			return a % b
		}
	case "&":
		op = func(a, b int64) int64 { return a & b }
	case "|":
		op = func(a, b int64) int64 { return a | b }
	case "^":
		op = func(a, b int64) int64 { return a ^ b }
	case "<<", ">>":
		left := e.Op == "<<"
		op = func(a, b int64) int64 {
			if b < 0 || b > 63 {
				rt.fail(p, "a shift count must be from 0 to 63; got %d", b)
			}
			if left {
				return a << uint(b)
			}
			return a >> uint(b)
		}
	case "<":
		op = func(a, b int64) int64 { return b2i(a < b) }
	case "<=":
		op = func(a, b int64) int64 { return b2i(a <= b) }
	case ">":
		op = func(a, b int64) int64 { return b2i(a > b) }
	case ">=":
		op = func(a, b int64) int64 { return b2i(a >= b) }
	case "==":
		op = func(a, b int64) int64 { return b2i(a == b) }
	case "!=":
		op = func(a, b int64) int64 { return b2i(a != b) }
	default:
		v.no()
	}
	return func(f *frame, i0 int64, n int) []int64 {
		ls, rs := l(f, i0, n), r(f, i0, n)
		for k := range ls {
			buf[k] = op(ls[k], rs[k])
		}
		return buf[:n]
	}
}

// index compiles the flat indices of an element access and notes the
// array's use.
func (v *vectorizer) index(ix *Index) (*symbol, func(*frame) *array, vec) {
	sym := v.c.arraySym(ix.Array)
	if sym.ndims < 0 {
		v.params = true
	}
	if isFloatType(sym.elem) || sym.ndims >= 0 && len(ix.Idx) != sym.ndims {
		v.no()
	}
	var texts []string
	idx := make([]vec, len(ix.Idx))
	for k, e := range ix.Idx {
		idx[k] = v.expr(e)
		texts = append(texts, v.text(e))
	}
	t := strings.Join(texts, "][")
	for _, x := range texts {
		if strings.HasPrefix(x, "!") {
			t = "!" + t
			break
		}
	}
	v.uses[sym] = append(v.uses[sym], t)
	ref := v.c.arrayRef(sym)
	rt, p, name := v.c.rt, ix.P, sym.name
	buf := make([]int64, chunk)
	return sym, ref, func(f *frame, i0 int64, n int) []int64 {
		a := ref(f)
		if len(a.dims) != len(idx) {
			rt.fail(p, "%s has %d dimension(s); got %d index(es)", name, len(a.dims), len(idx))
		}
		if len(idx) == 1 {
			is := idx[0](f, i0, n)
			for k, i := range is {
				if uint64(i) >= uint64(a.n) {
					rt.indexError(p, name, a, []int64{i})
				}
				buf[k] = i
			}
			return buf[:n]
		}
		cols := make([][]int64, len(idx))
		for d, e := range idx {
			cols[d] = e(f, i0, n)
		}
		for k := 0; k < n; k++ {
			var flat int64
			for d := range cols {
				i := cols[d][k]
				if uint64(i) >= uint64(a.dims[d]) {
					vals := make([]int64, len(cols))
					for j := range cols {
						vals[j] = cols[j][k]
					}
					rt.indexError(p, name, a, vals)
				}
				flat = flat*a.dims[d] + i
			}
			buf[k] = flat
		}
		return buf[:n]
	}
}

func (v *vectorizer) site(ix *Index, write bool) *vsite {
	st := v.c.sites[siteKey{ix, write}]
	if st == nil {
		v.no()
	}
	vs := &vsite{site: st, addr: make([]uint64, chunk), reg: new(bool)}
	if write {
		vs.flag = writeFlag
	}
	v.order = append(v.order, vs)
	return vs
}

func (v *vectorizer) load(ix *Index) vec {
	_, ref, idx := v.index(ix)
	vs := v.site(ix, false)
	buf := make([]int64, chunk)
	return func(f *frame, i0 int64, n int) []int64 {
		is := idx(f, i0, n)
		a := ref(f)
		*vs.reg = a.register
		gather(a, is, buf)
		for k, i := range is {
			vs.addr[k] = a.base + uint64(i)<<a.shift
		}
		return buf[:n]
	}
}

// gather reads the elements at is into out: a loop with nothing between
// the reads, so that their host cache misses overlap.
func gather(a *array, is []int64, out []int64) {
	if a.pages32 != nil {
		for k, i := range is {
			var x int64
			if pg := a.pages32[i>>pageBits]; pg != nil {
				x = int64(pg[i&pageMask])
			}
			out[k] = x
		}
		if a.unsigned {
			for k := range is {
				out[k] = int64(uint32(out[k]))
			}
		}
		return
	}
	for k, i := range is {
		var x int64
		if pg := a.pages[i>>pageBits]; pg != nil {
			x = pg[i&pageMask]
		}
		out[k] = x
	}
}

func (v *vectorizer) stmt(s *Assign) vstmt {
	rt := v.c.rt
	switch l := s.L.(type) {
	case *Name:
		sym := v.c.lookup(l.ID)
		var r vec
		if s.Op == "=" {
			r = v.expr(s.R)
		} else {
			r = v.binary(&Binary{P: s.P, Op: s.Op[:len(s.Op)-1], L: l, R: s.R})
		}
		v.defined[sym] = true
		buf := v.temps[sym]
		if buf == nil {
			buf = make([]int64, chunk)
			v.temps[sym] = buf
		}
		return func(f *frame, i0 int64, n int) { copy(buf, r(f, i0, n)) }
	case *Index:
		sym, ref, idx := v.index(l)
		v.writes[sym] = true
		if s.Op == "=" {
			r := v.expr(s.R)
			vs := v.site(l, true)
			return func(f *frame, i0 int64, n int) {
				is := idx(f, i0, n)
				xs := r(f, i0, n)
				a := ref(f)
				*vs.reg = a.register
				for k, i := range is {
					vs.addr[k] = a.base + uint64(i)<<a.shift
					rt.put(a, i, a.wrap(xs[k]), l.P)
				}
			}
		}
		// A[i] op= r: read, then r, then write, each lane.
		ls := v.site(l, false)
		cur := make([]int64, chunk)
		tmp := &symbol{name: "\x00lane", sk: symScalar, k: kInt}
		v.assigned[tmp], v.defined[tmp], v.temps[tmp] = true, true, cur
		rv := v.binaryOn(s.P, s.Op[:len(s.Op)-1], func(_ *frame, _ int64, n int) []int64 { return cur[:n] }, v.expr(s.R))
		ss := v.site(l, true)
		return func(f *frame, i0 int64, n int) {
			is := idx(f, i0, n)
			a := ref(f)
			*ls.reg, *ss.reg = a.register, a.register
			gather(a, is, cur)
			for k, i := range is {
				ls.addr[k] = a.base + uint64(i)<<a.shift
				ss.addr[k] = ls.addr[k]
			}
			xs := rv(f, i0, n)
			for k, i := range is {
				rt.put(a, i, a.wrap(xs[k]), l.P)
			}
		}
	}
	v.no()
	return nil
}

// binaryOn applies a binary operator to two compiled vectors.
func (v *vectorizer) binaryOn(p Pos, op string, l, r vec) vec {
	buf := make([]int64, chunk)
	rt := v.c.rt
	return func(f *frame, i0 int64, n int) []int64 {
		ls, rs := l(f, i0, n), r(f, i0, n)
		for k := range ls {
			a, b := ls[k], rs[k]
			switch op {
			case "+":
				buf[k] = a + b
			case "-":
				buf[k] = a - b
			case "*":
				buf[k] = a * b
			case "/", "%":
				if b == 0 {
					rt.fail(p, "division by zero")
				}
				if op == "/" {
					buf[k] = a / b
				} else {
					buf[k] = a % b
				}
			case "&":
				buf[k] = a & b
			case "|":
				buf[k] = a | b
			case "^":
				buf[k] = a ^ b
			case "<<", ">>":
				if b < 0 || b > 63 {
					rt.fail(p, "a shift count must be from 0 to 63; got %d", b)
				}
				if op == "<<" {
					buf[k] = a << uint(b)
				} else {
					buf[k] = a >> uint(b)
				}
			}
		}
		return buf[:n]
	}
}

// loop runs the chunks.
func (v *vectorizer) loop(s *Loop, init sfn, site *branchSite, bound iexpr, inclusive bool, stmts []vstmt) sfn {
	rt, p := v.c.rt, s.P
	get := v.c.readScalar(v.loopVar, p).i
	var set func(f *frame, x int64)
	lv := v.loopVar
	if lv.global {
		g, slot := rt.g, lv.slot
		set = func(_ *frame, x int64) { g.i[slot] = x }
	} else {
		slot := lv.slot
		set = func(f *frame, x int64) { f.i[slot] = x }
	}
	type tempOut struct {
		buf []int64
		set func(*frame, int64)
	}
	var temps []tempOut
	for sym, buf := range v.temps {
		if sym.name == "\x00lane" {
			continue
		}
		if sym.global {
			g, slot := rt.g, sym.slot
			temps = append(temps, tempOut{buf, func(_ *frame, x int64) { g.i[slot] = x }})
		} else {
			slot := sym.slot
			temps = append(temps, tempOut{buf, func(f *frame, x int64) { f.i[slot] = x }})
		}
	}
	order := v.order
	return func(f *frame) ctl {
		if r := init(f); r != cNext {
			return r
		}
		for {
			i0, b := get(f), bound(f)
			if i0 > b || i0 == b && !inclusive {
				rt.branchAt(site, false)
				return cNext
			}
			// Iterations left: b − i0 (+1 when inclusive), in uint64 so
			// that no difference of int64s overflows; 0 stands for 2^64.
			d := uint64(b) - uint64(i0)
			if inclusive {
				d++
			}
			n := int64(chunk)
			if d != 0 && d < chunk {
				n = int64(d)
			}
			for k := int64(0); k < n; k++ {
				rt.branchAt(site, true)
			}
			for _, st := range stmts {
				st(f, i0, int(n))
			}
			for k := 0; k < int(n); k++ {
				for _, vs := range order {
					if *vs.reg {
						continue
					}
					rt.buf = append(rt.buf, vs.addr[k]|vs.flag)
					rt.bufSite = append(rt.bufSite, vs.site)
					if len(rt.buf) == bufLen {
						rt.flush()
					}
				}
			}
			for _, t := range temps {
				t.set(f, t.buf[n-1])
			}
			set(f, i0+n)
			rt.steps += n - 1
			rt.tick(p)
		}
	}
}
