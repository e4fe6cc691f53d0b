package machine_test

import (
	"errors"
	"fmt"

	"memwall/engine/field"
	"memwall/engine/machine"
)

// Validate names every bad field at once, by the name a machine file, a
// link and a form use for it.
func ExampleMachine_Validate() {
	m := machine.Machine{
		Name:  "1.7 GHz Pentium 4 / PC-133",
		Beta1: 1.06e9, Beta2: 0.85e9, Mu1: 2,
		C: 256 << 10, B: 128, M: 11.76e-9,
	}
	fmt.Println(m.Validate(), m.Mu2())

	m.B = 100       // not a power of two
	m.Beta2 = 2.0e9 // faster than beta1
	var es field.Errors
	if errors.As(m.Validate(), &es) {
		for _, e := range es {
			fmt.Println(e.Field)
		}
	}
	// Output:
	// <nil> 2048
	// beta2
	// line
}

// MemLatencyAt reads memory's latency off the curve at the span of a
// kernel's data, linearly in log span between points (768 MiB lies
// 0.585 of the way from 512 MiB to 1 GiB), and holds it at the ends; a
// machine without the curve gives its one number.
func ExampleMachine_MemLatencyAt() {
	m := machine.Machine{MemLatency: 343e-9, MemLatencyCurve: []machine.LatencyPoint{
		{Span: 512 << 20, Latency: 188e-9},
		{Span: 1 << 30, Latency: 222e-9},
		{Span: 2 << 30, Latency: 343e-9},
	}}
	for _, span := range []float64{256 << 20, 768 << 20, 4 << 30} {
		fmt.Printf("%.1f ns\n", 1e9*m.MemLatencyAt(span))
	}
	fmt.Printf("%.1f ns\n", 1e9*machine.Machine{MemLatency: 343e-9}.MemLatencyAt(768<<20))
	// Output:
	// 188.0 ns
	// 207.9 ns
	// 343.0 ns
	// 343.0 ns
}
