package superstep_test

import (
	"fmt"

	"memwall/engine/superstep"
)

// Radix sort of a million integers on 8 processors, bounded by the
// superstep paper's Good and Bad cost functions for the SGI Power
// Challenge: each superstep's reads and writes, and its interval.
func ExampleNewPlan() {
	plan, err := superstep.NewPlan("radix", 1000000, 8, superstep.Params{})
	if err != nil {
		fmt.Println(err)
		return
	}
	set, _ := superstep.SGIPowerChallenge(8)
	pr, err := set.Predict(plan)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range pr.Steps {
		c := s.Step.Counts
		fmt.Printf("SS%d ×%d  h_r=%.0f h_w=%.0f M=%.0f  [%.1f, %.1f] µs\n", s.Step.Number, s.Step.Repeat, c.Hr, c.Hw, c.M, s.Interval.Good*1e6, s.Interval.Bad*1e6)
	}
	fmt.Printf("sort: [%.2f, %.2f] ms\n", pr.Good*1e3, pr.Bad*1e3)
	// Output:
	// SS1 ×6  h_r=125000 h_w=64 M=1000512  [2490.6, 185622.3] µs
	// SS2 ×6  h_r=64 h_w=64 M=1024  [141.8, 16758.8] µs
	// SS3 ×6  h_r=64 h_w=64 M=1024  [141.8, 16758.8] µs
	// SS4 ×6  h_r=125064 h_w=125000 M=2000512  [3628.7, 393252.5] µs
	// sort: [38.42, 3674.35] ms
}

// A Supersteps page link, read as the page and `memwall supersteps --link`
// read it: a measured time of the whole sort places it in its interval.
func ExampleParseScenario() {
	in, problems := superstep.Form.Read("#algo=sample&n=2^20&p=4&tmt=30ms")
	sc, es := superstep.ParseScenario(in)
	fmt.Println(len(problems), len(es))
	pr, loc, err := sc.Evaluate()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d supersteps, [%.2f, %.2f] ms\n", len(pr.Steps), pr.Good*1e3, pr.Bad*1e3)
	fmt.Printf("Loc = %.2f, M/G = %.2f\n", loc.Total.Loc, loc.Total.MG)
	// Output:
	// 0 0
	// 5 supersteps, [19.73, 1335.52] ms
	// Loc = 0.99, M/G = 1.52
}
