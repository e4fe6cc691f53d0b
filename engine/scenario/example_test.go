package scenario_test

import (
	"fmt"

	"memwall/engine/scenario"
	"memwall/presets"
)

// A Kernels page link opens as a scenario: the link's keys over the
// defaults, with one problem for each key that does not read. Predict is the
// engine call the page, the link and `memwall predict --link` all make.
func ExampleParseFragment() {
	base := scenario.Default(presets.Machine)
	s, problems := scenario.ParseFragment("https://example.org/#machine=p4-1.7-pc133&kernel=heapsort&n=2^22&w=8x", base, presets.Machine)
	for _, p := range problems {
		fmt.Println("problem:", p.Field+":", p.Msg)
	}
	fmt.Println(s.Machine.ID, s.Kernel, s.Params.N, s.Params.W)
	b, _ := s.Predict()
	fmt.Printf("%.3f s\n", b.Seconds)
	// Output:
	// problem: w: "8x": unknown size unit "x" (use B, KB, KiB, MB, MiB, GB, GiB)
	// p4-1.7-pc133 heapsort 4194304 4
	// 7.691 s
}

// Fragment writes what a share link carries after its "#". A preset machine
// whose numbers are unchanged is named by its id; any other machine travels
// inline.
func ExampleScenario_Fragment() {
	s := scenario.Default(presets.Machine)
	frag, _ := s.Fragment(presets.Machine)
	fmt.Println(frag)

	s.Machine.ID, s.Machine.Name = "", "my laptop"
	s.Kernel, s.Params.N = "perm", 1<<20
	s.Compare = scenario.DefaultCompare("perm")
	frag, _ = s.Fragment(presets.Machine)
	fmt.Println(frag)
	// Output:
	// machine=p4-1.7-pc133&kernel=quicksort&n=8Mi&w=4
	// machine=custom&name=my+laptop&beta1=1.06GB/s&beta2=850MB/s&mu1=2&cache=256KiB&line=128B&mispredict=11.76ns&kernel=perm&n=1Mi&w=4
}

// A Simulate page link adds the data's random seed and the branch
// predictor to a Kernels link; the scenario file holds the same run as
// JSON, and both read back to the same inputs.
func ExampleParseRunFragment() {
	base := scenario.DefaultRun(presets.Machine)
	r, problems := scenario.ParseRunFragment("#machine=p4-1.7-pc133&kernel=mergesort&n=2^20&seed=7&pred=2bit", base, presets.Machine)
	fmt.Println(len(problems), r.Kernel, r.Params.N, r.Seed, r.Pred())
	back, err := scenario.ParseRunJSON(r.JSON())
	fmt.Println(back.Kernel, back.Params.N, back.Seed, back.Pred(), err)
	// Output:
	// 0 mergesort 1048576 7 2bit
	// mergesort 1048576 7 2bit <nil>
}
