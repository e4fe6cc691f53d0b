package lang

import (
	"context"
	"strings"
	"testing"
	"time"

	"memwall/engine/machine"
	"memwall/engine/sim"
)

func fuzzSeeds(f *testing.F) {
	for _, e := range Examples() {
		f.Add(e.Source)
	}
	for _, s := range []string{
		"for (i=0; i<1048576; i++) Z[i]=Y[X[i]];",
		"param N = 2^10\nint A[N] = uniform(N);\nfor (i = 0; i < N; i++) A[i] += A[(i * 7) % N];",
		"int f(int n) { return n < 2 ? n : f(n-1) + f(n-2); }\nx = f(20);",
		"while (1) { }",
		"int A[3];\nx = A[5];",
		"double d[4] = seq(1, 2);\nfor (i = 0; i < 4; i++) d[i] = d[i] / 0;",
		"if (1) { x = 1; } else { x = 2 }",
		"param N = 99999999999999\nint A[N];",
	} {
		f.Add(s)
	}
}

// FuzzCompile: no input makes the parser or the compiler panic, and every
// error is positioned.
func FuzzCompile(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, src string) {
		_, err := Compile(src)
		if err != nil && !strings.HasPrefix(err.Error(), "line ") {
			t.Fatalf("error without a position: %v", err)
		}
	})
}

// FuzzRun: any program that compiles runs to a result or a positioned
// error within the step, depth and memory limits; none panics or hangs.
func FuzzRun(f *testing.F) {
	fuzzSeeds(f)
	m := machine.Machine{Name: "fuzz", Beta1: 2e9, Beta2: 1e9, Mu1: 2, C: 8 << 10, B: 64, M: 5e-9}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := Compile(src)
		if err != nil {
			return
		}
		// Params are set small so that the examples run in a moment.
		set := map[string]int64{}
		for _, d := range p.Params {
			set[d.Name] = min(d.Default, 64)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		start := time.Now()
		r, err := p.Run(ctx, m, sim.TwoBit, Options{Params: set, MaxSteps: 200000, MaxDepth: 200, MaxMemory: 64 << 20})
		if d := time.Since(start); d > 4*time.Second {
			t.Fatalf("a run took %v", d)
		}
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Fatal(err)
			}
			return
		}
		if !(r.Seconds >= 0) || r.Seconds > 1e300 {
			t.Fatalf("time %g", r.Seconds)
		}
	})
}
