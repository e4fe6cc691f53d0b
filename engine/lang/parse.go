package lang

import (
	"fmt"
	"strconv"
	"strings"
)

// typeSizes are the element types and their sizes in bytes.
var typeSizes = map[string]int64{
	"char": 1, "int8": 1, "byte": 1, "uint8": 1,
	"short": 2, "int16": 2, "uint16": 2,
	"int": 4, "int32": 4, "uint32": 4,
	"long": 8, "int64": 8,
	"float": 4, "float32": 4,
	"double": 8, "float64": 8,
}

func isFloatType(t string) bool {
	return t == "float" || t == "float32" || t == "double" || t == "float64"
}

func isType(s string) bool { _, ok := typeSizes[s]; return ok }

// keywords cannot name variables.
var keywords = map[string]bool{
	"param": true, "const": true, "register": true, "void": true, "if": true, "else": true,
	"for": true, "while": true, "do": true, "break": true, "continue": true, "return": true,
	"offset": true, "swap": true, "sizeof": true,
}

// maxNesting bounds how deeply statements and expressions nest, so that a
// hostile program cannot exhaust the parser's stack.
const maxNesting = 200

type parser struct {
	toks  []token
	i     int
	depth int
	file  *File
}

// Parse reads a program into its syntax tree.
func Parse(src string) (f *File, err error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, file: &File{}}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			f, err = nil, e
		}
	}()
	for p.peek().kind != tEOF {
		p.top()
	}
	return p.file, nil
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) peekAt(k int) token {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return p.toks[len(p.toks)-1]
}
func (p *parser) advance() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) fail(at Pos, format string, a ...any) {
	panic(&Error{at, fmt.Sprintf(format, a...)})
}

func (p *parser) is(op string) bool {
	t := p.peek()
	return (t.kind == tOp || t.kind == tIdent) && t.text == op
}

func (p *parser) accept(op string) bool {
	if p.is(op) {
		p.advance()
		return true
	}
	return false
}

func (p *parser) expect(op, what string) token {
	t := p.peek()
	if !p.is(op) {
		p.fail(t.pos, "expected %s, found %s", what, t)
	}
	return p.advance()
}

func (p *parser) ident(what string) token {
	t := p.peek()
	if t.kind != tIdent {
		p.fail(t.pos, "expected %s, found %s", what, t)
	}
	if keywords[t.text] || isType(t.text) {
		p.fail(t.pos, "expected %s, found the keyword %s", what, t)
	}
	return p.advance()
}

func (p *parser) nest(at Pos) func() {
	p.depth++
	if p.depth > maxNesting {
		p.fail(at, "the program nests more than %d levels deep", maxNesting)
	}
	return func() { p.depth-- }
}

func (p *parser) top() {
	t := p.peek()
	switch {
	case t.kind == tIdent && t.text == "param":
		p.advance()
		name := p.ident("a parameter name after param")
		p.expect("=", "'=' and a value after the parameter's name")
		v := p.peek()
		if v.kind != tRaw || v.text == "" {
			p.fail(v.pos, "expected the value of param %s (like 2^20, 8Mi or 1000)", name.text)
		}
		p.advance()
		p.accept(";")
		for _, q := range p.file.Params {
			if q.Name == name.text {
				p.fail(name.pos, "param %s is declared twice (first at %s)", name.text, q.P)
			}
		}
		p.file.Params = append(p.file.Params, Param{P: t.pos, Name: name.text, Value: v.text})
	case t.kind == tIdent && (t.text == "void" || isType(t.text)) && p.peekAt(1).kind == tIdent && p.peekAt(2).text == "(" && p.peekAt(2).kind == tOp:
		p.function()
	default:
		p.file.Top = append(p.file.Top, p.stmt())
	}
}

