package fit

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// SyntaxError reports where a term or condition cannot be read. Col is the
// 1-based byte position inside the term (or condition), Offset the 0-based
// byte position in the whole input, so a text field can put the cursor there.
type SyntaxError struct {
	Term   int // 1-based term number in a list; 0 for a single expression
	Col    int
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string {
	if e.Term > 0 {
		return fmt.Sprintf("term %d, col %d: %s", e.Term, e.Col, e.Msg)
	}
	return fmt.Sprintf("col %d: %s", e.Col, e.Msg)
}

// op codes of an expression node.
const (
	opNum byte = iota
	opVar
	opMul
	opDiv
	opPow
	opLog2
)

type node struct {
	op   byte
	val  float64 // opNum: the number; opPow: the exponent
	idx  int     // opVar: index into the expression's Vars
	a, b *node
}

func (n *node) eval(x []float64) float64 {
	switch n.op {
	case opNum:
		return n.val
	case opVar:
		return x[n.idx]
	case opMul:
		return n.a.eval(x) * n.b.eval(x)
	case opDiv:
		return n.a.eval(x) / n.b.eval(x)
	case opPow:
		v := n.a.eval(x)
		switch n.val {
		case 1:
			return v
		case 2:
			return v * v
		case 3:
			return v * v * v
		}
		return math.Pow(v, n.val)
	case opLog2:
		return math.Log2(n.a.eval(x))
	}
	return math.NaN()
}

// maxDepth bounds nesting so a hostile input cannot exhaust the stack.
const maxDepth = 64

// parser reads terms and conditions by recursive descent over bytes.
type parser struct {
	s     string
	pos   int
	vars  []string
	depth int
	err   *SyntaxError
}

func (p *parser) fail(at int, format string, a ...any) {
	if p.err == nil || at > p.err.Offset {
		p.err = &SyntaxError{Col: at + 1, Offset: at, Msg: fmt.Sprintf(format, a...)}
	}
}

func (p *parser) skip() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t') {
		p.pos++
	}
}

