package lang

import (
	"memwall/engine/machine"
	"memwall/engine/mbram"
)

// ClosedForm is the closed form of a built-in kernel (an Example's
// Kernel, a Scenario's) for a program that writes it out: engine/mbram's
// time on m for n (the problem size: elements, or a matrix dimension) and,
// when the program has a param b, b buckets. It is false when kernel is ""
// or the closed form refuses the workload.
func ClosedForm(m machine.Machine, kernel string, n int64, params map[string]int64) (float64, bool) {
	if kernel == "" {
		return 0, false
	}
	p := mbram.DefaultParams(n)
	if b, ok := params["b"]; ok {
		p.Buckets = b
	}
	v, err := mbram.Seconds(m, kernel, p)
	if err != nil {
		return 0, false
	}
	return v, true
}
