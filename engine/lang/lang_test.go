package lang

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"memwall/engine/kernels"
	"memwall/engine/mbram"
	"memwall/engine/sim"
	"memwall/presets"
)

func run(t *testing.T, src string, set map[string]int64) (*Result, error) {
	t.Helper()
	p, err := Compile(src)
	if err != nil {
		return nil, err
	}
	m, _ := presets.Machine("p4-2.66-ddr266")
	return p.Run(context.Background(), m, sim.Majority, Options{Params: set, Seed: 3, MaxSteps: 1 << 24})
}

// TestFigure1Verbatim runs the line printed under Fig. 1 of Cooperman, Ma
// and Nguyen's paper, character for character (with N written out as
// there), after the declarations of section III with initialisers: its
// counts are the built-in traditional permutation product's.
func TestFigure1Verbatim(t *testing.T) {
	const fig1 = `for (i=0; i<1048576; i++) Z[i]=Y[X[i]];`
	src := "int X[1048576] = perm(), Y[1048576] = perm(), Z[1048576];\n" + fig1 + "\n"
	p, err := Compile(src)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := presets.Machine("p4-2.66-ddr266")
	got, err := p.Run(context.Background(), m, sim.Majority, Options{Seed: 1, Branches: DataBranches})
	if err != nil {
		t.Fatal(err)
	}
	want, err := kernels.Simulate(context.Background(), m, sim.Majority, "perm", mbram.DefaultParams(1<<20), kernels.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got.Counts != want.Counts {
		t.Errorf("Fig. 1 line: %+v, kernel %+v", got.Counts, want.Counts)
	}
	// Every condition charged: the loop test runs 2^20 + 1 times.
	all, err := p.Run(context.Background(), m, sim.Majority, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if all.Counts.Branches != 1<<20+1 {
		t.Errorf("loop tests charged: %d, want 2^20+1", all.Counts.Branches)
	}
}

// TestCompileErrors: every compile error has a line:column and says what
// was expected.
func TestCompileErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"int X[10];\nX[1] = ;", "line 2:8: expected an expression, found ';'"},
		{"for (i = 0; i < 3 i++) x = 1;", "line 1:19: expected ';' after the loop's condition, found 'i'"},
		{"y = z + 1;", "line 1:5: z is not declared"},
		{"int A[4];\nA = 3;", "line 2:1: A is an array: assign its elements, like A[i] = ..."},
		{"int A[4];\nx = A[1][2];", "line 2:5: A has 1 dimension(s); got 2 index(es)"},
		{"param N = lots\n", "line 1:1: param N:"},
		{"void f(int a) { return 1; }", "line 1:17: f is void and returns no value"},
		{"int f(int a) { return a; }\nx = f(1, 2);", "line 2:5: f takes 1 argument(s); got 2"},
		{"break;", "line 1:1: break is only allowed inside a loop"},
		{"/* open", "line 1:1: this comment is not closed: expected */"},
		{"x = 1 @ 2;", "line 1:7: unexpected character '@'"},
		{"while (1) { int A[3]; }", "line 1:17: arrays are declared at the top level"},
		{"double d = 1.5;\nx = d & 1;", "line 2:7: operator & needs integers; got a float"},
		{"x = *p;", "line 1:5: pointers are not part of the language"},
		{"int A[3] = foo();", "line 1:12: an array is initialised by perm()"},
		{"if (1) { x = 1;", "line 1:16: expected '}' to close the block opened at 1:8, found the end of the program"},
		{"x = rand();", "line 1:5: rand takes 1 argument(s); got 0"},
	}
	for _, c := range cases {
		_, err := Compile(c.src)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s", c.src, err, c.want)
		}
		var le *Error
		if err != nil && !errors.As(err, &le) {
			t.Errorf("%q: error %T is not a *lang.Error", c.src, err)
		}
	}
}

