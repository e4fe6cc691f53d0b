package numl_test

import (
	"fmt"

	"memwall/engine/numl"
)

// The three leftmost 4-byte columns of a 1000×1000 integer array (rows of
// W = 4000 bytes), sent as one message: 12 bytes of each of 1000 rows.
// With 64-byte lines each row's 12 bytes fall in one line or straddle
// two, depending on where the row starts.
func ExampleLines() {
	s := numl.Shape{Kind: numl.Columns, W: 4000, K: 3, Elem: 4, R: 1000, Line: 64, Offset: 5}
	u, err := numl.Lines(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, _ := numl.Span(s)
	fmt.Println("bytes:", s.Bytes(), "lines at offset 5:", u)
	fmt.Printf("over all offsets: %d to %d, mean %.1f\n", r.Min, r.Max, r.Mean)
	// Output:
	// bytes: 12000 lines at offset 5: 1000
	// over all offsets: 1000 to 1500, mean 1171.9
}

// Whole rows are one contiguous block: ceil((o + n)/L) lines.
func ExampleLines_rows() {
	u, _ := numl.Lines(numl.Shape{Kind: numl.Rows, W: 4000, K: 2, Line: 64, Offset: 60})
	fmt.Println(u)
	// Output:
	// 126
}

// Conv-Shift against Conv-Scan for box sizes 1 to 10 on a 1024×1024
// image on an 8×32 mesh, under the standard model and under M1, which
// also charges the lines a message touches.
func ExampleCompare() {
	conv := numl.Conv{N: 1024, Elem: 4, Pr: 8, Pc: 32, Line: 64}
	std, m1 := numl.ExampleCoefficients()
	for _, c := range []struct {
		name string
		coef numl.Coef
	}{{"standard", std}, {"M1", m1}} {
		cv, err := numl.Compare(conv, c.coef, 10)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: Conv-Scan is faster from b = %d (found %v)\n", c.name, cv.Crossover, cv.Found)
	}
	// Output:
	// standard: Conv-Scan is faster from b = 3 (found true)
	// M1: Conv-Scan is faster from b = 4 (found true)
}

// The Communication page's inputs from a link: the link's keys over the
// defaults, each bad key named.
func ExampleParseScenario() {
	in, problems := numl.Form.Read("#kind=rows&W=4KiB&k=2&o=60")
	sc, es := numl.ParseScenario(in)
	fmt.Println(len(problems), len(es), sc.ShapeOK, sc.ConvOK)
	u, _ := numl.Lines(sc.Shape)
	fmt.Println("lines:", u)

	in["o"] = "64"
	_, es = numl.ParseScenario(in)
	fmt.Println(es)
	// Output:
	// 0 0 true true
	// lines: 129
	// o: Offset o: the offset of the first byte within its line must be between 0 and 63, got 64
}
