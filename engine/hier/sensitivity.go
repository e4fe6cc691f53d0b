package hier

import (
	"maps"
	"math"
	"slices"

	"memwall/engine/machine"
	"memwall/engine/mbram"
)

// A calibrated machine carries, beside each number, its spread over the
// calibration's rounds (machine.Machine.Spread). Sensitivity moves one
// parameter at a time by its spread and predicts again, so a prediction
// comes with how far the calibration's own scatter moves it: first-order
// propagation, parameter by parameter, the rest held. The move is by the
// factor 1+s up and 1/(1+s) down, which keeps a parameter positive
// whatever its spread, and each parameter counts with the larger of its
// two moves, because a level's size moves a prediction in a step (an
// array that fits or not), not smoothly.

// Shift is one parameter of a prediction's sensitivity: its name as in
// the machine's Spread, its spread, and the prediction's seconds with the
// parameter moved down (divided by 1+Spread) and up (times 1+Spread).
type Shift struct {
	Param  string  `json:"param"`
	Spread float64 `json:"spread"`
	Down   float64 `json:"down_seconds"`
	Up     float64 `json:"up_seconds"`
}

// move is the larger of the shift's two moves from base, in seconds.
func (s Shift) move(base float64) float64 {
	return math.Max(math.Abs(s.Down-base), math.Abs(s.Up-base))
}

// Sensitivity is Model's estimate with the shifts of every parameter the
// machine has a positive spread for (machine.Machine.Scaled), sorted by
// name. A parameter whose moved machine the model cannot price is left
// out. A machine without spreads (a preset from specifications) has no
// shifts.
func Sensitivity(m machine.Machine, kernelID string, p mbram.Params) (Estimate, []Shift, error) {
	e, err := Model(m, kernelID, p)
	if err != nil {
		return e, nil, err
	}
	keys := make([]string, 0, len(m.Spread))
	for k, s := range m.Spread {
		if s > 0 && !math.IsInf(s, 0) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var out []Shift
	for _, k := range keys {
		s := m.Spread[k]
		down, okD := m.Scaled(k, 1/(1+s))
		up, okU := m.Scaled(k, 1+s)
		if !okD || !okU {
			continue
		}
		ed, errD := Model(down, kernelID, p)
		eu, errU := Model(up, kernelID, p)
		if errD != nil || errU != nil || !(ed.Seconds > 0) || !(eu.Seconds > 0) {
			continue
		}
		out = append(out, Shift{Param: k, Spread: s, Down: ed.Seconds, Up: eu.Seconds})
	}
	return e, out, nil
}

// Uncertainty is the share of base that the shifts move a prediction of
// base seconds: the root of the sum of each parameter's larger move
// squared, over base (0 for base ≤ 0 or no shifts). Parameters measured
// in separate loops of a calibration vary apart, so their moves add as
// independent errors do.
func Uncertainty(base float64, shifts []Shift) float64 {
	if !(base > 0) {
		return 0
	}
	var sum float64
	for _, s := range shifts {
		d := s.move(base)
		sum += d * d
	}
	return math.Sqrt(sum) / base
}

// GapUncertainty is how far the shifts move the gap a − b between two
// predictions on one machine (a and b seconds, with their shifts), in
// seconds. One parameter moves both at once: a distribution sort and
// another that both scatter beyond the caches slow down together when
// the scatter does, and their gap moves only by the difference. So each
// parameter's move is that of the gap, and the moves add as in
// Uncertainty. A parameter only one of them has moves only that one.
func GapUncertainty(a float64, as []Shift, b float64, bs []Shift) float64 {
	type pair struct{ down, up float64 }
	moved := map[string]pair{}
	for _, s := range as {
		moved[s.Param] = pair{s.Down - a, s.Up - a}
	}
	for _, s := range bs {
		d := moved[s.Param]
		moved[s.Param] = pair{d.down - (s.Down - b), d.up - (s.Up - b)}
	}
	// Summed in the parameters' order, so that the result does not
	// depend on the map's.
	var sum float64
	for _, k := range slices.Sorted(maps.Keys(moved)) {
		d := moved[k]
		m := math.Max(math.Abs(d.down), math.Abs(d.up))
		sum += m * m
	}
	return math.Sqrt(sum)
}
