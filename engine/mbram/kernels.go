package mbram

import (
	"fmt"
	"math"
	"memwall/engine/field"

	"memwall/engine/machine"
	"memwall/engine/units"
)

// ParamInfo describes one workload parameter of a kernel.
type ParamInfo struct {
	Name    string `json:"name"`
	Default int64  `json:"default"`
	Meaning string `json:"meaning"`
}

// Family is what a kernel computes. It also says what its n means: a
// matrix dimension for a matrix product, a number of elements otherwise.
type Family string

// The MBRAM paper's three families of kernels.
const (
	PermutationProduct Family = "permutation product" // section III
	MatrixProduct      Family = "matrix product"      // section IV
	Sort               Family = "sort"                // section V, Fig. 5
)

// Kernel is one closed form of the MBRAM paper.
type Kernel struct {
	ID      string      `json:"id"`
	Name    string      `json:"name"`
	Family  Family      `json:"family"`
	Summary string      `json:"summary"`
	Formula string      `json:"formula"` // symbolic, as the MBRAM paper prints it
	Source  string      `json:"source"`  // seed section
	Params  []ParamInfo `json:"params"`
}

// NIsDimension reports whether the kernel's n is a matrix dimension (the
// kernel works on n×n matrices) rather than a number of elements.
func (k Kernel) NIsDimension() bool { return k.Family == MatrixProduct }

var (
	paramN = ParamInfo{Name: "n", Default: 1 << 20, Meaning: "number of elements"}
	paramW = ParamInfo{Name: "w", Default: 4, Meaning: "word size in bytes"}
	paramB = ParamInfo{Name: "b", Default: 64, Meaning: "buckets per pass (the radix)"}
)

var kernels = []Kernel{
	{ID: "perm", Name: "Permutation product (traditional)", Source: "the MBRAM paper, §III.C",
		Summary: "Z[i] = Y[X[i]] for a random permutation X",
		Formula: "(3w/β1 + B/β2)·N", Params: []ParamInfo{paramN, paramW}, Family: PermutationProduct},
	{ID: "perm-twopass", Name: "Permutation product (two-pass)", Source: "the MBRAM paper, §III.B–C",
		Summary: "distribute X into cache-sized blocks of D, permute each block in cache, merge into Z",
		Formula: "10w·N/β2", Params: []ParamInfo{paramN, paramW}, Family: PermutationProduct},
	{ID: "matmul", Name: "Matrix product (row-major)", Source: "the MBRAM paper, §IV",
		Summary: "C = P·Q for n×n matrices stored by rows, the straightforward triple loop",
		Formula: "(1) w·n³/β2 or (2) w·n³/β1 + B·n³/β2",
		Params:  []ParamInfo{{Name: "n", Default: 500, Meaning: "matrix dimension"}, paramW}, Family: MatrixProduct},
	{ID: "quicksort", Name: "Quicksort", Source: "the MBRAM paper, Fig. 5, App. a",
		Summary: "in-place partitioning around a pivot",
		Formula: "2wN/β1·(log2 N − log2 C + 1) + (N/2)·m·log2 N", Params: []ParamInfo{paramN, paramW}, Family: Sort},
	{ID: "mergesort", Name: "Mergesort", Source: "the MBRAM paper, Fig. 5, App. b",
		Summary: "top-down two-way merging",
		Formula: "(wN/β2 + 2wN/β1)·(log2 N − log2 C + 1) + (N/2)·m·log2 N", Params: []ParamInfo{paramN, paramW}, Family: Sort},
	{ID: "heapsort", Name: "Heapsort", Source: "the MBRAM paper, Fig. 5, App. c",
		Summary: "binary heap, downheap from the root",
		Formula: "(B/β2)·N·(log2 N − log2(C/w) + log2 log2 N) + m·N·log2 N", Params: []ParamInfo{paramN, paramW}, Family: Sort},
	{ID: "bucket", Name: "Bucket sort (simple)", Source: "the MBRAM paper, Fig. 5, App. d",
		Summary: "distribute by high digits into b buckets, recurse",
		Formula: "3wN/β2·(⌈log_b N⌉ − ⌊log_b(C/2)⌋ + 1)", Params: []ParamInfo{paramN, paramW, paramB}, Family: Sort},
	{ID: "bucket-count", Name: "Bucket sort (distribution count)", Source: "the MBRAM paper, Fig. 5, App. d",
		Summary: "bucket sort with a counting pass that sizes the buckets",
		Formula: "3wN/β2·(⌈log_b N⌉ − ⌊log_b(C/2)⌋ + 1) + wN/β1·(⌈log_b N⌉ − ⌊log_b C⌋ + 1)", Params: []ParamInfo{paramN, paramW, paramB}, Family: Sort},
	{ID: "radix", Name: "Radix sort (simple)", Source: "the MBRAM paper, Fig. 5, App. e",
		Summary: "least-significant digit first, b buckets per pass",
		Formula: "3wN/β2·⌈log_b N⌉", Params: []ParamInfo{paramN, paramW, paramB}, Family: Sort},
	{ID: "radix-count", Name: "Radix sort (distribution count)", Source: "the MBRAM paper, Fig. 5, App. e",
		Summary: "radix sort with a counting pass per digit",
		Formula: "(wN/β1 + 3wN/β2)·⌈log_b N⌉", Params: []ParamInfo{paramN, paramW, paramB}, Family: Sort},
}

