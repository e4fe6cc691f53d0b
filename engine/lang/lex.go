package lang

import (
	"fmt"
	"strings"
)

// Pos is a source position, 1-based.
type Pos struct{ Line, Col int }

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Error is a compile or run-time error at a source position.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return "line " + e.Pos.String() + ": " + e.Msg }

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tFloat
	tString
	tOp  // punctuation and operators
	tRaw // the value of a param: the rest of the line
)

type token struct {
	kind tokKind
	text string
	pos  Pos
}

func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "the end of the program"
	case tString:
		return "a string"
	case tInt, tFloat:
		return "the number " + t.text
	case tIdent:
		return "'" + t.text + "'"
	}
	return "'" + t.text + "'"
}

// MaxSource bounds a program's length: a page's editor or a link holds far
// less, and the parser is linear in it.
const MaxSource = 1 << 20

// lexer turns source into tokens. A param's value is taken raw (the rest
// of its line up to ';' or a comment), because it is written in memwall's
// field syntax (2^20 is a power there, an exclusive or in expressions).
type lexer struct {
	src  string
	i    int
	line int
	col  int
	toks []token
}

var ops3 = []string{"<<=", ">>="}
var ops2 = []string{"<=", ">=", "==", "!=", "&&", "||", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>"}

const ops1 = "+-*/%<>=!&|^~?:;,(){}[]."

func lex(src string) ([]token, error) {
	if len(src) > MaxSource {
		return nil, &Error{Pos{1, 1}, fmt.Sprintf("the program is %d bytes; at most %d are accepted", len(src), MaxSource)}
	}
	l := &lexer{src: src, line: 1, col: 1}
	for {
		if err := l.space(); err != nil {
			return nil, err
		}
		if l.i >= len(l.src) {
			l.toks = append(l.toks, token{tEOF, "", l.pos()})
			return l.toks, nil
		}
		if err := l.next(); err != nil {
			return nil, err
		}
	}
}

func (l *lexer) pos() Pos { return Pos{l.line, l.col} }

func (l *lexer) adv(n int) {
	for k := 0; k < n && l.i < len(l.src); k++ {
		if l.src[l.i] == '\n' {
			l.line++
			l.col = 1
		} else if l.src[l.i]&0xC0 != 0x80 { // count runes, not bytes
			l.col++
		}
		l.i++
	}
}

func (l *lexer) space() error {
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v':
			l.adv(1)
		case strings.HasPrefix(l.src[l.i:], "//") || c == '#':
			// '#' lines (#include, #define) are read as comments so that
			// pasted C does not stop at its first line; #define is not a
			// macro here (write const).
			for l.i < len(l.src) && l.src[l.i] != '\n' {
				l.adv(1)
			}
		case strings.HasPrefix(l.src[l.i:], "/*"):
			p := l.pos()
			end := strings.Index(l.src[l.i+2:], "*/")
			if end < 0 {
				return &Error{p, "this comment is not closed: expected */"}
			}
			l.adv(end + 4)
		default:
			return nil
		}
	}
	return nil
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigitByte(c byte) bool  { return c >= '0' && c <= '9' }

func (l *lexer) next() error {
	p := l.pos()
	c := l.src[l.i]
	switch {
	case isIdentStart(c):
		j := l.i
		for j < len(l.src) && (isIdentStart(l.src[j]) || isDigitByte(l.src[j])) {
			j++
		}
		text := l.src[l.i:j]
		l.adv(j - l.i)
		l.toks = append(l.toks, token{tIdent, text, p})
		if text == "param" {
			return l.paramValue()
		}
		return nil
	case isDigitByte(c) || c == '.' && l.i+1 < len(l.src) && isDigitByte(l.src[l.i+1]):
		j := l.i
		float := false
		if strings.HasPrefix(l.src[j:], "0x") || strings.HasPrefix(l.src[j:], "0X") {
			j += 2
			for j < len(l.src) && strings.IndexByte("0123456789abcdefABCDEF", l.src[j]) >= 0 {
				j++
			}
		} else {
			for j < len(l.src) && (isDigitByte(l.src[j]) || l.src[j] == '.' || l.src[j] == 'e' || l.src[j] == 'E' ||
				(l.src[j] == '+' || l.src[j] == '-') && (l.src[j-1] == 'e' || l.src[j-1] == 'E')) {
				if l.src[j] == '.' || l.src[j] == 'e' || l.src[j] == 'E' {
					float = true
				}
				j++
			}
		}
		if j < len(l.src) && (isIdentStart(l.src[j])) {
			return &Error{p, fmt.Sprintf("a number cannot be followed by a letter: %q", l.src[l.i:j+1])}
		}
		text := l.src[l.i:j]
		l.adv(j - l.i)
		k := tInt
		if float {
			k = tFloat
		}
		l.toks = append(l.toks, token{k, text, p})
		return nil
	case c == '"':
		j := l.i + 1
		for j < len(l.src) && l.src[j] != '"' && l.src[j] != '\n' {
			j++
		}
		if j >= len(l.src) || l.src[j] != '"' {
			return &Error{p, "this string is not closed: expected \" before the end of the line"}
		}
		text := l.src[l.i+1 : j]
		l.adv(j + 1 - l.i)
		l.toks = append(l.toks, token{tString, text, p})
		return nil
	}
	for _, o := range ops3 {
		if strings.HasPrefix(l.src[l.i:], o) {
			l.adv(3)
			l.toks = append(l.toks, token{tOp, o, p})
			return nil
		}
	}
	for _, o := range ops2 {
		if strings.HasPrefix(l.src[l.i:], o) {
			l.adv(2)
			l.toks = append(l.toks, token{tOp, o, p})
			return nil
		}
	}
	if strings.IndexByte(ops1, c) >= 0 {
		l.adv(1)
		l.toks = append(l.toks, token{tOp, string(c), p})
		return nil
	}
	r := []rune(l.src[l.i:min(len(l.src), l.i+4)])
	return &Error{p, fmt.Sprintf("unexpected character %q", r[0])}
}

// paramValue reads "NAME = value" after the keyword param: NAME as an
// identifier, then the raw value up to ';', a comment or the end of the
// line.
func (l *lexer) paramValue() error {
	if err := l.spaceInLine(); err != nil {
		return err
	}
	if l.i >= len(l.src) || !isIdentStart(l.src[l.i]) {
		return nil // the parser reports the missing name
	}
	if err := l.next(); err != nil {
		return err
	}
	if err := l.spaceInLine(); err != nil {
		return err
	}
	if l.i >= len(l.src) || l.src[l.i] != '=' {
		return nil
	}
	l.toks = append(l.toks, token{tOp, "=", l.pos()})
	l.adv(1)
	if err := l.spaceInLine(); err != nil {
		return err
	}
	p := l.pos()
	j := l.i
	for j < len(l.src) && l.src[j] != '\n' && l.src[j] != ';' && !strings.HasPrefix(l.src[j:], "//") && !strings.HasPrefix(l.src[j:], "/*") {
		j++
	}
	text := strings.TrimSpace(l.src[l.i:j])
	l.adv(j - l.i)
	l.toks = append(l.toks, token{tRaw, text, p})
	return nil
}

func (l *lexer) spaceInLine() error {
	for l.i < len(l.src) && (l.src[l.i] == ' ' || l.src[l.i] == '\t') {
		l.adv(1)
	}
	return nil
}
