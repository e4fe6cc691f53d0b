package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"memwall/engine/hier"
	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/measure"
)

// TestRoundsRange: the range of the rounds' fastest runs, by hand. Rounds
// fastest at 1.0 and 1.1 s range 10 %, whatever their slowest runs (an
// interrupt's 5 s); one round ranges 0; empty rounds are skipped.
func TestRoundsRange(t *testing.T) {
	for _, tc := range []struct {
		rounds [][]float64
		want   float64
	}{
		{[][]float64{{1.0, 5.0}, {1.1, 1.3}}, 0.1},
		{[][]float64{{2.0, 3.0, 9.0}}, 0},
		{[][]float64{{}, {4.0}, {5.0}}, 0.25},
		{nil, 0},
	} {
		if got := roundsRange(tc.rounds); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("rounds %v: %g, want %g", tc.rounds, got, tc.want)
		}
	}
}

// TestTimeSortRounds: the sorts run in rounds, each sort once a round in
// the table's order, so that the k-th announcement of a round names the
// k-th sort; with their arrays kept (memory known and ample) only the
// first round warms up, without (memory unknown) every round rebuilds and
// warms up. Every sort has at least one timed run a round.
func TestTimeSortRounds(t *testing.T) {
	for _, tc := range []struct {
		mem       int64
		warmAfter bool
	}{{1 << 40, false}, {0, true}} {
		var seen []string
		var runs []int
		announce := func(kernel, _ string, _ int64, n int, _ string) {
			seen = append(seen, kernel)
			runs = append(runs, n)
		}
		secs, params, err := timeSortRounds(validateSizes{sort: 256, reps: 2}, tc.mem, announce)
		if err != nil {
			t.Fatal(err)
		}
		k := len(validateSorts)
		if len(seen) != 2*k {
			t.Fatalf("mem %d: %d turns, want %d", tc.mem, len(seen), 2*k)
		}
		for i, name := range seen {
			if name != validateSorts[i%k] {
				t.Errorf("mem %d: turn %d is %s, want %s", tc.mem, i, name, validateSorts[i%k])
			}
			want := 2 // a warm-up and a timed run
			if i >= k && !tc.warmAfter {
				want = 1
			}
			if runs[i] != want {
				t.Errorf("mem %d: turn %d announced %d runs, want %d", tc.mem, i, runs[i], want)
			}
		}
		for _, name := range validateSorts {
			if len(secs[name]) != 2 || len(secs[name][0]) == 0 || len(secs[name][1]) == 0 || params[name] == "" {
				t.Errorf("mem %d: %s has runs %v and params %q; want two rounds of at least one run and a workload", tc.mem, name, secs[name], params[name])
			}
		}
	}
}

func TestRegime2Needed(t *testing.T) {
	// The 2.66 GHz Pentium 4: C = 512 KiB, B = 128: n >= 524288/132 = 3971.9, so 3972.
	m, _ := loadMachine("p4-2.66-ddr266")
	if got := regime2Needed(m); got != 3972 {
		t.Errorf("regime2Needed = %d, want 3972", got)
	}
}

