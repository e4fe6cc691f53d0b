package main

import (
	"fmt"
	"io"
	"math"
	"runtime/debug"
	"slices"
	"sort"
	"time"

	"memwall/engine/estimate"
	"memwall/engine/hier"
	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/ranking"
	"memwall/engine/units"
	"memwall/measure"
)

func init() {
	register(command{name: "validate", summary: "run the real kernels and compare measured with predicted times", run: runValidate})
}

// validateRow is one kernel run: its workload, the fastest of the measured
// repetitions (another program can only slow a run, and calibrate reads
// the machine's parameters from its fastest samples the same way) with
// their spread, and the predictions for the same workload.
type validateRow struct {
	Kernel   string  `json:"kernel"`
	Params   string  `json:"params"`
	N        int64   `json:"n"`
	Measured float64 `json:"measured_seconds"`
	Spread   float64 `json:"measured_spread"`
	// Range is how much slower the slowest round's fastest run was than
	// the fastest round's, as a share of the fastest (timeSortRounds; 0
	// for a kernel timed in one round). The fastest of each round, not
	// every run: a sort in L2 repeats some hundreds of times a round, and
	// its slowest run is an interrupt's, not the machine's load.
	Range     float64 `json:"measured_range"`
	Reps      int     `json:"repetitions"`
	Predicted float64 `json:"predicted_seconds"`
	Ratio     float64 `json:"ratio"`
	Regime    string  `json:"regime,omitempty"`
	// Class is the size class of the run (--sizes levels: l2, llc,
	// beyond); Hier is the hierarchy model's prediction, when the
	// machine has what it needs.
	Class     string  `json:"class,omitempty"`
	Hier      float64 `json:"hier_predicted_seconds,omitempty"`
	HierRatio float64 `json:"hier_ratio,omitempty"`
	// HierUncertainty is the share of Hier that the calibration's
	// spreads move it (hier.Uncertainty; 0 for a machine without
	// spreads), and hierShifts the moves themselves, which the ranking
	// compares pair by pair (hier.GapUncertainty).
	HierUncertainty float64      `json:"hier_uncertainty,omitempty"`
	hierShifts      []hier.Shift `json:"-"`
	// HierNearFit is set where the data are a little larger than a level
	// (hier.Estimate.NearFit): the model's LRU levels keep none of them
	// between runs, a real cache part, and the row may run down to the
	// floor it gives.
	HierNearFit *hier.NearFit `json:"hier_near_fit,omitempty"`
}

// classSummary is the ranking of the sorts and the permutation winner
// of one size class (ranking.Summarize).
type classSummary = ranking.Summary

type validateReport struct {
	Machine        string         `json:"machine"`
	Sizes          string         `json:"sizes"`
	Rows           []validateRow  `json:"rows"`
	SpearmanSorts  float64        `json:"spearman_sorts"`
	PermWinner     string         `json:"perm_winner_measured"`
	PermPredicted  string         `json:"perm_winner_predicted"`
	PermWinnerOK   bool           `json:"perm_winner_predicted_ok"`
	MatrixRegime2N int64          `json:"matrix_regime2_n"`
	Classes        []classSummary `json:"classes,omitempty"`
	// HostSpeed is, per size class of a levels run, how fast the core
	// ran against its calibration at the start of every round and at
	// the class's end (measure.HostSpeed); empty where the machine has
	// no rate to check.
	HostSpeed []classSpeed `json:"host_speed,omitempty"`
	// MemorySpeed is, per size class whose data reaches memory, how
	// fast memory served independent reads against the machine's gather
	// curve, at the same checks (measure.MemorySpeed); empty where the
	// machine has no gather curve to check against.
	MemorySpeed []classSpeed `json:"memory_speed,omitempty"`
	Note        string       `json:"note"`
}

// kernel sizes of the MBRAM paper: permutations of 2^20 points (Fig. 3), sorts of
// 8Mi integers uniform on [0, N) (Fig. 5), matrices of n = 500 (Fig. 4).
type validateSizes struct {
	perm, sort, mat1 int64
	reps             int
}

