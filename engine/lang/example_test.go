package lang_test

import (
	"context"
	"fmt"

	"memwall/engine/lang"
	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/sim"
)

// The MBRAM paper's Fig. 1 loop, the traditional permutation product.
const fig1 = `param N = 2^20
int X[N] = perm(), Y[N] = perm(), Z[N];
for (i = 0; i < N; i++) Z[i] = Y[X[i]];
`

// Compile once, then Run on generated data: every array access goes to
// the trace simulator, and each source line gets its share of the time.
// The closed form of the same kernel stands beside it.
func ExampleProgram_Run() {
	prog, err := lang.Compile(fig1)
	if err != nil {
		fmt.Println(err)
		return
	}
	m := machine.Machine{Name: "1.7 GHz Pentium 4 / PC-133",
		Beta1: 1.06e9, Beta2: 0.85e9, Mu1: 2, C: 256 << 10, B: 128, M: 11.76e-9}
	n := int64(1 << 18)
	res, err := prog.Run(context.Background(), m, sim.Majority, lang.Options{Params: map[string]int64{"N": n}, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	closed, _ := mbram.Seconds(m, "perm", mbram.DefaultParams(n))
	fmt.Printf("simulated %.2f ms, closed form %.2f ms\n", res.Seconds*1e3, closed*1e3)
	for _, l := range res.Lines {
		if l.Accesses > 0 {
			fmt.Printf("line %d: %d accesses, %d misses\n", l.Line, l.Accesses, l.Misses)
		}
	}
	// Output:
	// simulated 34.29 ms, closed form 42.44 ms
	// line 3: 786432 accesses, 219490 misses
}

// A mistake is reported with its line and column.
func ExampleCompile() {
	_, err := lang.Compile("param N = 2^10\nint A[N];\nA[i] = 1;\n")
	fmt.Println(err)
	// Output:
	// line 3:3: i is not declared
}