// TestRuntimeErrors: run-time faults stop the run with the source position
// and the values involved.
func TestRuntimeErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"param N = 8\nint A[N];\nfor (i = 0; i <= N; i++) A[i] = i;", "line 3:26: index 8 is out of range for A (length 8)"},
		{"int A[4][5];\nx = A[2][7];", "line 2:5: index 7 is out of range for dimension 2 of A (length 5)"},
		{"z = 0;\nx = 5 / z;", "line 2:7: division by zero"},
		{"int f(int n) { return f(n + 1); }\nx = f(0);", fmt.Sprintf("line 1:23: calls nest more than %d deep", DefaultMaxDepth)},
		{"while (1) x = 1;", "line 1:1: the run took more than 16777216 steps"},
		{"int A[0];", "line 1:7: the length of A must be at least 1; got 0"},
		{"x = rand(0);", "line 1:5: rand(n) draws from 0 to n-1: n must be at least 1; got 0"},
		{"s = 70;\nx = 1 << s;", "line 2:7: a shift count must be from 0 to 63; got 70"},
		{"int A[10] = uniform(5, 5);", "line 1:13: uniform draws from lo to hi-1"},
		{"int A[8] offset 3;", "line 1:17: the offset of A must be a multiple of its element size (4 B)"},
		{"long A[1 << 31][4];", "line 1:17: A would have more than 4294967296 elements"},
	}
	for _, c := range cases {
		_, err := run(t, c.src, nil)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s", c.src, err, c.want)
		}
	}
}

// TestSemantics checks values the interpreter computes against C's.
func TestSemantics(t *testing.T) {
	src := `
int A[10] = seq();
long S[4];
int f(int n) { if (n < 2) return n; return f(n - 1) + f(n - 2); }
double g(double x) { return x / 2; }
S[0] = f(15);                       // 610
t = 0;
for (i = 0; i < 10; i++) { if (i % 2 == 0) continue; t += A[i]; if (i == 7) break; }
S[1] = t;                           // 1 + 3 + 5 + 7 = 16
int B[2] = uniform(1);
swap(A[1], A[2]);
S[2] = A[1] * 100 + A[2] + (7 >> 1) + (-7 / 2) + (-7 % 3) + (5 ^ 3) + (~0) + (3 < 4) * 1000;
S[3] = int(g(7.0) * 10) + min(3, 4) + max(3.5, 1.0) + abs(-2);
int U[1];
U[0] = -1;                          // int32 keeps -1
int C[1];
C[0] = 1 << 31;                     // wraps to -2^31
k = 0;
do { k++; } while (k < 5);
`
	p, err := Compile(src)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := presets.Machine("p4-2.66-ddr266")
	prog := p
	img, err := prog.build(nil, m.C, m.B, false)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := sim.New(sim.ConfigFor(m, sim.Majority))
	rt := img.rt
	rt.s, rt.ctx, rt.data = s, context.Background(), kernels.NewData(1)
	rt.next, rt.align, rt.maxSteps, rt.maxDepth, rt.maxMem, rt.checkAt = arrayStart, 4096, 1<<20, 100, 1<<30, checkEvery
	img.top(rt.g)
	get := func(name string, i int64) int64 {
		for _, a := range rt.arrays {
			if a.name == name {
				return rt.load(a, i, &accessSite{})
			}
		}
		t.Fatalf("no array %s", name)
		return 0
	}
	// 2*100 + 1 + 3 + (-3) + (-1) + 6 + (-1) + 1000 = 1205
	// int(3.5*10) + 3 + 3.5 + 2 = 35 + 3 + 3.5 + 2 = 43.5, stored as 43
	want := map[string][]int64{"S": {610, 16, 1205, 43}, "U": {-1}, "C": {-1 << 31}, "B": {0, 0}}
	for name, vals := range want {
		for i, w := range vals {
			if got := get(name, int64(i)); got != w {
				t.Errorf("%s[%d] = %d, want %d", name, i, got, w)
			}
		}
	}
	if k := rt.g.i[img.g.syms["k"].slot]; k != 5 {
		t.Errorf("do-while ran k to %d, want 5", k)
	}
}