// Kernels lists every closed form in a stable order.
func Kernels() []Kernel { return append([]Kernel(nil), kernels...) }

// IDs lists every kernel's id, in the order of Kernels, for messages
// that say what is accepted.
func IDs() []string {
	ids := make([]string, len(kernels))
	for i, k := range kernels {
		ids[i] = k.ID
	}
	return ids
}

// Lookup finds a kernel by id.
func Lookup(id string) (Kernel, bool) {
	for _, k := range kernels {
		if k.ID == id {
			return k, true
		}
	}
	return Kernel{}, false
}

// Limits on workloads: large enough for any machine's memory, small enough
// that n³ and N·log N stay exact in float64 and finite.
const (
	MaxN      = 1 << 50
	MaxMatrix = 1 << 24
	MaxWord   = 1 << 12
	MaxRadix  = 1 << 24
)

// ParamError names a bad workload parameter (n, w or b).
type ParamError = field.Error

// LimitN is the largest n the kernel takes: an element count, or for
// matmul a matrix dimension.
func (k Kernel) LimitN() int64 {
	if k.NIsDimension() {
		return MaxMatrix
	}
	return MaxN
}

// RangeN states n's range as the fields take it: "from 1 to 2^50".
func (k Kernel) RangeN() string { return "from 1 to " + units.FormatLimit(k.LimitN()) }

// Check validates a workload for a kernel.
func (k Kernel) Check(p Params) error {
	what := "elements"
	if k.NIsDimension() {
		what = "matrix dimension"
	}
	if p.N < 1 || p.N > k.LimitN() {
		return &ParamError{Field: "n", Msg: fmt.Sprintf("%s must be a whole number %s; got %s", what, k.RangeN(), units.FormatCount(p.N))}
	}
	if p.W < 1 || p.W > MaxWord {
		return &ParamError{Field: "w", Msg: fmt.Sprintf("word size must be from 1 to %d bytes; got %d", MaxWord, p.W)}
	}
	if k.usesRadix() && (p.Buckets < 2 || p.Buckets > MaxRadix) {
		return &ParamError{Field: "b", Msg: fmt.Sprintf("buckets must be a whole number from 2 to %d; got %d", MaxRadix, p.Buckets)}
	}
	return nil
}

// Param returns the kernel's parameter with this name ("n", "w", "b").
func (k Kernel) Param(name string) (ParamInfo, bool) {
	for _, p := range k.Params {
		if p.Name == name {
			return p, true
		}
	}
	return ParamInfo{}, false
}

