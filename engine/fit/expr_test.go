package fit

import (
	"math"
	"strings"
	"testing"
)

func TestTermEval(t *testing.T) {
	// Expected values by hand at N = 512, P = 16: N/P = 32, log2 P = 4,
	// log2(N/P) = 5.
	cases := []struct {
		term string
		want float64
	}{
		{"1", 1},
		{"N^2", 512 * 512},
		{"N/P*log2(P)^2", 32 * 16},
		{"P*log2(P)", 64},
		{"log2(P)*N/P*log2(N/P)^2", 4 * 32 * 25},
		{"N/P*log2(N/P)^2", 32 * 25},
		{"2^9", 512},
		{"N^-1", 1.0 / 512},
		{"(N/P)^0.5", math.Sqrt(32)},
		{" N / P ", 32},
		{"1e3*P", 16000},
	}
	for _, c := range cases {
		tm, err := ParseTerm(c.term)
		if err != nil {
			t.Errorf("%q: %v", c.term, err)
			continue
		}
		got, err := tm.EvalMap(map[string]float64{"N": 512, "P": 16})
		if err != nil || math.Abs(got-c.want) > 1e-12*math.Abs(c.want) {
			t.Errorf("%q = %g, %v; want %g", c.term, got, err, c.want)
		}
	}
}

func TestTermErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"1, log2(P", "term 2, col 7: expected ')'"},
		{"N/P*log2(P)^", "term 1, col 13: expected a number after '^'"},
		{"1,,P", "term 2, col 1: empty term"},
		{"N+P", "term 1, col 2: unexpected \"+\""},
		{"log(P)", "only log2 is known (the papers' logarithms are base 2: write log2)"},
		{"N, N", "repeats term 1"},
		{"P*", "term 1, col 3: unexpected end"},
		{"P^100", "too large"},
		{"", "empty term"},
		{"log2", "expected '(' after log2"},
	}
	for _, c := range cases {
		_, err := ParseTerms(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseTerms(%q) = %v, want %q", c.in, err, c.want)
		}
	}
	if _, err := (MustParseTerm("log2(P)")).EvalMap(map[string]float64{"P": 0}); err == nil || !strings.Contains(err.Error(), "P=0") {
		t.Errorf("log2(0): %v", err)
	}
}

func TestCond(t *testing.T) {
	rows := [][2]float64{{512, 16}, {1024, 16}, {512, 32}, {8, 1}}
	cases := []struct {
		cond string
		want []bool
	}{
		{"N<=512 && P<=16", []bool{true, false, false, true}},
		{"N <= 2^9 && P <= 2^4", []bool{true, false, false, true}},
		{"N>512 || P>16", []bool{false, true, true, false}},
		{"!(N<=512 && P<=16)", []bool{false, true, true, false}},
		{"(N/P) >= 32", []bool{true, true, false, false}},
		{"(N == 8 || N == 1024) && P != 1", []bool{false, true, false, false}},
		{"N/P < 16 || (P == 32)", []bool{false, false, true, true}},
	}
	for _, c := range cases {
		cd, err := ParseCond(c.cond)
		if err != nil {
			t.Errorf("%q: %v", c.cond, err)
			continue
		}
		for i, r := range rows {
			x := make([]float64, len(cd.vars))
			for j, v := range cd.vars {
				x[j] = map[string]float64{"N": r[0], "P": r[1]}[v]
			}
			if got := cd.Eval(x); got != c.want[i] {
				t.Errorf("%q at N=%g P=%g = %v", c.cond, r[0], r[1], got)
			}
		}
	}
	errs := []struct{ in, want string }{
		{"N <= 512 &&", "col 12"},
		{"N = 512", "col 3: expected a comparison; write '==' for equality"},
		{"(N <= 512", "expected ')'"},
		{"N <= 512 & P < 2", "col 10: expected '&&'"},
		{"N", "expected a comparison"},
	}
	for _, c := range errs {
		_, err := ParseCond(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseCond(%q) = %v, want %q", c.in, err, c.want)
		}
	}
}

func FuzzParseTerms(f *testing.F) {
	for _, s := range []string{"1, N/P*log2(P)^2, P*log2(P)", "log2(P)*N/P*log2(N/P)^2", "N^2", "((((N))))", "2^-3", "1,,", "log2(log2(x))"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		terms, err := ParseTerms(s)
		if err != nil {
			se, ok := err.(*SyntaxError)
			if !ok || se.Offset < 0 || se.Offset > len(s) || se.Col < 1 {
				t.Fatalf("%q: bad error %#v", s, err)
			}
			return
		}
		for _, tm := range terms {
			x := make([]float64, len(tm.vars))
			for i := range x {
				x[i] = 3
			}
			tm.Eval(x)
			if _, err := ParseTerm(tm.String()); err != nil {
				t.Fatalf("%q does not reparse: %v", tm, err)
			}
		}
	})
}

func FuzzParseCond(f *testing.F) {
	for _, s := range []string{"N<=512 && P<=16", "!(N>1) || (N/P)>=2", "((N<1))", "N == 2^9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCond(s)
		if err != nil {
			if se, ok := err.(*SyntaxError); !ok || se.Offset < 0 || se.Offset > len(s) {
				t.Fatalf("%q: bad error %#v", s, err)
			}
			return
		}
		c.Eval(make([]float64, len(c.vars)))
	})
}