// validate --sizes small runs every kernel and reports in both forms.
func TestValidateSmall(t *testing.T) {
	var out, errb bytes.Buffer
	if s := run([]string{"validate", "--machine", "p4-2.66-ddr266", "--sizes", "small", "--json", "--reps", "1"}, &out, &errb); s != 0 {
		t.Fatalf("status %d: %s", s, errb.String())
	}
	var rep struct {
		Rows []struct {
			Kernel    string  `json:"kernel"`
			Params    string  `json:"params"`
			Measured  float64 `json:"measured_seconds"`
			Predicted float64 `json:"predicted_seconds"`
		} `json:"rows"`
		Spearman *float64 `json:"spearman_sorts"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("JSON: %v\n%s", err, out.String())
	}
	if len(rep.Rows) != 11 || rep.Spearman == nil {
		t.Fatalf("want 11 rows and spearman_sorts; got %d rows", len(rep.Rows))
	}
	seen := map[string]bool{}
	for _, r := range rep.Rows {
		seen[r.Kernel] = true
		if !(r.Measured > 0) || !(r.Predicted > 0) || r.Params == "" {
			t.Errorf("row %+v: want positive times and params", r)
		}
	}
	for _, k := range []string{"perm", "perm-twopass", "matmul", "quicksort", "mergesort", "heapsort", "bucket", "bucket-count", "radix", "radix-count"} {
		if !seen[k] {
			t.Errorf("kernel %s missing", k)
		}
	}
	out.Reset()
	if s := run([]string{"validate", "--machine", "p4-2.66-ddr266", "--sizes", "small", "--reps", "1"}, &out, &errb); s != 0 {
		t.Fatalf("text: status %d", s)
	}
	for _, want := range []string{"Spearman", "winner predicted", "ratio"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text output lacks %q", want)
		}
	}
	// The paper's machine has no core rates to check the core against.
	if strings.Contains(out.String(), "host:") {
		t.Errorf("a host check on a machine without core rates:\n%s", out.String())
	}
}

func TestValidateBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"validate"}, "--machine"},
		{[]string{"validate", "--machine", "p4-2.66-ddr266", "--sizes", "huge"}, "--sizes"},
		{[]string{"validate", "--machine", "p4-2.66-ddr266", "--reps", "0"}, ""},
		{[]string{"validate", "--machine", "p4-2.66-ddr266", "--reps", "-3"}, "--reps"},
		{[]string{"validate", "--machine", "p4-2.66-ddr266", "--matrix-n", "99999"}, "--matrix-n"},
	} {
		if tc.want == "" {
			continue // --reps 0 means the default; covered by the other tests
		}
		var out, errb bytes.Buffer
		if s := run(tc.args, &out, &errb); s != 2 || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: status %d, stderr %q; want 2 and a message naming %s", tc.args, s, errb.String(), tc.want)
		}
	}
}

// The progress estimate of a validate run: the model's time for one run
// and the median ratio of the rows so far. A machine without levels or a
// compute rate (the 2.66 GHz Pentium 4) gets the paper's closed form and
// its ratios floored at 1 (it is a lower bound): ratios 0.5, 3 and 1000
// count as 1, 3 and 1000, whose median is 3, not the mean 334.7 that one
// CPU-bound matrix product made of it. A machine with a hierarchy
// (epyc-kvm-2vcpu) gets the hierarchy model's time and the median of the
// hierarchy ratios, (0.9 + 1.1)/2 for four rows.
func TestValidateEstimate(t *testing.T) {
	p4, _ := loadMachine("p4-2.66-ddr266")
	rows := []validateRow{{Ratio: 0.5}, {Ratio: 3}, {Ratio: 1000}}
	secs, ratio := validateEstimate(p4, "quicksort", 1<<20, rows)
	want, _ := mbram.Predict(p4, "quicksort", mbram.DefaultParams(1<<20))
	if secs != want.Seconds || ratio != 3 {
		t.Errorf("paper machine: %g s × %g, want %g s × 3", secs, ratio, want.Seconds)
	}
	epyc, _ := loadMachine("epyc-kvm-2vcpu")
	rows = []validateRow{{Ratio: 900, HierRatio: 0.8}, {HierRatio: 0.9}, {HierRatio: 1.1}, {HierRatio: 1.4}}
	secs, ratio = validateEstimate(epyc, "quicksort", 1<<20, rows)
	e, _ := hier.Model(epyc, "quicksort", mbram.DefaultParams(1<<20))
	if secs != e.Seconds || math.Abs(ratio-1.0) > 1e-12 {
		t.Errorf("hierarchy machine: %g s × %g, want %g s × 1", secs, ratio, e.Seconds)
	}
	if _, ratio = validateEstimate(epyc, "quicksort", 1<<20, nil); ratio != 1 {
		t.Errorf("no rows yet: ratio %g, want 1", ratio)
	}
}

// timeRuns: a run longer than minTimedRuns is timed the repetitions asked
// for and no more (the warm-up untimed); instant runs go on to
// maxTimedRuns; runs of a tenth of minTimedRuns stop once they add up to
// it. setup runs before every run, the warm-up included.
func TestTimeRuns(t *testing.T) {
	setups := 0
	setup := func() { setups++ }
	if got := timeRuns(func() { time.Sleep(minTimedRuns + time.Millisecond) }, setup, 2, true); len(got) != 2 || setups != 3 {
		t.Errorf("long runs: %d timed, %d set-ups; want 2 and 3", len(got), setups)
	}
	setups = 0
	if got := timeRuns(func() { time.Sleep(minTimedRuns + time.Millisecond) }, setup, 2, false); len(got) != 2 || setups != 2 {
		t.Errorf("long runs, no warm-up: %d timed, %d set-ups; want 2 and 2", len(got), setups)
	}
	if got := timeRuns(func() {}, func() {}, 3, true); len(got) != maxTimedRuns {
		t.Errorf("instant runs: %d timed, want %d", len(got), maxTimedRuns)
	}
	// Runs of a tenth of the budget stop at the first that brings the
	// timed total to the budget: the total without the last is short of
	// it, with the last it is not (ten runs at most, fewer when a loaded
	// machine stretches the sleeps).
	got := timeRuns(func() { time.Sleep(minTimedRuns / 10) }, func() {}, 1, true)
	sum := 0.0
	for _, v := range got[:len(got)-1] {
		sum += v
	}
	if budget := minTimedRuns.Seconds(); len(got) > 10 || sum >= budget || sum+got[len(got)-1] < budget {
		t.Errorf("runs of a tenth of the budget: %d timed, %.3f s before the last, %.3f s with it; want the budget crossed by the last", len(got), sum, sum+got[len(got)-1])
	}
}

// On a machine with cache levels, the paper-size table sets the hierarchy
// model beside the paper's and does not call the paper's a bound there.
func TestValidateSmallBothModels(t *testing.T) {
	var out, errb bytes.Buffer
	if s := run([]string{"validate", "--machine", "epyc-kvm-2vcpu", "--sizes", "small", "--reps", "1"}, &out, &errb); s != 0 {
		t.Fatalf("status %d: %s", s, errb.String())
	}
	text := out.String()
	header := strings.SplitN(strings.SplitN(text, "\n\n", 2)[1], "\n", 2)[0]
	if !strings.Contains(header, "hierarchy") {
		t.Errorf("header %q lacks the hierarchy column", header)
	}
	if strings.Contains(text, "the prediction is a lower bound") || !strings.Contains(text, "not on one with several cache levels") {
		t.Errorf("the footer calls the paper's model a bound on a machine with levels:\n%s", text)
	}
	// Its core rates give the table the core's check, as a size class
	// has; its 2^16 keys stay in the caches, so memory is not checked.
	if !strings.Contains(text, "\nsmall   host: the perm loop in L1 ran at ") || strings.Contains(text, "memory: random reads") {
		t.Errorf("want the core's check and not memory's:\n%s", text)
	}
}

// TestPrintValidateLevelsPairs: each class's summary names the sort pairs
// each model orders against the measurement, or says none of how many,
// and on a second line those of them apart by more than their rounds'
// ranges.
func TestPrintValidateLevelsPairs(t *testing.T) {
	m, err := loadMachine("xeon-kvm-2vcpu")
	if err != nil {
		t.Fatal(err)
	}
	rep := validateReport{Classes: []classSummary{{Class: "llc", SortPairs: 21,
		MisorderedHier:            []string{"radix < radix-count", "bucket < bucket-count"},
		MisorderedHierBeyondNoise: []string{"bucket < bucket-count"}}}}
	var out strings.Builder
	printValidateLevels(&out, m, rep)
	want := "sort pairs ordered against the measurement (a < b: a ran faster): MBRAM none of 21; hierarchy 2 of 21 (radix < radix-count, bucket < bucket-count)"
	if !strings.Contains(out.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, out.String())
	}
	want = "of those, apart by more than the range of either's rounds: MBRAM none of 21; hierarchy 1 of 21 (bucket < bucket-count)"
	if !strings.Contains(out.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, out.String())
	}
}

// threeLevels is a machine with a 48 KiB L1, a 2 MiB L2 and a last cache
// of llc bytes.
func threeLevels(llc int64) machine.Machine {
	m := machine.Machine{Name: "t", Beta1: 20e9, Beta2: 2e9, Mu1: 2, M: 5e-9}
	return m.WithLevels([]machine.Level{
		{Name: "L1", Size: 48 << 10, Line: 64, Beta1: 400e9, Beta2: 400e9},
		{Name: "L2", Size: 2 << 20, Line: 64, Beta1: 34e9, Beta2: 34e9},
		{Name: "L3", Size: llc, Line: 64, Beta1: 30e9, Beta2: 2e9},
	})
}

// TestLevelClassesMemory: the beyond class sorts 4-byte keys whose array
// is at least four times the last cache (a 289 MiB cache: 2^29 keys), and
// is halved until its largest sort, 18 bytes a key, fits in 60 % of the
// memory (8 GiB: 2^28 keys, 4.8 GB of 5.2), saying so.
func TestLevelClassesMemory(t *testing.T) {
	m := threeLevels(289 << 20)
	for _, c := range []struct {
		mem    int64
		beyond int64
		warn   string
	}{
		{24 << 30, 1 << 29, ""},
		{0, 1 << 29, ""},
		{8 << 30, 1 << 28, "3.5 times the last cache"},
	} {
		cl, warn := levelClasses(m, c.mem)
		if got := cl[2].sort; got != c.beyond || cl[2].perm != c.beyond || !strings.Contains(warn, c.warn) || (c.warn == "") != (warn == "") {
			t.Errorf("memory %d B: beyond %d keys, warning %q; want %d, %q", c.mem, got, warn, c.beyond, c.warn)
		}
	}
}

// TestLevelClassesL2: the L2 class's data fill at most half of the
// second level. A 2 MiB L2 takes 2^16 keys (16 bytes a key at most: 1 MiB)
// and matrices of n = 280, √(1 MiB/12) = 295.6 taken to an odd multiple
// of 8 (3·280²·4 B = 0.90 MiB); one of 1.38 MiB, as the latency curve read
// that cache, 2^15 keys and n = 232 (√(0.69 MiB/12) = 245.9; 240 is an
// even multiple of 8).
func TestLevelClassesL2(t *testing.T) {
	for _, c := range []struct {
		l2        int64
		keys, mat int64
	}{{2 << 20, 1 << 16, 280}, {1451136, 1 << 15, 232}} {
		m := threeLevels(228 << 20)
		m.Levels[1].Size = c.l2
		cl, _ := levelClasses(m, 0)
		if cl[0].sort != c.keys || cl[0].perm != c.keys || cl[0].mat != c.mat {
			t.Errorf("L2 of %d B: %d keys, %d elements, n = %d; want %d, %d, %d", c.l2, cl[0].sort, cl[0].perm, cl[0].mat, c.keys, c.keys, c.mat)
		}
		if 16*cl[0].sort > c.l2/2 || 12*cl[0].mat*cl[0].mat > c.l2/2 {
			t.Errorf("L2 of %d B: the data exceed half of it", c.l2)
		}
	}
}

// TestLevelClassesKnee: the beyond class's matrices are four times the
// last cache (n = 2600 at most), so that Q is 1.33 times it; a matrix
// column whose pages would come past 0.6 of the translation reach moves
// below it, but not so far that Q comes within 1.25 times the cache;
// where Q cannot get past the cache it is kept to half of it.
//
// The walks of 0.1 ns at 4 MiB and 2.1 ns at 16 MiB reach 1 ns 0.9/2 of
// the way, 4 MiB·4^0.45 = 7.464 MiB, 1910.6 pages: the margin is
// ⌊0.6·1910.6⌋ = 1146, 1144 as an odd multiple of 8, and 0.69 of the
// reach 1318. By hand, with n the least odd multiple of 8 with
// 4n² ≥ 1.25·C for the edge:
//   - 8 MiB: √(32 MiB/12) = 1672.0, 1672; the edge √(2621440) = 1619.1, 1624.
//     The knee's 1144 would put Q at 0.62 of the cache, and the edge
//     lies past 0.69 of the reach: 1672 stays, with walks or without.
//   - 4 MiB: √(16 MiB/12) = 1182.4, 1176; the edge √(1310720) = 1144.9,
//     1160, under 0.69 of the reach: the knee lowers 1176 to 1160.
//   - 64 MiB: capped at 2600, the edge (4580) past it; the last-cache
//     class's √(12·1200²/12) = 1200, 1192. Without walks 2600 (Q 0.40 of
//     the cache); with them the margin, 1144, is below 1192, which is
//     under 0.69 of the reach: 1192.
//   - 32 MiB: capped at 2600, the edge 3238; half the cache is
//     √(4 Mi) = 2048, 2040: 2040.
func TestLevelClassesKnee(t *testing.T) {
	for n, want := range map[int64]int64{1291: 1288, 1288: 1288, 1280: 1272, 1024: 1016, 375: 360, 9: 8, 3: 8} {
		if got := measure.OddEight(n); got != want {
			t.Errorf("OddEight(%d) = %d, want %d", n, got, want)
		}
	}
	walks := []machine.DistPoint{{Size: 4 << 20, Count: 1e-8, Scatter: 1e-8, Walk: 0.1e-9}, {Size: 16 << 20, Count: 2e-8, Scatter: 4e-8, Walk: 2.1e-9}}
	for _, c := range []struct {
		llc   int64
		walks bool
		want  int64
	}{
		{8 << 20, false, 1672},
		{8 << 20, true, 1672},
		{4 << 20, false, 1176},
		{4 << 20, true, 1160},
		{64 << 20, false, 2600},
		{64 << 20, true, 1192},
		{32 << 20, false, 2040},
	} {
		m := threeLevels(c.llc)
		if c.walks {
			m.Distribution = walks
		}
		if cl, _ := levelClasses(m, 0); cl[2].mat != c.want {
			t.Errorf("last cache %d MiB, walks %v: beyond n = %d; want %d", c.llc>>20, c.walks, cl[2].mat, c.want)
		}
	}
}

// TestValidateKernelsRebuildEachRound: the permutation products and the
// matrix product run in rounds like the sorts, every round building their
// arrays afresh (a warm-up and a timed run announced each round), so a
// row holds one fastest run per round and the range between them.
func TestValidateKernelsRebuildEachRound(t *testing.T) {
	m := machine.Machine{Name: "t", Beta1: 20e9, Beta2: 2e9, Mu1: 2, M: 5e-9, C: 1 << 20, B: 64}
	var said []string
	rows, err := runValidateKernels(m, validateSizes{perm: 256, sort: 64, mat1: 8, reps: 3}, 0, func(s string) { said = append(said, s) })
	if err != nil {
		t.Fatal(err)
	}
	jobs := []string{"perm", "perm-twopass", "matmul"}
	if len(said) < 3*len(jobs) {
		t.Fatalf("%d announcements, want at least %d: %q", len(said), 3*len(jobs), said)
	}
	for i := 0; i < 3*len(jobs); i++ {
		k, round := jobs[i%len(jobs)], i/len(jobs)+1
		if !strings.HasPrefix(said[i], k+" ") || !strings.Contains(said[i], fmt.Sprintf("round %d of 3", round)) {
			t.Errorf("announcement %d is %q, want %s in round %d of 3", i, said[i], k, round)
		}
	}
	for _, r := range rows[:len(jobs)] {
		if r.Reps < 3 || r.Measured <= 0 {
			t.Errorf("%s: %d timed runs, fastest %g s; want at least one per round", r.Kernel, r.Reps, r.Measured)
		}
	}
}