func runValidate(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("validate", "--machine ID|FILE.json [--sizes levels|paper|large|small] [--reps N] [--matrix-n N] [--rows FILE.json] [--json]", stderr)
	machineArg := fs.String("machine", "", "preset id or machine JSON file (e.g. one written by 'memwall calibrate')")
	sizesArg := fs.String("sizes", "auto", "levels (three classes from the machine's cache levels: in L2, in the last cache, 4× beyond it; the default for a machine with levels), paper (the MBRAM paper's sizes, the default otherwise), large (arrays well beyond the cache of a current machine) or small (seconds)")
	reps := fs.Int("reps", 0, "rounds per kernel, one timed run each after a warm-up run (the sorts warm up once when memory holds all their arrays), the fastest kept (default 3 paper, 1 large, 2 small; levels: 5 in L2, 3 in the last cache, 2 beyond it); a short kernel repeats until its timed runs add up to 0.2 s")
	matN := fs.Int64("matrix-n", 0, "dimension of the second matrix product (default: the smallest n with Bn + wn >= C when that runs in about a minute, else 1200)")
	asJSON := fs.Bool("json", false, "print rows and the rank correlation as JSON")
	sweepArg := fs.String("sweep", "", "KERNEL:FROM..TO: time one kernel at sizes from FROM to TO, two to a doubling (e.g. perm:1Mi..32Mi; a matrix dimension for matmul), each beside both models, in --reps rounds (default 3)")
	rowsArg := fs.String("rows", "", "the JSON of an earlier 'validate --json': predict its measured rows again on --machine with the models as they are now, and rank them, running nothing")
	if s := parseFlags(fs, args, stderr); s >= 0 {
		return s
	}
	m, err := loadMachine(*machineArg)
	if err != nil {
		return fail(stderr, "validate", err)
	}
	if isSet(fs, "rows") {
		return runRejudge(m, *rowsArg, *asJSON, stdout, stderr)
	}
	if isSet(fs, "sweep") {
		sp, err := parseSweep(*sweepArg)
		if err != nil {
			return fail(stderr, "validate", err)
		}
		rounds := 3
		if isSet(fs, "reps") {
			if err := checkReps(*reps); err != nil {
				return fail(stderr, "validate", err)
			}
			rounds = *reps
		}
		return runSweep(m, sp, rounds, *asJSON, stdout, stderr)
	}
	if *sizesArg == "auto" {
		*sizesArg = "paper"
		if len(m.Levels) >= 2 {
			*sizesArg = "levels"
		}
	}
	if *sizesArg == "levels" {
		return runValidateLevels(m, fs, *reps, *asJSON, stdout, stderr)
	}
	var sz validateSizes
	switch *sizesArg {
	case "paper":
		sz = validateSizes{perm: 1 << 20, sort: 1 << 23, mat1: 500, reps: 3}
	case "large":
		// Arrays far beyond the last cache of a current machine, where
		// the formulas' "in RAM" terms apply: at the paper's sizes a
		// permutation (4 MiB per array) fits in the ~8 MiB of L3 the
		// development machine's guest gets, and the sorts (32 MiB) only
		// just exceed it. 2^25 points are 128 MiB per array, also beyond
		// the host's 105 MiB L3; one timed run after the warm-up keeps the
		// whole table to a few minutes (heapsort alone takes about a
		// minute there).
		sz = validateSizes{perm: 1 << 25, sort: 1 << 25, mat1: 500, reps: 1}
	case "small":
		sz = validateSizes{perm: 1 << 16, sort: 1 << 16, mat1: 64, reps: 2}
	default:
		return fail(stderr, "validate", fmt.Errorf("--sizes %q: want levels, paper, large or small", *sizesArg))
	}
	if isSet(fs, "reps") {
		if err := checkReps(*reps); err != nil {
			return fail(stderr, "validate", err)
		}
		sz.reps = *reps
	}
	mat2 := regime2N(m, *sizesArg)
	if isSet(fs, "matrix-n") {
		if *matN < 2 || *matN > 5000 {
			return fail(stderr, "validate", fmt.Errorf("--matrix-n %d: want 2 to 5000", *matN))
		}
		mat2 = *matN
	}
	rep := validateReport{Machine: m.ID, Sizes: *sizesArg, MatrixRegime2N: regime2Needed(m),
		Note: "measured: the fastest of the repetitions; predicted: MBRAM closed form (a lower bound); ratio = measured/predicted"}
	progress := func(s string) { fmt.Fprintf(stderr, "validate: %s\n", s) }
	host := hostChecks{m: m, memory: readsMemory(m, 4*sz.sort)}
	rows, err := runValidateKernels(m, sz, mat2, func(s string) { progress(s); host.check() })
	host.check()
	if err != nil {
		return fail(stderr, "validate", err)
	}
	rep.Rows = rows
	host.report(*sizesArg, &rep)
	var meas, pred []float64
	for _, r := range rows {
		if k, _ := mbram.Lookup(r.Kernel); k.Family == mbram.Sort {
			meas = append(meas, r.Measured)
			pred = append(pred, r.Predicted)
		}
	}
	rep.SpearmanSorts = round4(ranking.Spearman(meas, pred))
	rep.PermWinner, rep.PermPredicted, _ = ranking.PermWinners(runsOf(rows))
	rep.PermWinnerOK = rep.PermWinner == rep.PermPredicted
	if *asJSON {
		if err := writeJSON(stdout, rep); err != nil {
			return fail(stderr, "validate", err)
		}
		return 0
	}
	printValidate(stdout, m, rep)
	return 0
}

