package kernels

import (
	"context"
	"errors"
	"math"
	"testing"

	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/sim"
)

func testConfig(line, cache int64) sim.Config {
	return sim.Config{Line: line, Lines: cache / line, Mu1: 2, Beta1: 1.06e9, Beta2: 0.85e9, Mispredict: 11.76e-9}
}

func params(n int64) mbram.Params { return mbram.DefaultParams(n) }

// Every kernel really computes: Run checks its output (sorted, equal to the
// product) and fails with ErrWrongResult otherwise.
func TestKernelsCompute(t *testing.T) {
	sizes := map[string][]int64{"matmul": {1, 2, 7, 24}}
	for _, k := range Kernels() {
		ns := sizes[k.ID]
		if ns == nil {
			ns = []int64{1, 2, 3, 100, 1000, 5000}
		}
		for _, n := range ns {
			for _, c := range []sim.Config{testConfig(64, 4<<10), testConfig(32, 1<<10), testConfig(128, 256<<10)} {
				for _, p := range []mbram.Params{params(n), {N: n, W: 8, Buckets: 4}, {N: n, W: 1, Buckets: 3}} {
					s, err := sim.New(c)
					if err != nil {
						t.Fatal(err)
					}
					if err := Run(context.Background(), s, k.ID, p, Options{Seed: uint64(n)}); err != nil {
						t.Fatalf("%s n=%d %+v: %v", k.ID, n, p, err)
					}
					got := s.Counts()
					if got.Accesses == 0 && n > 1 {
						t.Errorf("%s n=%d: no accesses", k.ID, n)
					}
					if got.Misses+got.Writebacks != got.SeqTransfers+got.RandTransfers {
						t.Errorf("%s: transfers do not add up: %+v", k.ID, got)
					}
				}
			}
		}
	}
}

func TestCheckSortedCatchesErrors(t *testing.T) {
	if checkSorted([]uint32{2, 1}, []uint32{1, 2}) == nil || checkSorted([]uint32{1, 1}, []uint32{1, 2}) == nil {
		t.Error("a wrong result passed the check")
	}
	e := newEnv(nil, params(3), 1)
	p := []uint32{1, 2, 3, 4}
	if e.checkProduct(p, p, []uint32{7, 10, 15, 23}, 2) == nil {
		t.Error("a wrong product passed the check")
	}
	if e.checkProduct(p, p, []uint32{7, 10, 15, 22}, 2) != nil {
		t.Error("the right product failed the check")
	}
}

func TestHandCountedKernels(t *testing.T) {
	tests := []struct {
		name string
		id   string
		n    int64
		want sim.Counts
	}{
		// Traditional product, N = 16, w = 4, B = 64, a large cache: X, Y
		// and Z are one line each. 48 accesses (read X[i], read Y[X[i]],
		// write Z[i]); 3 misses (first touch of each line); the dirty Z
		// line is written back at the end. The three lines are far apart,
		// each starts its own stream: 4 random transfers.
		{"perm", "perm", 16, sim.Counts{Accesses: 48, Reads: 32, Writes: 16, Hits: 45, Misses: 3, Writebacks: 1, RandTransfers: 4}},
		// Matrix product n = 2: P, Q, C one line each. 2·n³ = 16 reads and
		// n² = 4 writes; 3 misses; C written back: 4 random transfers.
		{"matmul", "matmul", 2, sim.Counts{Accesses: 20, Reads: 16, Writes: 4, Hits: 17, Misses: 3, Writebacks: 1, RandTransfers: 4}},
	}
	for _, tc := range tests {
		s, _ := sim.New(testConfig(64, 64<<10))
		if err := Run(context.Background(), s, tc.id, params(tc.n), Options{Seed: 7}); err != nil {
			t.Fatal(err)
		}
		if got := s.Counts(); got != tc.want {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.name, got, tc.want)
		}
	}
}

// Radix sort with distribution count on N = 64, b = 4, w = 4, B = 64, a
// large cache: keys below 64 have 3 base-4 digits. Per digit: clear 4
// counts (4 writes), count (64 reads of keys, 64 reads and 64 writes of
// counts: 192), prefix sums (4 reads, 4 writes: 8), place (64 key reads,
// 64 count reads, 64 count writes, 64 writes to the other array: 256):
// 460 accesses, 3 digits = 1380; the keys end in the scratch array after
// an odd number of passes, so a final copy adds 128: 1508. No branches.
func TestRadixCountAccesses(t *testing.T) {
	s, _ := sim.New(testConfig(64, 64<<10))
	if err := Run(context.Background(), s, "radix-count", mbram.Params{N: 64, W: 4, Buckets: 4}, Options{}); err != nil {
		t.Fatal(err)
	}
	if c := s.Counts(); c.Accesses != 1508 || c.Branches != 0 {
		t.Errorf("accesses %d, branches %d; want 1508, 0", c.Accesses, c.Branches)
	}
}