func (p *parser) peek() byte {
	p.skip()
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

func (p *parser) varIndex(name string) int {
	for i, v := range p.vars {
		if v == name {
			return i
		}
	}
	p.vars = append(p.vars, name)
	return len(p.vars) - 1
}

func isLetter(c byte) bool { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// number reads an unsigned decimal literal: 12, 0.5, 1e-3.
func (p *parser) number() (float64, bool) {
	start := p.pos
	for p.pos < len(p.s) && (isDigit(p.s[p.pos]) || p.s[p.pos] == '.') {
		p.pos++
	}
	if p.pos < len(p.s) && (p.s[p.pos] == 'e' || p.s[p.pos] == 'E') {
		q := p.pos + 1
		if q < len(p.s) && (p.s[q] == '+' || p.s[q] == '-') {
			q++
		}
		if q < len(p.s) && isDigit(p.s[q]) {
			for q < len(p.s) && isDigit(p.s[q]) {
				q++
			}
			p.pos = q
		}
	}
	v, err := strconv.ParseFloat(p.s[start:p.pos], 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		p.fail(start, "%q is not a number", p.s[start:p.pos])
		return 0, false
	}
	return v, true
}

// product := power (('*' | '/') power)*
func (p *parser) product() *node {
	n := p.power()
	if n == nil {
		return nil
	}
	for {
		c := p.peek()
		if c != '*' && c != '/' {
			return n
		}
		p.pos++
		m := p.power()
		if m == nil {
			return nil
		}
		op := opMul
		if c == '/' {
			op = opDiv
		}
		n = &node{op: op, a: n, b: m}
	}
}

// power := atom ('^' ['-'] number)?
func (p *parser) power() *node {
	n := p.atom()
	if n == nil {
		return nil
	}
	if p.peek() != '^' {
		return n
	}
	p.pos++
	p.skip()
	sign := 1.0
	if p.pos < len(p.s) && p.s[p.pos] == '-' {
		sign = -1
		p.pos++
	}
	if p.pos >= len(p.s) || !(isDigit(p.s[p.pos]) || p.s[p.pos] == '.') {
		p.fail(p.pos, "expected a number after '^'")
		return nil
	}
	at := p.pos
	e, ok := p.number()
	if !ok {
		return nil
	}
	if e > 64 {
		p.fail(at, "exponent %g is too large (at most 64)", e)
		return nil
	}
	if n.op == opNum {
		// 2^9 is a constant; fold it so conditions like N <= 2^9 read cleanly.
		return &node{op: opNum, val: math.Pow(n.val, sign*e)}
	}
	return &node{op: opPow, val: sign * e, a: n}
}

// atom := number | name | log2 '(' product ')' | '(' product ')'
func (p *parser) atom() *node {
	c := p.peek()
	switch {
	case c == 0:
		p.fail(p.pos, "unexpected end, expected a number, a column name, log2( or (")
		return nil
	case isDigit(c) || c == '.':
		v, ok := p.number()
		if !ok {
			return nil
		}
		return &node{op: opNum, val: v}
	case c == '(':
		return p.group(func() *node { return p.product() })
	case isLetter(c):
		start := p.pos
		for p.pos < len(p.s) && (isLetter(p.s[p.pos]) || isDigit(p.s[p.pos])) {
			p.pos++
		}
		name := p.s[start:p.pos]
		if p.peek() == '(' {
			if name != "log2" {
				hint := ""
				if name == "log" || name == "lg" {
					hint = " (the papers' logarithms are base 2: write log2)"
				}
				p.fail(start, "unknown function %q; only log2 is known%s", name, hint)
				return nil
			}
			arg := p.group(func() *node { return p.product() })
			if arg == nil {
				return nil
			}
			return &node{op: opLog2, a: arg}
		}
		if name == "log2" {
			p.fail(p.pos, "expected '(' after log2")
			return nil
		}
		return &node{op: opVar, idx: p.varIndex(name)}
	}
	p.fail(p.pos, "unexpected %q, expected a number, a column name, log2( or (", string(c))
	return nil
}

// group parses '(' inner ')'.
func (p *parser) group(inner func() *node) *node {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		p.fail(p.pos, "nested too deeply (at most %d levels)", maxDepth)
		return nil
	}
	p.pos++ // '('
	n := inner()
	if n == nil {
		return nil
	}
	if p.peek() != ')' {
		p.fail(p.pos, "expected ')'")
		return nil
	}
	p.pos++
	return n
}

// Term is one basis function f_k of a linear model, parsed from its text.
type Term struct {
	text string
	vars []string
	root *node
}

// ParseTerm parses one term such as "N/P*log2(P)^2".
func ParseTerm(s string) (Term, error) {
	p := &parser{s: s}
	n := p.product()
	if n != nil && p.peek() != 0 {
		p.fail(p.pos, "unexpected %q after the term (terms are products: use * and /; separate terms with commas)", string(p.s[p.pos]))
		n = nil
	}
	if n == nil {
		if p.err == nil {
			p.fail(p.pos, "cannot read term")
		}
		return Term{}, p.err
	}
	return Term{text: strings.TrimSpace(s), vars: p.vars, root: n}, nil
}

// MustParseTerm is ParseTerm for terms written in source code; it panics on
// a syntax error.
func MustParseTerm(s string) Term {
	t, err := ParseTerm(s)
	if err != nil {
		panic("fit: bad built-in term " + strconv.Quote(s) + ": " + err.Error())
	}
	return t
}

// ParseTerms parses a comma-separated list of terms, "1, N/P, P*log2(P)".
// Errors name the term (1-based) and the column inside it. A term written
// twice is refused, since its columns would be identical.
func ParseTerms(s string) ([]Term, error) {
	var terms []Term
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != ',' {
			continue
		}
		part := s[start:i]
		lead := len(part) - len(strings.TrimLeft(part, " \t\r\n"))
		k := len(terms) + 1
		if strings.TrimSpace(part) == "" {
			return nil, &SyntaxError{Term: k, Col: 1, Offset: start + lead, Msg: "empty term"}
		}
		t, err := ParseTerm(strings.TrimSpace(part))
		if err != nil {
			se := err.(*SyntaxError)
			se.Term = k
			se.Offset += start + lead
			return nil, se
		}
		for j, u := range terms {
			if u.Canonical() == t.Canonical() {
				return nil, &SyntaxError{Term: k, Col: 1, Offset: start + lead,
					Msg: fmt.Sprintf("term %q repeats term %d", t.text, j+1)}
			}
		}
		terms = append(terms, t)
		start = i + 1
	}
	if len(terms) == 0 {
		return nil, &SyntaxError{Term: 1, Col: 1, Msg: "no terms"}
	}
	return terms, nil
}

// String returns the term as written (without surrounding space).
func (t Term) String() string { return t.text }

// Canonical returns the term without spaces, for comparing terms.
func (t Term) Canonical() string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, t.text)
}

// Vars lists the column names the term reads, in order of first use.
func (t Term) Vars() []string { return append([]string(nil), t.vars...) }

// Valid reports whether t was parsed (the zero Term is not).
func (t Term) Valid() bool { return t.root != nil }

// Eval evaluates the term with x[i] the value of Vars()[i]. The result may
// be NaN or ±Inf outside the term's domain (log2 of a non-positive number,
// division by zero); callers check with math.IsNaN/IsInf.
func (t Term) Eval(x []float64) float64 { return t.root.eval(x) }

// EvalMap evaluates the term with named values; a missing name is an error.
func (t Term) EvalMap(vals map[string]float64) (float64, error) {
	x := make([]float64, len(t.vars))
	for i, v := range t.vars {
		val, ok := vals[v]
		if !ok {
			return 0, fmt.Errorf("term %q: no value for %q", t.text, v)
		}
		x[i] = val
	}
	y := t.Eval(x)
	if math.IsNaN(y) || math.IsInf(y, 0) {
		return 0, fmt.Errorf("term %q is not defined at %s (log2 of a non-positive number or division by zero)", t.text, describe(t.vars, x))
	}
	return y, nil
}

func describe(names []string, x []float64) string {
	if len(names) == 0 {
		return "this point"
	}
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s=%g", n, x[i])
	}
	return strings.Join(parts, ", ")
}

// TermStrings returns the texts of terms.
func TermStrings(terms []Term) []string {
	s := make([]string, len(terms))
	for i, t := range terms {
		s[i] = t.text
	}
	return s
}
