package ranking_test

import (
	"fmt"

	"memwall/engine/ranking"
)

// Three sorts of one size class, measured and predicted: the paper's model
// puts mergesort before quicksort, the hierarchy model orders all three as
// they ran.
func ExampleSummarize() {
	s := ranking.Summarize("beyond", []ranking.Run{
		{Kernel: "quicksort", Measured: 53.9, Predicted: 53.9, Hier: 59.1},
		{Kernel: "mergesort", Measured: 68.7, Predicted: 52.0, Hier: 72.1},
		{Kernel: "heapsort", Measured: 332.6, Predicted: 252.5, Hier: 347.6},
	})
	fmt.Printf("ρ MBRAM %.3f, hierarchy %.3f; in the band %d of %d\n", s.SpearmanSorts, s.SpearmanSortsHier, s.InBand, s.Rows)
	fmt.Println("misordered by MBRAM:", s.MisorderedPairs)
	// Output:
	// ρ MBRAM 0.500, hierarchy 1.000; in the band 3 of 3
	// misordered by MBRAM: [quicksort < mergesort]
}
