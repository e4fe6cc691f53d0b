package kernels_test

import (
	"context"
	"fmt"

	"memwall/engine/kernels"
	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/sim"
)

// The traditional permutation product of 2^20 points really runs through
// the simulator of the model rules, beside its closed form (the MBRAM
// paper's Fig. 3 size, on its 1.7 GHz Pentium 4).
func ExampleRun() {
	m := machine.Machine{Name: "1.7 GHz Pentium 4 / PC-133",
		Beta1: 1.06e9, Beta2: 0.85e9, Mu1: 2, C: 256 << 10, B: 128, M: 11.76e-9}
	p := mbram.DefaultParams(1 << 20)
	s, err := sim.New(sim.ConfigFor(m, sim.Majority))
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := kernels.Run(context.Background(), s, "perm", p, kernels.Options{Seed: 1}); err != nil {
		fmt.Println(err)
		return
	}
	closed, _ := mbram.Seconds(m, "perm", p)
	c := s.Counts()
	fmt.Println("accesses:", c.Accesses)
	fmt.Printf("simulated %.4f s, closed form %.4f s\n", s.Seconds(), closed)
	// Output:
	// accesses: 3145728
	// simulated 0.1637 s, closed form 0.1698 s
}
