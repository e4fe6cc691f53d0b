package mbram_test

import (
	"fmt"
	"strings"

	"memwall/engine/machine"
	"memwall/engine/mbram"
)

// The 1.7 GHz Pentium 4 of the MBRAM paper's Fig. 2.
var p4 = machine.Machine{
	ID: "p4-1.7-pc133", Name: "1.7 GHz Pentium 4 / PC-133",
	Beta1: 1.06e9, Beta2: 0.85e9, Mu1: 2, C: 256 << 10, B: 128, M: 11.76e-9,
}

// Quicksort of 8Mi four-byte integers: the paper's Fig. 5 prints 1.51 s.
func ExamplePredict() {
	b, err := mbram.Predict(p4, "quicksort", mbram.DefaultParams(8<<20))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.2f s\n", b.Seconds)
	for _, t := range b.Terms {
		fmt.Printf("  %s: %.3f s\n", t.Name, t.Seconds)
	}
	// Output:
	// 1.51 s
	//   sequential memory traffic (partition passes in RAM): 0.380 s
	//   branch mispredictions: 1.134 s
}

// Seconds gives only the total, for sweeps and charts.
func ExampleSeconds() {
	for _, id := range []string{"perm", "perm-twopass"} {
		s, _ := mbram.Seconds(p4, id, mbram.DefaultParams(1<<20))
		fmt.Printf("%s: %.4f s\n", id, s)
	}
	// Output:
	// perm: 0.1698 s
	// perm-twopass: 0.0493 s
}

// The kernels' ids, as messages list what is accepted: the MBRAM paper's
// permutation products (Fig. 3), its matrix product (Fig. 4) and its
// seven sorts (Fig. 5).
func ExampleIDs() {
	fmt.Println(strings.Join(mbram.IDs(), ", "))
	// Output: perm, perm-twopass, matmul, quicksort, mergesort, heapsort, bucket, bucket-count, radix, radix-count
}
