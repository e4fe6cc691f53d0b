package speedup_test

import (
	"fmt"

	"memwall/engine/fit"
	"memwall/engine/speedup"
	"memwall/presets"
)

// Analyze fits eq. 14's terms to Table 6 of Chittor's thesis on the
// characterisation region and draws the speedup curve at N = 512, with the
// roll-off point beyond which more processors make the sort slower.
func ExampleAnalyze() {
	data, _ := presets.Dataset(speedup.Table6)
	terms, _ := fit.ParseTerms(speedup.Eq14Terms)
	region, _ := fit.ParseCond("N <= 2^9 && P <= 2^4")
	a, err := speedup.Analyze(speedup.Spec{
		Data: data, T: "T", Terms: terms, Train: region, Weighting: fit.Absolute,
		Ns: []float64{512}, Ps: speedup.ProcCounts(2, 256),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("training rows:", a.Fit.Train.N, "test rows:", a.Fit.Test.N)
	c := a.Curves[0]
	fmt.Println("predicted roll-off:", c.Predicted.RollOff)
	fmt.Println("measured roll-off:", c.Measured.RollOff)
	// Output:
	// training rows: 34 test rows: 51
	// predicted roll-off: P = 32 (S = 11.8)
	// measured roll-off: P = 64 (S = 15.6)
}

// The Speedup page's inputs as a link carries them: Form.Read lays the
// link's keys over the data set's defaults, ParseScenario reads them (one
// field error per bad key) and Spec is the analysis the page draws.
func ExampleParseScenario() {
	in, problems := speedup.Form.Read("#data=chittor-table6&n=2^9&pto=2^8&w=abs")
	fmt.Println(len(problems), in["terms"])
	data, _ := presets.Dataset(in["data"])
	nCol, pCol := speedup.Columns(data, in["y"])
	frame := speedup.FrameFor(data, nCol, pCol)
	sc, es := speedup.ParseScenario(in, frame)
	if len(es) > 0 {
		fmt.Println(es)
		return
	}
	a, err := speedup.Analyze(sc.Spec(frame, nil))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("P:", sc.PFrom, "to", sc.PTo, "roll-off:", a.Curves[0].Predicted.RollOff)

	_, es = speedup.ParseScenario(speedup.Form.Fill(map[string]string{"pto": "1"}), frame)
	fmt.Println(es)
	// Output:
	// 0 1, N/P*log2(P)^2, P*log2(P), P, N/P*log2(N/P)^2, log2(P)*N/P*log2(N/P)^2
	// P: 2 to 256 roll-off: P = 32 (S = 11.8)
	// pto: P to: 1 is below P from (2); a whole number from P from to 8Ki
}
