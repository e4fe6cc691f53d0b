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