func (p *parser) function() {
	rt := p.advance()
	name := p.ident("a function name")
	p.expect("(", "'('")
	f := &Func{P: rt.pos, Name: name.text, Result: rt.text}
	if p.is("void") && p.peekAt(1).text == ")" {
		p.advance()
	}
	for !p.is(")") {
		if len(f.Params) > 0 {
			p.expect(",", "',' or ')' in the parameter list")
		}
		tt := p.peek()
		if tt.kind != tIdent || !isType(tt.text) {
			p.fail(tt.pos, "expected a parameter type (int, long, double, ...), found %s", tt)
		}
		p.advance()
		pn := p.ident("a parameter name")
		fp := FuncParam{P: pn.pos, Name: pn.text, Type: tt.text}
		for p.accept("[") {
			fp.Array = true
			if !p.is("]") {
				p.expr() // a size in a parameter is only documentation
			}
			p.expect("]", "']'")
		}
		f.Params = append(f.Params, fp)
	}
	p.advance()
	if !p.is("{") {
		p.fail(p.peek().pos, "expected '{' to begin the body of %s, found %s", f.Name, p.peek())
	}
	f.Body = p.block()
	for _, g := range p.file.Funcs {
		if g.Name == f.Name {
			p.fail(name.pos, "function %s is defined twice (first at %s)", f.Name, g.P)
		}
	}
	p.file.Funcs = append(p.file.Funcs, f)
}

func (p *parser) block() *Block {
	open := p.expect("{", "'{'")
	defer p.nest(open.pos)()
	b := &Block{P: open.pos}
	for !p.is("}") {
		if p.peek().kind == tEOF {
			p.fail(p.peek().pos, "expected '}' to close the block opened at %s, found the end of the program", open.pos)
		}
		b.Stmts = append(b.Stmts, p.stmt())
	}
	p.advance()
	return b
}

func (p *parser) stmt() Stmt {
	t := p.peek()
	defer p.nest(t.pos)()
	if t.kind == tOp {
		switch t.text {
		case "{":
			return p.block()
		case ";":
			p.advance()
			return &Block{P: t.pos}
		}
	}
	if t.kind == tIdent {
		switch t.text {
		case "if":
			p.advance()
			p.expect("(", "'(' after if")
			c := p.expr()
			p.expect(")", "')' after the condition")
			s := &If{P: t.pos, C: c, Then: p.stmt()}
			if p.accept("else") {
				s.Else = p.stmt()
			}
			return s
		case "while":
			p.advance()
			p.expect("(", "'(' after while")
			c := p.expr()
			p.expect(")", "')' after the condition")
			return &Loop{P: t.pos, C: c, Body: p.stmt()}
		case "do":
			p.advance()
			body := p.stmt()
			p.expect("while", "while after the body of do")
			p.expect("(", "'(' after while")
			c := p.expr()
			p.expect(")", "')' after the condition")
			p.expect(";", "';' after do ... while (...)")
			return &Loop{P: t.pos, C: c, Body: body, Do: true}
		case "for":
			p.advance()
			p.expect("(", "'(' after for")
			l := &Loop{P: t.pos}
			if !p.is(";") {
				l.Init = p.simpleList(true)
			}
			p.expect(";", "';' after the loop's first part")
			if !p.is(";") {
				l.C = p.expr()
			}
			p.expect(";", "';' after the loop's condition")
			if !p.is(")") {
				l.Post = p.simpleList(false)
			}
			p.expect(")", "')' to close for (...)")
			l.Body = p.stmt()
			return l
		case "break":
			p.advance()
			p.expect(";", "';' after break")
			return &Break{t.pos}
		case "continue":
			p.advance()
			p.expect(";", "';' after continue")
			return &Continue{t.pos}
		case "return":
			p.advance()
			r := &Return{P: t.pos}
			if !p.is(";") {
				r.X = p.expr()
			}
			p.expect(";", "';' after return")
			return r
		case "const":
			p.advance()
			if isType(p.peek().text) && p.peekAt(1).kind == tIdent {
				p.advance()
			}
			name := p.ident("a constant name after const")
			p.expect("=", "'=' and a value after the constant's name")
			x := p.expr()
			p.expect(";", "';' after the constant")
			return &ConstDecl{P: t.pos, Name: name.text, X: x}
		case "param":
			p.fail(t.pos, "param is declared at the top level, outside functions")
		case "void":
			p.fail(t.pos, "functions are defined at the top level")
		}
		if t.text == "register" || isType(t.text) {
			d := p.decl()
			p.expect(";", "';' after the declaration")
			return d
		}
	}
	s := p.simple()
	p.expect(";", "';' after the statement")
	return s
}