// TestDeterministic: a seed gives the same counts twice, and another seed
// other counts. The two-pass product runs on more data than the cache
// holds: with everything in the cache its counts hardly depend on the
// permutations.
func TestDeterministic(t *testing.T) {
	for _, tc := range []struct {
		id string
		n  int64
	}{{"quicksort", 3000}, {"perm-twopass", 1 << 18}, {"bucket", 3000}} {
		id := tc.id
		var first sim.Counts
		for i := 0; i < 2; i++ {
			r, err := Simulate(context.Background(), p4(), sim.TwoBit, id, params(tc.n), Options{Seed: 42})
			if err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				first = r.Counts
			} else if r.Counts != first {
				t.Errorf("%s: two runs with seed 42 differ", id)
			}
		}
		r, _ := Simulate(context.Background(), p4(), sim.TwoBit, id, params(tc.n), Options{Seed: 43})
		if r.Counts == first {
			t.Errorf("%s: seeds 42 and 43 gave identical counts", id)
		}
	}
}

func TestCancelAndProgress(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	s, _ := sim.New(testConfig(64, 4<<10))
	err := Run(ctx, s, "perm", params(100000), Options{Slice: 10000, Progress: func(_ *sim.Sim, done, total int64) {
		calls++
		if total != 300000 || done < int64(calls)*10000 {
			t.Errorf("progress %d of %d at call %d", done, total, calls)
		}
		if calls == 5 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || calls != 5 {
		t.Errorf("err %v after %d calls; want context.Canceled after 5", err, calls)
	}
	// The simulator is usable again after a stopped run.
	s.Reset()
	if err := Run(context.Background(), s, "perm", params(1000), Options{}); err != nil {
		t.Error(err)
	}
}

func TestBadParams(t *testing.T) {
	bad := []struct {
		id    string
		p     mbram.Params
		field string
	}{
		{"nosuch", params(10), ""},
		{"perm", mbram.Params{N: 10, W: 3, Buckets: 64}, "w"},
		{"perm", mbram.Params{N: 10, W: 128, Buckets: 64}, "w"},
		{"perm", params(0), "n"},
		{"perm", params(MaxElements + 1), "n"},
		{"matmul", params(MaxMatrix + 1), "n"},
		{"radix", mbram.Params{N: 10, W: 4, Buckets: 1}, "b"},
		{"radix", mbram.Params{N: 10, W: 4, Buckets: MaxBuckets + 1}, "b"},
	}
	for _, b := range bad {
		s, _ := sim.New(testConfig(64, 4<<10))
		err := Run(context.Background(), s, b.id, b.p, Options{})
		var pe *mbram.ParamError
		if err == nil || (b.field != "" && (!errors.As(err, &pe) || pe.Field != b.field)) {
			t.Errorf("%s %+v: got %v, want an error on %q", b.id, b.p, err, b.field)
		}
	}
}

// The traditional product's counts follow from the access pattern: with
// Y many times the cache, nearly every Y read misses, and X and Z cost one
// fill per line; Z's lines are written back. Here N = 2^16, w = 4, B = 64,
// C = 16 KiB (256 lines, Y has 4096): a Y line is cached with probability
// about 1/16... at most 256/4096, so misses are between N + 2N/16 − N/16
// and N + 2N/16.
func TestPermCountsBounds(t *testing.T) {
	n := int64(1 << 16)
	s, _ := sim.New(testConfig(64, 16<<10))
	if err := Run(context.Background(), s, "perm", params(n), Options{Seed: 1}); err != nil {
		t.Fatal(err)
	}
	c := s.Counts()
	lo, hi := n+2*n/16-n/16, n+2*n/16
	if c.Misses < lo || c.Misses > hi || c.Writebacks != n/16 {
		t.Errorf("misses %d (want %d..%d), writebacks %d (want %d)", c.Misses, lo, hi, c.Writebacks, n/16)
	}
	if math.IsNaN(s.Seconds()) || s.Seconds() <= 0 {
		t.Error("bad seconds")
	}
}

func p4() machineT {
	return machineT{ID: "p4", Name: "p4", Beta1: 1.06e9, Beta2: 0.85e9, Mu1: 2, C: 256 << 10, B: 128, M: 11.76e-9}
}

type machineT = machine.Machine

// The progress total is an estimate; it should be near the real count so
// that a progress bar neither stalls nor jumps.
func TestEstimates(t *testing.T) {
	for _, k := range Kernels() {
		p := params(1 << 14)
		if k.Family() == mbram.MatrixProduct {
			p = params(48)
		}
		s, _ := sim.New(testConfig(64, 16<<10))
		if err := Run(context.Background(), s, k.ID, p, Options{}); err != nil {
			t.Fatal(err)
		}
		c := s.Config()
		est := k.estimate(p, c.Lines, c.Line/p.W)
		if r := float64(s.Counts().Accesses) / float64(est); r < 0.6 || r > 1.4 {
			t.Errorf("%s: %d accesses, estimate %d", k.ID, s.Counts().Accesses, est)
		}
	}
}

// TestBucketPermutationUniform draws 4-element permutations by the bucket
// method with 3 buckets 240 000 times: each of the 24 permutations should
// come up 10 000 times. Pearson's chi-square over the 24 counts has 23
// degrees of freedom; its 99.9% quantile is 49.73 (tables), so a uniform
// method passes with this seed and a biased one (say, buckets not
// shuffled, or the scatter out of order) fails by far.
func TestBucketPermutationUniform(t *testing.T) {
	rng := newSplitMix(7)
	const draws = 240000
	counts := map[[4]uint32]int{}
	a := make([]uint32, 4)
	for range draws {
		bucketPermutation(rng, a, 3)
		counts[[4]uint32(a)]++
	}
	if len(counts) != 24 {
		t.Fatalf("%d distinct permutations; want 24", len(counts))
	}
	chi2 := 0.0
	for p, c := range counts {
		seen := [4]bool{}
		for _, v := range p {
			seen[v] = true
		}
		if seen != [4]bool{true, true, true, true} {
			t.Fatalf("%v is not a permutation", p)
		}
		d := float64(c) - draws/24
		chi2 += d * d / (draws / 24)
	}
	if chi2 > 49.73 {
		t.Errorf("chi-square %.1f over 23 degrees of freedom: not uniform", chi2)
	}
	t.Logf("chi-square %.1f (23 degrees of freedom)", chi2)
}

// TestPermutationLarge checks the bucket path gives a permutation.
func TestPermutationLarge(t *testing.T) {
	e := newEnv(nil, mbram.DefaultParams(1<<17), 3)
	p := e.permutation(1 << 17)
	seen := make([]bool, len(p))
	for _, v := range p {
		if seen[v] {
			t.Fatalf("%d twice", v)
		}
		seen[v] = true
	}
}

// TestUint32NUniform: 600 000 draws below 6 should give each value
// 100 000 times; Pearson's chi-square over 5 degrees of freedom stays
// below its 99.9% quantile, 20.52 (tables). Below 2^31 + 1, where the
// rejection matters most (half of the low products are redrawn), the
// draws split evenly between the lower and the upper half of the range.
func TestUint32NUniform(t *testing.T) {
	rng := newSplitMix(1)
	var counts [6]int
	for range 600000 {
		counts[rng.Uint32N(6)]++
	}
	chi2 := 0.0
	for _, c := range counts {
		d := float64(c) - 100000
		chi2 += d * d / 100000
	}
	if chi2 > 20.52 {
		t.Errorf("counts %v: chi-square %.1f", counts, chi2)
	}
	const n = 1<<31 + 1
	low := 0
	for range 100000 {
		v := rng.Uint32N(n)
		if v >= n {
			t.Fatalf("%d out of range", v)
		}
		if v < n/2 {
			low++
		}
	}
	// Binomial(100000, 1/2): standard deviation 158; 5 of them is 791.
	if d := low - 50000; d > 791 || d < -791 {
		t.Errorf("%d of 100000 draws in the lower half", low)
	}
}

// TestFamilies: the simulator's kernels are those of engine/mbram, each in
// the family the closed forms give it.
func TestFamilies(t *testing.T) {
	for _, k := range Kernels() {
		m, ok := mbram.Lookup(k.ID)
		if !ok || k.Family() != m.Family || k.Family() == "" {
			t.Errorf("%s: family %q, mbram has %q (%v)", k.ID, k.Family(), m.Family, ok)
		}
	}
}

// TestSliceFor: a long run reports every most accesses, a short one about
// 16 times per pass over its elements, a matrix product as often over its
// 2n³ accesses as an element kernel over 3n.
func TestSliceFor(t *testing.T) {
	const most = 1 << 16
	for _, c := range []struct {
		id   string
		n    int64
		want int64
	}{
		{"quicksort", 1 << 20, most},
		{"quicksort", 1 << 16, 1 << 12},
		{"perm", 1 << 14, 1 << 10},
		{"perm", 100, 1 << 10},
		{"matmul", 64, 2 * 64 * 64 * 64 / 3 / 16},
		{"matmul", 500, most},
		{"matmul", 8, 1 << 10},
	} {
		if got := SliceFor(c.id, params(c.n), most); got != c.want {
			t.Errorf("SliceFor(%s, n = %d) = %d, want %d", c.id, c.n, got, c.want)
		}
	}
}