// regime2Needed is the smallest n with Bn + wn >= C (w = 4), the matrix
// product's regime (2) (docs/readings.md).
func regime2Needed(m machine.Machine) int64 {
	return (m.C + m.B + 4 - 1) / (m.B + 4)
}

// regime2N picks the second matrix size: regime (2) when its n is small
// enough to finish in about a minute (n <= 1200 here), else n = 1200, the
// largest that does, which the model then puts in regime (1).
func regime2N(m machine.Machine, sizes string) int64 {
	limit := int64(1200)
	if sizes == "small" {
		limit = 160
	}
	if n := regime2Needed(m); n <= limit {
		return max(n, 2)
	}
	return limit
}

// A kernel's timed runs go on past the repetitions asked for until they
// add up to minTimedRuns, at most maxTimedRuns of them: a permutation
// product that fits in L2 takes some 25 µs, and its fastest of three runs
// moved by a third from one validate to the next (a scheduler tick, a
// neighbour's burst), where the fastest of a few thousand does not.
// Long runs are unaffected.
const (
	minTimedRuns = 200 * time.Millisecond
	maxTimedRuns = 2000
)

// timeRuns times fn after an untimed warm-up run (when warm), setup
// before each run outside the timing: reps runs, then more while they add
// up to less than minTimedRuns (at most maxTimedRuns in all).
func timeRuns(fn, setup func(), reps int, warm bool) []float64 {
	var secs []float64
	var total time.Duration
	first := 0
	if warm {
		first = 1 // run 0 warms up
	}
	for r := 0; r < reps+first || (total < minTimedRuns && len(secs) < maxTimedRuns); r++ {
		setup()
		t0 := time.Now()
		fn()
		d := time.Since(t0)
		if r >= first {
			secs = append(secs, d.Seconds())
			total += d
		}
	}
	return secs
}

// validateEstimate is a model's time for one run of kernel at n and the
// median ratio of measured to that model's prediction over rows (1 when
// there are none): the hierarchy model's when it can predict, else the
// paper's, whose ratios count as at least 1 since it is a lower bound.
func validateEstimate(m machine.Machine, kernel string, n int64, rows []validateRow) (secs, ratio float64) {
	p := mbram.DefaultParams(n)
	var ratios []float64
	if e, err := hier.Model(m, kernel, p); err == nil && e.Seconds > 0 && !e.NoCompute {
		secs = e.Seconds
		for _, r := range rows {
			if r.HierRatio > 0 {
				ratios = append(ratios, r.HierRatio)
			}
		}
	} else if b, err := mbram.Predict(m, kernel, p); err == nil && b.Seconds > 0 {
		secs = b.Seconds
		for _, r := range rows {
			if r.Ratio > 0 {
				ratios = append(ratios, max(r.Ratio, 1))
			}
		}
	}
	if len(ratios) == 0 {
		return secs, 1
	}
	sort.Float64s(ratios)
	k := len(ratios)
	return secs, (ratios[(k-1)/2] + ratios[k/2]) / 2
}

func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }

// kernelJob is one kernel of validate's table at its size: elements, or
// the matrix dimension.
type kernelJob struct {
	kernel string
	n      int64
}

// productJobs are the kernels validate times before the sorts, in its
// table's order: the two permutation products of perm elements and the
// matrix product of dimension mat.
func productJobs(perm, mat int64) []kernelJob {
	return []kernelJob{{"perm", perm}, {"perm-twopass", perm}, {"matmul", mat}}
}

// validateSorts are the sorts validate times, in its table's order.
var validateSorts = []string{"quicksort", "mergesort", "heapsort", "bucket", "bucket-count", "radix", "radix-count"}