func (p *parser) decl() *VarDecl {
	t := p.peek()
	d := &VarDecl{P: t.pos}
	if p.accept("register") {
		d.Register = true
	}
	tt := p.peek()
	if tt.kind != tIdent || !isType(tt.text) {
		p.fail(tt.pos, "expected a type (int, long, double, ...), found %s", tt)
	}
	p.advance()
	d.Type = tt.text
	if p.peek().kind == tIdent && p.peekAt(1).text == "(" && p.peekAt(1).kind == tOp {
		p.fail(p.peek().pos, "functions are defined at the top level")
	}
	for {
		name := p.ident("a name to declare")
		it := DeclItem{P: name.pos, Name: name.text}
		for p.accept("[") {
			if p.is("]") {
				p.fail(p.peek().pos, "expected the array's length between [ and ]")
			}
			it.Dims = append(it.Dims, p.expr())
			p.expect("]", "']' after the array's length")
		}
		if p.accept("offset") {
			if it.Dims == nil {
				p.fail(name.pos, "offset applies to arrays; %s is a scalar", name.text)
			}
			it.Offset = p.unary()
		}
		if p.accept("=") {
			it.Init = p.expr()
		}
		d.Items = append(d.Items, it)
		if !p.accept(",") {
			return d
		}
	}
}

// simpleList is the comma-separated statements of a for header.
func (p *parser) simpleList(allowDecl bool) []Stmt {
	var out []Stmt
	for {
		if allowDecl && (isType(p.peek().text) || p.is("register")) && p.peek().kind == tIdent {
			out = append(out, p.decl())
		} else {
			out = append(out, p.simple())
		}
		if !p.accept(",") {
			return out
		}
	}
}

var assignOps = map[string]bool{"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "%=": true,
	"&=": true, "|=": true, "^=": true, "<<=": true, ">>=": true}

// simple is an assignment, an increment, swap or a call.
func (p *parser) simple() Stmt {
	t := p.peek()
	if t.kind == tOp && (t.text == "++" || t.text == "--") {
		p.advance()
		x := p.unary()
		p.lvalue(x)
		return &Assign{P: t.pos, L: x, Op: t.text[:1] + "=", R: &IntLit{t.pos, 1}}
	}
	if t.kind == tIdent && t.text == "swap" {
		p.advance()
		p.expect("(", "'(' after swap")
		a := p.expr()
		p.expect(",", "',' between swap's two places")
		b := p.expr()
		p.expect(")", "')' after swap's places")
		p.lvalue(a)
		p.lvalue(b)
		return &Swap{P: t.pos, A: a, B: b}
	}
	x := p.postfix()
	op := p.peek()
	if op.kind == tOp && (op.text == "++" || op.text == "--") {
		p.advance()
		p.lvalue(x)
		return &Assign{P: x.pos(), L: x, Op: op.text[:1] + "=", R: &IntLit{op.pos, 1}}
	}
	if op.kind == tOp && assignOps[op.text] {
		p.advance()
		p.lvalue(x)
		return &Assign{P: x.pos(), L: x, Op: op.text, R: p.expr()}
	}
	if c, ok := x.(*Call); ok {
		return &ExprStmt{P: c.P, X: c}
	}
	p.fail(op.pos, "expected an assignment (=, +=, ++, ...) or a call, found %s", op)
	return nil
}

func (p *parser) lvalue(x Expr) {
	switch x.(type) {
	case *Name, *Index:
		return
	}
	p.fail(x.pos(), "only a variable or an array element can be assigned")
}

// Binary operators by precedence, lowest first (C's).
var precedence = [][]string{
	{"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", "<=", ">", ">="}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"},
}

func (p *parser) expr() Expr {
	t := p.peek()
	defer p.nest(t.pos)()
	c := p.binary(0)
	if p.accept("?") {
		a := p.expr()
		p.expect(":", "':' in a ? b : c")
		b := p.expr()
		return &Cond{P: t.pos, C: c, T: a, F: b}
	}
	return c
}

