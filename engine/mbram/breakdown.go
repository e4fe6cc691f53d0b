package mbram

// Term is one named part of a prediction.
type Term struct {
	Name    string  `json:"name"`
	Seconds float64 `json:"seconds"`
	// Formula is the symbolic formula and, after " = ", the same with the
	// machine's and workload's numbers substituted.
	Formula string `json:"formula"`
}

// Breakdown is a prediction: the total, its terms, and the conditions under
// which the formula was applied.
type Breakdown struct {
	Kernel   string   `json:"kernel"`
	Seconds  float64  `json:"seconds"`
	Terms    []Term   `json:"terms"`
	Regime   string   `json:"regime"`
	Warnings []string `json:"warnings"`
	// NotBound, when set, says why this prediction is not a lower bound:
	// the formula's regime does not hold and it may charge more than the
	// program spends (e.g. Y in cache for the permutation product).
	NotBound string `json:"not_bound,omitempty"`
}

// Params is a workload: N elements (or the matrix dimension for matmul), the
// word size W in bytes, and B buckets or radix for the bucket and radix sorts.
type Params struct {
	N       int64 `json:"n"`
	W       int64 `json:"w"`
	Buckets int64 `json:"b"`
}

// DefaultParams are the paper's: 4-byte words and 64 buckets.
func DefaultParams(n int64) Params { return Params{N: n, W: 4, Buckets: 64} }