func runValidateKernels(m machine.Machine, sz validateSizes, mat2 int64, progress func(string)) ([]validateRow, error) {
	var rows []validateRow
	began := time.Now()
	// announce says what runs next and, from the hierarchy model's time
	// for each run when the machine carries a compute rate, else the
	// paper's closed form (a lower bound), about how long it takes,
	// scaled by the median of how far the kernels so far took longer
	// than their predictions: the median, because one kernel the paper's
	// model misses by a thousand times (a matrix product in cache) must
	// not make every later estimate absurd.
	announce := func(kernel, params string, n int64, runs int, what string) {
		est := ""
		if secs, ratio := validateEstimate(m, kernel, n, rows); secs > 0 {
			est = fmt.Sprintf(" (%d runs, about %s; %s elapsed)", runs, units.FormatSeconds(ratio*secs*float64(runs)), units.FormatSeconds(time.Since(began).Seconds()))
		}
		progress(kernel + " " + params + what + est)
	}
	add := func(kernel, params string, n int64, rounds [][]float64) error {
		row, err := validateRowOf(m, kernel, params, n, rounds)
		if err != nil {
			return err
		}
		rows = append(rows, row)
		return nil
	}

	jobs := productJobs(sz.perm, sz.mat1)
	if mat2 != 0 { // the paper's sizes: two matrix sizes
		jobs = append(jobs, kernelJob{"matmul", mat2})
	}
	// The permutation products and the matrix product are timed in
	// rounds too (timeSortRounds says why), and each round builds its
	// runner afresh: their time depends on which physical pages their
	// arrays land in. On the development guest the permutation product
	// at 2^24 points ran at 8.5, 9.8 and 13.7 ns a point in three
	// allocations of one process, each within a few percent run after
	// run, so the runs of one allocation sample the placement once. The
	// fastest round is the machine's own cost, as in calibration, and the
	// range of the rounds shows the placement's spread.
	rounds := max(1, sz.reps)
	timed := make([][][]float64, len(jobs))
	params := make([]string, len(jobs))
	for round := 0; round < rounds; round++ {
		for i, j := range jobs {
			p, runs, err := timeRound(j.kernel, j.n, m.C, func(p string) { announce(j.kernel, p, j.n, 2, roundNote(round, rounds)) })
			if err != nil {
				return nil, err
			}
			timed[i] = append(timed[i], runs)
			params[i] = p
		}
	}
	for i, j := range jobs {
		if err := add(j.kernel, params[i], j.n, timed[i]); err != nil {
			return nil, err
		}
	}
	secs, sortParams, err := timeSortRounds(sz, measure.ReadOSInfo().Memory, announce)
	if err != nil {
		return nil, err
	}
	for _, k := range validateSorts {
		if err := add(k, sortParams[k], sz.sort, secs[k]); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// checkReps refuses a --reps outside 1 to 100.
func checkReps(n int) error {
	if n < 1 || n > 100 {
		return fmt.Errorf("--reps %d: want 1 to 100", n)
	}
	return nil
}

// timeRound is one round of kernel at n: a fresh runner (its arrays land
// on new pages), announced by its parameters, a warm-up run and one timed
// run (timeRuns), and its arrays given back before the next allocation:
// at 2^29 keys the simple sorts hold 9.7 GB, and the collector would
// otherwise let the heap grow to twice that first (validate ran out of
// 24 GB of memory at the beyond class's counting bucket sort).
func timeRound(kernel string, n, c int64, announce func(params string)) (params string, runs []float64, err error) {
	r, err := measure.NewRunner(kernel, measure.RunOptions{N: int(n), C: c, Seed: 2004, FreshKeys: true})
	if err != nil {
		return "", nil, err
	}
	params = r.Params
	announce(params)
	runs = timeRuns(r.Call, r.Setup, 1, true)
	debug.FreeOSMemory()
	return params, runs, nil
}

// validateRowOf is one kernel's row: the fastest of its runs (rounds[r]
// the runs of round r) beside both models' predictions.
func validateRowOf(m machine.Machine, kernel, params string, n int64, rounds [][]float64) (validateRow, error) {
	var secs []float64
	for _, r := range rounds {
		secs = append(secs, r...)
	}
	st := measure.Summarize(secs)
	row := validateRow{Kernel: kernel, Params: params, N: n, Measured: st.Min, Spread: round4(st.Spread), Range: round4(roundsRange(rounds)), Reps: len(secs)}
	return row, predictRow(m, &row)
}

// predictRow fills in both models' predictions for the row's kernel and
// size on m, beside its measured time.
func predictRow(m machine.Machine, row *validateRow) error {
	p := mbram.DefaultParams(row.N)
	b, err := mbram.Predict(m, row.Kernel, p)
	if err != nil {
		return fmt.Errorf("%s: %v", row.Kernel, err)
	}
	row.Predicted, row.Regime, row.Ratio = b.Seconds, b.Regime, 0
	if b.Seconds > 0 {
		row.Ratio = round4(row.Measured / b.Seconds)
	}
	row.Hier, row.HierRatio, row.HierUncertainty, row.hierShifts, row.HierNearFit = 0, 0, 0, nil, nil
	if e, sh, err := hier.Sensitivity(m, row.Kernel, p); err == nil && e.Seconds > 0 && !e.NoCompute {
		row.Hier, row.HierRatio = e.Seconds, round4(row.Measured/e.Seconds)
		row.HierUncertainty, row.hierShifts = round4(hier.Uncertainty(e.Seconds, sh)), sh
		if nf, ok := e.NearFit(); ok {
			row.HierNearFit = &nf
		}
	}
	return nil
}

// roundsRange is how much slower the slowest round's fastest run was
// than the fastest round's, as a share of the latter (validateRow.Range).
func roundsRange(rounds [][]float64) float64 {
	lo, hi := math.Inf(1), 0.0
	for _, r := range rounds {
		if len(r) == 0 {
			continue
		}
		b := slices.Min(r)
		lo, hi = math.Min(lo, b), math.Max(hi, b)
	}
	if !(lo > 0) || math.IsInf(lo, 1) {
		return 0
	}
	return (hi - lo) / lo
}

// roundNote is what an announcement adds for round (0-based) of rounds:
// nothing when there is only one.
func roundNote(round, rounds int) string {
	if rounds <= 1 {
		return ""
	}
	return fmt.Sprintf(", round %d of %d", round+1, rounds)
}

// timeSortRounds times the sorts in rounds, every sort once a round
// (sz.reps rounds), and returns each sort's timed runs, round by round,
// and its workload.
// Rounds, not a sort's repetitions back to back, because on a shared
// machine the time of a run moves with the neighbours' load over
// minutes: beyond the last cache the development guest timed one sort at
// 12.5 s in one validate and 14.6 s in another, while three sorts the
// model puts within 1.4 % of each other ran within a few percent. Back
// to back, a busy quarter of an hour slows every run of one sort and
// none of the next; in rounds it slows one run of each, the fastest of a
// sort's runs comes from the quietest round, and the range of its rounds
// (validateRow.Range) measures the noise its place in the ranking has to
// beat
// (misordered).
//
// When every sort's arrays fit in memoryShare of mem at once (mem 0: not
// known, they are not assumed to), the runners are built once and warmed
// up once; otherwise each round builds each sort's runner again, warms it
// up (its first run touches fresh pages) and frees it before the next.
func timeSortRounds(sz validateSizes, mem int64, announce func(kernel, params string, n int64, runs int, what string)) (map[string][][]float64, map[string]string, error) {
	keep := mem > 0 && float64(int64(len(validateSorts))*sortBytesPerKey*sz.sort) <= memoryShare*float64(mem)
	runners := map[string]measure.Runner{}
	secs, params := map[string][][]float64{}, map[string]string{}
	rounds := max(1, sz.reps)
	for round := 0; round < rounds; round++ {
		for _, k := range validateSorts {
			r, ok := runners[k]
			if !ok {
				var err error
				// Sorts get new random keys before every run, outside
				// the timing, as calibration's core rates do
				// (measure.RunOptions.FreshKeys): on the same keys run
				// after run the branch predictor learns a sort of a few
				// thousand, and the simple bucket sort of 1Ki keys ran
				// in 9.3 µs where it takes 16.9 on new ones (Zen 5).
				if r, err = measure.NewRunner(k, measure.RunOptions{N: int(sz.sort), Seed: 2004, FreshKeys: true}); err != nil {
					return nil, nil, err
				}
			}
			warm := !ok
			runs := 1
			if warm {
				runs = 2
			}
			announce(k, r.Params, sz.sort, runs, roundNote(round, rounds))
			secs[k] = append(secs[k], timeRuns(r.Call, r.Setup, 1, warm))
			params[k] = r.Params
			if err := r.Check(); err != nil {
				return nil, nil, err
			}
			if keep {
				runners[k] = r
			} else {
				debug.FreeOSMemory()
			}
		}
	}
	return secs, params, nil
}

// hierCells are a row's hierarchy prediction and ratio as the tables
// print them: dashes where the model gave none, a star on a ratio outside
// the band.
func hierCells(r validateRow) (secs, ratio string) {
	if r.Hier <= 0 {
		return "-", "-"
	}
	secs, ratio = units.FormatSeconds(r.Hier), fmt.Sprintf("%.2f", r.HierRatio)
	if !hier.InBand(r.HierRatio) {
		ratio += "*"
	}
	if r.HierNearFit != nil {
		ratio += "~"
	}
	return secs, ratio
}

// nearFitNotes says, for each row marked ~ (validateRow.HierNearFit),
// which level its data are a little larger than and how the measured
// time stands against the estimate's floor there: a row out of the band
// below 0.8 and near its floor is the model's LRU levels, not the
// calibration.
func nearFitNotes(rows []validateRow) []string {
	var out []string
	for _, r := range rows {
		nf := r.HierNearFit
		if nf == nil || !(nf.Floor > 0) {
			continue
		}
		out = append(out, fmt.Sprintf("~ %s %s: the data are %.3g times %s (%s); the model's LRU levels keep none of them between runs, a real cache part: down to %s if %s held them all, measured/that %.2f",
			r.Kernel, r.Params, nf.Times, nf.Level, units.FormatSize(nf.Size), units.FormatSeconds(nf.Floor), nf.Level, r.Measured/nf.Floor))
	}
	return out
}

func printValidate(w io.Writer, m machine.Machine, rep validateReport) {
	fmt.Fprintf(w, "machine %s: beta1 %s, beta2 %s, C %s, B %d B, m %s\n\n", m.ID, units.FormatBandwidth(m.Beta1), units.FormatBandwidth(m.Beta2), units.FormatSize(m.C), m.B, units.FormatSeconds(m.M))
	// A machine with cache levels gets the hierarchy model beside the
	// paper's, as --sizes levels prints it.
	both := len(m.Levels) > 0
	fmt.Fprintf(w, "%-13s %-22s %12s %8s %12s %8s", "kernel", "params", "measured", "spread", "predicted", "ratio")
	if both {
		fmt.Fprintf(w, " %12s %8s", "hierarchy", "ratio")
	}
	fmt.Fprintln(w)
	for _, r := range rep.Rows {
		fmt.Fprintf(w, "%-13s %-22s %12s %7.1f%% %12s %8.2f", r.Kernel, r.Params, units.FormatSeconds(r.Measured), 100*r.Spread, units.FormatSeconds(r.Predicted), r.Ratio)
		if both {
			hs, hr := hierCells(r)
			fmt.Fprintf(w, " %12s %8s", hs, hr)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nSpearman rank correlation over the sorts (measured vs predicted): %.3f\n", rep.SpearmanSorts)
	ok := "yes"
	if !rep.PermWinnerOK {
		ok = "no"
	}
	fmt.Fprintf(w, "Permutation product: faster measured %s, predicted %s: winner predicted %s\n", rep.PermWinner, rep.PermPredicted, ok)
	if both {
		// The same two questions of the hierarchy model, as a size class
		// answers them.
		c := summarizeClass(rep.Sizes, rep.Rows)
		fmt.Fprintf(w, "Hierarchy model: ratios in [%.2f, %.2f] %d of %d; sort ranking (Spearman) %.3f; faster permutation product predicted %s%s\n",
			hier.BandLo, hier.BandHi, c.InBand, c.Rows, c.SpearmanSortsHier, c.PermPredictedHier, permTieNote(c))
	}
	fmt.Fprintf(w, "Matrix regime (2) (Bn + wn >= C) needs n >= %d on this machine\n", rep.MatrixRegime2N)
	if !both {
		fmt.Fprintf(w, "ratio = measured/predicted; the prediction is %s\n", lowerBoundNote)
		return
	}
	fmt.Fprintf(w, "ratio = measured/predicted; predicted is %s; hierarchy is the hierarchy model's estimate (* outside [%.2f, %.2f])\n",
		estimate.SeveralLevelsNote, hier.BandLo, hier.BandHi)
	printHostSpeeds(w, rep)
	for _, n := range nearFitNotes(rep.Rows) {
		fmt.Fprintln(w, n)
	}
}