func (p *parser) binary(level int) Expr {
	if level == len(precedence) {
		return p.unary()
	}
	l := p.binary(level + 1)
	for {
		t := p.peek()
		if t.kind != tOp || !contains(precedence[level], t.text) {
			return l
		}
		p.advance()
		r := p.binary(level + 1)
		l = &Binary{P: t.pos, Op: t.text, L: l, R: r}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (p *parser) unary() Expr {
	t := p.peek()
	if t.kind == tOp {
		switch t.text {
		case "-", "!", "~", "+":
			p.advance()
			defer p.nest(t.pos)()
			x := p.unary()
			if t.text == "+" {
				return x
			}
			return &Unary{P: t.pos, Op: t.text, X: x}
		case "++", "--":
			p.fail(t.pos, "%s is a statement here, not part of an expression (write it on its own line)", t.text)
		case "*", "&":
			p.fail(t.pos, "pointers are not part of the language: use an array and an index")
		}
	}
	return p.postfix()
}

func (p *parser) postfix() Expr {
	x := p.primary()
	for p.is("[") {
		n, ok := x.(*Name)
		if !ok {
			if ix, ok2 := x.(*Index); ok2 {
				p.advance()
				ix.Idx = append(ix.Idx, p.expr())
				p.expect("]", "']'")
				continue
			}
			p.fail(p.peek().pos, "only an array can be indexed")
		}
		p.advance()
		ix := &Index{P: n.P, Array: n, Idx: []Expr{p.expr()}}
		p.expect("]", "']'")
		x = ix
	}
	return x
}

func (p *parser) primary() Expr {
	t := p.peek()
	switch t.kind {
	case tInt:
		p.advance()
		v, err := strconv.ParseInt(t.text, 0, 64)
		if err != nil {
			p.fail(t.pos, "the integer %s does not fit in 64 bits", t.text)
		}
		return &IntLit{t.pos, v}
	case tFloat:
		p.advance()
		v, err := strconv.ParseFloat(t.text, 64)
		if err != nil {
			p.fail(t.pos, "%s is not a number", t.text)
		}
		return &FloatLit{t.pos, v}
	case tString:
		p.advance()
		return &StrLit{t.pos, t.text}
	case tIdent:
		if t.text == "sizeof" {
			p.advance()
			p.expect("(", "'(' after sizeof")
			tt := p.peek()
			var arg Expr
			if tt.kind == tIdent && isType(tt.text) {
				p.advance()
				arg = &TypeArg{tt.pos, tt.text}
			} else {
				arg = p.expr()
			}
			p.expect(")", "')' after sizeof's argument")
			return &Call{P: t.pos, Fn: "sizeof", Args: []Expr{arg}}
		}
		if isType(t.text) && p.peekAt(1).text == "(" {
			p.advance()
			p.advance()
			x := p.expr()
			p.expect(")", "')' after the conversion's argument")
			fn := "int"
			if isFloatType(t.text) {
				fn = "float"
			}
			return &Call{P: t.pos, Fn: fn, Args: []Expr{x}}
		}
		if keywords[t.text] || isType(t.text) {
			p.fail(t.pos, "expected an expression, found the keyword %s", t)
		}
		p.advance()
		if p.is("(") {
			p.advance()
			c := &Call{P: t.pos, Fn: t.text}
			for !p.is(")") {
				if len(c.Args) > 0 {
					p.expect(",", "',' or ')' in the arguments")
				}
				c.Args = append(c.Args, p.expr())
			}
			p.advance()
			return c
		}
		return &Name{t.pos, t.text}
	case tOp:
		if t.text == "(" {
			p.advance()
			x := p.expr()
			p.expect(")", "')'")
			return x
		}
	}
	p.fail(t.pos, "expected an expression, found %s", t)
	return nil
}

// describeTypes lists the element types for messages.
func describeTypes() string {
	return strings.Join([]string{"char", "short", "int", "long", "uint8", "uint16", "uint32", "float", "double", "int8", "int16", "int32", "int64", "float32", "float64"}, ", ")
}