// TestCancel: a cancelled context stops an endless loop.
func TestCancel(t *testing.T) {
	p, err := Compile("int A[1];\nwhile (1) A[0] = 1;")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	m, _ := presets.Machine("p4-2.66-ddr266")
	_, err = p.Run(ctx, m, sim.Majority, Options{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want the context's deadline", err)
	}
}

// TestProfileSumsToTotal: the lines' seconds and counts add up to the
// run's, and the profile puts the permutation product's random reads on
// the line that makes them.
func TestProfileSumsToTotal(t *testing.T) {
	ex, _ := LookupExample("perm-twopass")
	r, err := run(t, ex.Source, map[string]int64{"N": 1 << 16})
	if err != nil {
		t.Fatal(err)
	}
	var sec float64
	var acc, miss, wb, br, mis int64
	for _, l := range r.Lines {
		sec += l.Seconds
		acc += l.Accesses
		miss += l.Misses
		wb += l.Writebacks
		br += l.Branches
		mis += l.Mispredictions
	}
	c := r.Counts
	if acc != c.Accesses || miss != c.Misses || wb != c.Writebacks || br != c.Branches || mis != c.Mispredictions {
		t.Errorf("lines sum to %d/%d/%d/%d/%d, counts %+v", acc, miss, wb, br, mis, c)
	}
	if d := sec - r.Seconds; d > 1e-12 || d < -1e-12 {
		t.Errorf("lines sum to %g s, total %g s", sec, r.Seconds)
	}
	if len(r.Phases) != 3 {
		t.Errorf("phases: %d, want 3", len(r.Phases))
	}
}

// TestDependentAccesses checks the static analysis on small programs
// whose chains are known by hand.
func TestDependentAccesses(t *testing.T) {
	cases := []struct {
		name, src string
		dependent bool
	}{
		{"permutation product", "int X[64] = perm(), Y[64] = perm(), Z[64];\nfor (i = 0; i < 64; i++) Z[i] = Y[X[i]];", false},
		{"through a temporary", "int X[64] = perm(), Y[64] = perm(), Z[64];\nfor (i = 0; i < 64; i++) { x = X[i]; Z[i] = Y[x]; }", false},
		{"linked list", "int next[64] = perm();\np = 0;\nfor (i = 0; i < 64; i++) p = next[p];", true},
		{"binary search", "int A[64] = seq();\nlo = 0; hi = 64;\nwhile (hi - lo > 1) { mid = (lo + hi) / 2; if (A[mid] <= 40) lo = mid; else hi = mid; }", true},
		{"scan", "int A[64] = seq();\ns = 0;\nfor (i = 0; i < 64; i++) s += A[i];", false},
	}
	for _, c := range cases {
		r, err := run(t, c.src, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := r.Dependent > 0; got != c.dependent {
			t.Errorf("%s: %d dependent accesses; want dependent = %v", c.name, r.Dependent, c.dependent)
		}
	}
}

// TestExamplesRun runs every shipped example at a small size.
func TestExamplesRun(t *testing.T) {
	small := map[string]int64{"N": 256, "Q": 64, "M": 512, "T": 16, "b": 8}
	for _, e := range Examples() {
		p, err := Compile(e.Source)
		if err != nil {
			t.Errorf("%s: %v", e.ID, err)
			continue
		}
		set := map[string]int64{}
		for _, d := range p.Params {
			set[d.Name] = small[d.Name]
		}
		if strings.Contains(e.ID, "matmul") || e.ID == "transpose" {
			set["N"] = 48 // a matrix dimension
		}
		if _, err := run(t, e.Source, set); err != nil {
			t.Errorf("%s: %v", e.ID, err)
		}
		if e.Summary() == "" {
			t.Errorf("%s has no summary line", e.ID)
		}
	}
}
