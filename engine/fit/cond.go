package fit

import (
	"strings"
)

// Cond is a condition on the columns of a row, such as "N<=512 && P<=16",
// used to choose the training rows (Chittor's thesis's characterisation region); the
// other rows form the test set (its prediction region).
//
// Grammar: or := and ('||' and)*; and := unary ('&&' unary)*;
// unary := '!' unary | '(' or ')' | cmp; cmp := expr op expr with op one of
// < <= > >= == !=, and expr a term expression (numbers, column names, * / ^
// and log2), so "N/P >= 4" and "N <= 2^9" are conditions.
type Cond struct {
	text string
	vars []string
	root *cnode
}

type cnode struct {
	op   string // "&&", "||", "!", or a comparison operator
	a, b *cnode
	l, r *node
}

func (c *cnode) eval(x []float64) bool {
	switch c.op {
	case "&&":
		return c.a.eval(x) && c.b.eval(x)
	case "||":
		return c.a.eval(x) || c.b.eval(x)
	case "!":
		return !c.a.eval(x)
	}
	l, r := c.l.eval(x), c.r.eval(x)
	switch c.op {
	case "<":
		return l < r
	case "<=":
		return l <= r
	case ">":
		return l > r
	case ">=":
		return l >= r
	case "==":
		return l == r
	case "!=":
		return l != r
	}
	return false
}

// ParseCond parses a condition. Errors give the 1-based column.
func ParseCond(s string) (Cond, error) {
	p := &parser{s: s}
	n := p.or()
	if n != nil && p.peek() != 0 {
		p.fail(p.pos, "unexpected %q (join comparisons with && or ||)", string(p.s[p.pos]))
		n = nil
	}
	if n == nil {
		if p.err == nil {
			p.fail(p.pos, "cannot read condition")
		}
		return Cond{}, p.err
	}
	return Cond{text: strings.TrimSpace(s), vars: p.vars, root: n}, nil
}

func (p *parser) or() *cnode {
	n := p.and()
	for n != nil && p.peek() == '|' {
		if !strings.HasPrefix(p.s[p.pos:], "||") {
			p.fail(p.pos, "expected '||'")
			return nil
		}
		p.pos += 2
		m := p.and()
		if m == nil {
			return nil
		}
		n = &cnode{op: "||", a: n, b: m}
	}
	return n
}

func (p *parser) and() *cnode {
	n := p.unary()
	for n != nil && p.peek() == '&' {
		if !strings.HasPrefix(p.s[p.pos:], "&&") {
			p.fail(p.pos, "expected '&&'")
			return nil
		}
		p.pos += 2
		m := p.unary()
		if m == nil {
			return nil
		}
		n = &cnode{op: "&&", a: n, b: m}
	}
	return n
}

func (p *parser) unary() *cnode {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		p.fail(p.pos, "nested too deeply (at most %d levels)", maxDepth)
		return nil
	}
	c := p.peek()
	if c == '!' && !strings.HasPrefix(p.s[p.pos:], "!=") {
		p.pos++
		n := p.unary()
		if n == nil {
			return nil
		}
		return &cnode{op: "!", a: n}
	}
	if c == '(' {
		// "(N/P) >= 4" is a comparison, "(N<=8 || P<2)" a group: try the
		// comparison first and fall back to the group.
		save, saveVars, saveErr := p.pos, len(p.vars), p.err
		if n := p.cmp(); n != nil {
			return n
		}
		cmpErr := p.err
		p.pos, p.vars, p.err = save, p.vars[:saveVars], saveErr
		p.pos++
		n := p.or()
		if n != nil && p.peek() != ')' {
			p.fail(p.pos, "expected ')'")
			n = nil
		}
		if n == nil {
			if cmpErr != nil && (p.err == nil || cmpErr.Offset > p.err.Offset) {
				p.err = cmpErr
			}
			return nil
		}
		p.pos++
		return n
	}
	return p.cmp()
}

var cmpOps = []string{"<=", ">=", "==", "!=", "<", ">"}

func (p *parser) cmp() *cnode {
	l := p.product()
	if l == nil {
		return nil
	}
	p.skip()
	op := ""
	for _, o := range cmpOps {
		if strings.HasPrefix(p.s[p.pos:], o) {
			op = o
			break
		}
	}
	if op == "" {
		if p.pos < len(p.s) && p.s[p.pos] == '=' {
			p.fail(p.pos, "expected a comparison; write '==' for equality")
		} else {
			p.fail(p.pos, "expected a comparison (<, <=, >, >=, ==, !=)")
		}
		return nil
	}
	p.pos += len(op)
	r := p.product()
	if r == nil {
		return nil
	}
	return &cnode{op: op, l: l, r: r}
}

// String returns the condition as written.
func (c Cond) String() string { return c.text }

// Vars lists the column names the condition reads.
func (c Cond) Vars() []string { return append([]string(nil), c.vars...) }

// Valid reports whether c was parsed (the zero Cond is not).
func (c Cond) Valid() bool { return c.root != nil }

// Eval evaluates the condition with x[i] the value of Vars()[i].
func (c Cond) Eval(x []float64) bool { return c.root.eval(x) }
