package fit

import (
	"math"
	"sort"
)

// Summary is the size, mean, median, least and greatest value of a sample:
// what Stats reports of a fit's relative errors, for any values.
type Summary struct {
	N                      int
	Mean, Median, Min, Max float64
}

// Summarize describes a sample, the zero Summary when it is empty. The
// values are not changed.
func Summarize(v []float64) Summary { return summarizeInPlace(append([]float64(nil), v...)) }

// summarizeInPlace is Summarize on a slice it may reorder.
func summarizeInPlace(s []float64) Summary {
	if len(s) == 0 {
		return Summary{}
	}
	sort.Float64s(s)
	mean := 0.0
	for _, v := range s {
		mean += v
	}
	mean /= float64(len(s))
	median := s[len(s)/2]
	if len(s)%2 == 0 {
		median = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return Summary{N: len(s), Mean: mean, Median: median, Min: s[0], Max: s[len(s)-1]}
}

// RelError is the relative error |predicted − measured|/|measured| of one
// prediction, as Prediction.RelError and Stats count it.
func RelError(measured, predicted float64) float64 {
	return math.Abs((measured - predicted) / measured)
}

// Agreement summarises how predictions made without a fit (a closed form,
// a simulation) meet the measured values of the same rows: their relative
// errors (RelError) and the ratios measured/predicted. measured and
// predicted are paired by index.
func Agreement(measured, predicted []float64) (rel, ratio Summary) {
	n := min(len(measured), len(predicted))
	rs := make([]float64, n)
	qs := make([]float64, n)
	for i := range n {
		rs[i] = RelError(measured[i], predicted[i])
		qs[i] = measured[i] / predicted[i]
	}
	return summarizeInPlace(rs), summarizeInPlace(qs)
}