func (k Kernel) usesRadix() bool {
	for _, p := range k.Params {
		if p.Name == "b" {
			return true
		}
	}
	return false
}

// eval carries one evaluation. With explain false the formula strings are
// not built, which keeps a sweep at a few tens of nanoseconds per point.
type eval struct {
	m        machine.Machine
	p        Params
	explain  bool
	total    float64
	terms    []Term
	regime   string
	warn     []string
	notBound string // why the prediction is not a lower bound, "" when it is
}

// add records a term; sub builds the substituted formula only when asked.
func (e *eval) add(name string, seconds float64, formula string, sub func() string) {
	e.total += seconds
	if !e.explain {
		return
	}
	f := formula
	if sub != nil {
		f += " = " + sub()
	}
	e.terms = append(e.terms, Term{Name: name, Seconds: seconds, Formula: f})
}

func (e *eval) warnf(format string, args ...any) {
	if e.explain {
		e.warn = append(e.warn, fmt.Sprintf(format, args...))
	}
}

// overestimates records a warning that also means the prediction is no
// longer a lower bound.
func (e *eval) overestimates(format string, args ...any) {
	if e.explain {
		msg := fmt.Sprintf(format, args...)
		e.warn = append(e.warn, msg)
		if e.notBound == "" {
			e.notBound = msg
		}
	}
}

func (e *eval) setRegime(r string) {
	if e.explain {
		e.regime = r
	}
}

// Predict evaluates a kernel's closed form on a machine and explains it.
func Predict(m machine.Machine, kernelID string, p Params) (Breakdown, error) {
	e := eval{m: m, p: p, explain: true}
	if err := run(&e, kernelID); err != nil {
		return Breakdown{}, err
	}
	if e.warn == nil {
		e.warn = []string{}
	}
	return Breakdown{Kernel: kernelID, Seconds: e.total, Terms: e.terms, Regime: e.regime, Warnings: e.warn, NotBound: e.notBound}, nil
}

// Seconds evaluates only the total, for sweeps and charts.
func Seconds(m machine.Machine, kernelID string, p Params) (float64, error) {
	e := eval{m: m, p: p}
	if err := run(&e, kernelID); err != nil {
		return 0, err
	}
	return e.total, nil
}

// ErrUnknownKernel is returned for an id that is not in Kernels().
type ErrUnknownKernel string

func (e ErrUnknownKernel) Error() string {
	return fmt.Sprintf("kernel: unknown kernel %q (one of perm, perm-twopass, matmul, quicksort, mergesort, heapsort, bucket, bucket-count, radix, radix-count)", string(e))
}

// run evaluates into e. The kernels are dispatched by a switch rather than
// through function values so that e stays on the caller's stack: a sweep of
// Seconds allocates nothing.
func run(e *eval, kernelID string) error {
	var k *Kernel
	for i := range kernels {
		if kernels[i].ID == kernelID {
			k = &kernels[i]
			break
		}
	}
	if k == nil {
		return ErrUnknownKernel(kernelID)
	}
	if err := e.m.Validate(); err != nil {
		return err
	}
	if err := k.Check(e.p); err != nil {
		return err
	}
	switch kernelID {
	case "perm":
		evalPerm(e)
	case "perm-twopass":
		evalPermTwoPass(e)
	case "matmul":
		evalMatmul(e)
	case "quicksort":
		evalQuicksort(e)
	case "mergesort":
		evalMergesort(e)
	case "heapsort":
		evalHeapsort(e)
	case "bucket":
		evalBucket(e)
	case "bucket-count":
		evalBucketCount(e)
	case "radix":
		evalRadix(e)
	case "radix-count":
		evalRadixCount(e)
	}
	if math.IsNaN(e.total) || math.IsInf(e.total, 0) {
		// Unreachable with validated inputs; kept so no caller ever sees NaN.
		return fmt.Errorf("%s: the formula overflowed for these inputs", kernelID)
	}
	return nil
}
