package superstep

import (
	"math"
	"strings"
	"testing"
)

// TestPlanCounts evaluates Tables 9–11's (h_r; h_w; M) by hand.
func TestPlanCounts(t *testing.T) {
	tests := []struct {
		alg    string
		n      int64
		p      int
		params Params
		want   []Counts // per superstep, in table order
		repeat int
	}{
		// Radix, n = 80000, p = 8, r = 6 (64 counts), b = 32 (6 passes):
		// SS1 n/p = 10000; 64; n + 64p = 80512.
		// SS2, SS3 64; 64; 128p = 1024.
		// SS4 n/p + 64 = 10064; 10000; 2n + 64p = 160512.
		{"radix", 80000, 8, Params{}, []Counts{{10000, 64, 80512}, {64, 64, 1024}, {64, 64, 1024}, {10064, 10000, 160512}}, 6},
		// Radix, n = 1000, p = 4, r = 4 (16 counts), b = 16 (4 passes):
		// SS1 250; 16; 1000 + 64 = 1064. SS2 16; 16; 32·4 = 128.
		// SS4 266; 250; 2000 + 64 = 2064.
		{"radix", 1000, 4, Params{KeyBits: 16, RadixBits: 4}, []Counts{{250, 16, 1064}, {16, 16, 128}, {16, 16, 128}, {266, 250, 2064}}, 4},
		// Sample, n = 100000, p = 4, 100 samples each:
		// SS1 100; 100; 200p = 800. SS2 n/p + p = 25004; 4; n + 2p² = 100032.
		// SS3 4; 4; 2p² = 32. SS4 25000 + 12 = 25012; 25000; 2n + 3p² = 200048.
		// SS5 25000; 25000; 200000.
		{"sample", 100000, 4, Params{}, []Counts{{100, 100, 800}, {25004, 4, 100032}, {4, 4, 32}, {25012, 25000, 200048}, {25000, 25000, 200000}}, 1},
		// Sample, n = 120000, p = 12: SS2 10012; 12; 120000 + 288 = 120288.
		// SS3 12; 12; 288. SS4 10036; 10000; 240000 + 432 = 240432.
		{"sample", 120000, 12, Params{}, []Counts{{100, 100, 2400}, {10012, 12, 120288}, {12, 12, 288}, {10036, 10000, 240432}, {10000, 10000, 240000}}, 1},
		// Column, n = 60000, p = 12: every superstep 5000; 5000; 120000.
		{"column", 60000, 12, Params{}, []Counts{{5000, 5000, 120000}, {5000, 5000, 120000}, {5000, 5000, 120000}, {5000, 5000, 120000}, {5000, 5000, 120000}}, 1},
		// p does not divide n: n = 10, p = 4 holds 3, 3, 2, 2 elements:
		// h_r = h_w = 3, M = 2·10 = 20.
		{"column", 10, 4, Params{}, []Counts{{3, 3, 20}, {3, 3, 20}, {3, 3, 20}, {3, 3, 20}, {3, 3, 20}}, 1},
	}
	for _, tc := range tests {
		plan, err := NewPlan(tc.alg, tc.n, tc.p, tc.params)
		if err != nil {
			t.Fatalf("%s n=%d p=%d: %v", tc.alg, tc.n, tc.p, err)
		}
		if len(plan.Steps) != len(tc.want) || plan.Algorithm.Supersteps != len(tc.want) {
			t.Fatalf("%s: %d supersteps, want %d", tc.alg, len(plan.Steps), len(tc.want))
		}
		for i, st := range plan.Steps {
			if st.Counts != tc.want[i] || st.Repeat != tc.repeat || st.Number != i+1 {
				t.Errorf("%s n=%d p=%d SS%d: %+v ×%d, want %+v ×%d", tc.alg, tc.n, tc.p, st.Number, st.Counts, st.Repeat, tc.want[i], tc.repeat)
			}
		}
	}
}

func TestPlanRefuses(t *testing.T) {
	tests := []struct {
		alg     string
		n       int64
		p       int
		params  Params
		wantErr string
	}{
		{"bubble", 100, 2, Params{}, "use radix, sample or column"},
		{"radix", 100, 0, Params{}, "p = 0"},
		{"radix", 3, 4, Params{}, "n = 3"},
		{"radix", 1 << 41, 4, Params{}, "2^40"},
		{"radix", 100, 2, Params{RadixBits: 30}, "radix bits"},
		{"radix", 100, 2, Params{KeyBits: -1}, "key bits"},
		{"sample", 100, 2, Params{Oversample: -3}, "oversampling"},
	}
	for _, tc := range tests {
		if _, err := NewPlan(tc.alg, tc.n, tc.p, tc.params); err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("%s n=%d p=%d %+v: err = %v, want %q", tc.alg, tc.n, tc.p, tc.params, err, tc.wantErr)
		}
	}
}

func TestPlanWarnings(t *testing.T) {
	// Column sort with p = 12 needs n/p >= 2·11² = 242 rows.
	plan, _ := NewPlan("column", 2400, 12, Params{})
	if len(plan.Warnings) != 1 || !strings.Contains(plan.Warnings[0], "242") {
		t.Errorf("column n=2400 p=12: warnings %q", plan.Warnings)
	}
	plan, _ = NewPlan("column", 2904, 12, Params{})
	if len(plan.Warnings) != 0 {
		t.Errorf("column n=2904 p=12: warnings %q", plan.Warnings)
	}
	plan, _ = NewPlan("sample", 300, 4, Params{})
	if len(plan.Warnings) != 1 || !strings.Contains(plan.Warnings[0], "400") {
		t.Errorf("sample n=300 p=4: warnings %q", plan.Warnings)
	}
}

// TestPredictTotal checks a whole column sort by hand: n = 60000, p = 12,
// five supersteps of h_r = h_w = 5000, M = 120000 (R0).
// Good (Table 2, p = 12, R0): 279 + 0.0183·5000 + 0.0087·5000 +
// 0.00004·120000 = 279 + 91.5 + 43.5 + 4.8 = 418.8 µs per superstep.
// Bad (Table 4, p = 12): 16555 + 0.2429·5000 + 0.5755·5000 + 0.1697·120000
// = 16555 + 1214.5 + 2877.5 + 20364 = 41011 µs per superstep.
// Totals: 5·418.8 = 2094 µs and 5·41011 = 205055 µs.
func TestPredictTotal(t *testing.T) {
	set, _ := SGIPowerChallenge(12)
	plan, _ := NewPlan("column", 60000, 12, Params{})
	pr, err := set.Predict(plan)
	if err != nil {
		t.Fatal(err)
	}
	if !near(pr.Good, 2094e-6, 1e-12) || !near(pr.Bad, 205055e-6, 1e-12) {
		t.Errorf("total = [%g, %g] µs, want [2094, 205055]", pr.Good*1e6, pr.Bad*1e6)
	}
	// Radix sort repeats its supersteps per pass: n = 80000, p = 8.
	// SS2 and SS3 (64; 64; 1024), Good R0 p = 8: 140 + 0.0184·64 +
	// 0.0087·64 + 0.00005·1024 = 140 + 1.1776 + 0.5568 + 0.0512 = 141.7856.
	set8, _ := SGIPowerChallenge(8)
	plan, _ = NewPlan("radix", 80000, 8, Params{})
	pr, err = set8.Predict(plan)
	if err != nil {
		t.Fatal(err)
	}
	if got := pr.Steps[1].Interval.Good; !near(got, 141.7856e-6, 1e-12) {
		t.Errorf("radix SS2 t_g = %g µs, want 141.7856", got*1e6)
	}
	sum := 0.0
	for _, s := range pr.Steps {
		sum += 6 * s.Interval.Good
	}
	if !near(pr.Good, sum, 1e-12) {
		t.Errorf("radix total t_g = %g, want 6 × the sum of its supersteps = %g", pr.Good, sum)
	}
	if _, err := set8.Predict(mustPlan(t, "radix", 1000, 4)); err == nil || !strings.Contains(err.Error(), "p = 8 but the sort runs on p = 4") {
		t.Errorf("mismatched p: err = %v", err)
	}
}

func mustPlan(t *testing.T, alg string, n int64, p int) Plan {
	t.Helper()
	plan, err := NewPlan(alg, n, p, Params{})
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

func TestSortSizes(t *testing.T) {
	// p = 8: N0 = 40000..400000, N1 = 400000..4000000, N2 = 550000,
	// 1750000, ..., 550000 + 150000·8·9 = 11350000.
	ns := SortSizes(8)
	if len(ns) != 30 || ns[0] != 40000 || ns[9] != 400000 || ns[10] != 400000 || ns[19] != 4000000 || ns[20] != 550000 || ns[21] != 1750000 || ns[29] != 11350000 {
		t.Errorf("SortSizes(8) = %v", ns)
	}
}

// TestPublishedLocalityConsistent checks Tables 9–11's Loc and M/G against
// the interval this package computes, the one route the paper leaves open:
// it prints averages over its runs, not the measured times.
//
// For one run j with ratio r_j = t_b/t_g and M/G_j = t_m/t_g,
// 1 − Loc_j = (M/G_j − 1)/(r_j − 1). Averaging over the runs,
// R − 1 := avg(M/G − 1)/avg(1 − Loc) = avg(M/G − 1)/avg((M/G − 1)/(r − 1)),
// a harmonic mean of r_j − 1 weighted by M/G_j − 1. These weights are
// non-negative because every measured time fell inside the interval
// (section 5.2), so R lies between the smallest and the largest r_j. The
// printed averages, each ±0.005 from rounding, give a range for R; it must
// meet the range of t_b/t_g this package computes for the superstep over
// the paper's sizes n in SortSizes(p). A wrong formula in Tables 9–11, a
// coefficient of Tables 2 or 4 transcribed wrongly, or another reading of
// C would move the computed ratios (for radix sort's SS1 at p = 8 the
// ranges meet only between 33.5 and 40.7).
//
// The supersteps without an M/G value cannot be checked: Loc alone fixes
// neither t_m nor the ratio.
func TestPublishedLocalityConsistent(t *testing.T) {
	checked := 0
	for _, pl := range PublishedLocalities() {
		if !pl.HasMG {
			continue
		}
		set, err := SGIPowerChallenge(pl.P)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, n := range SortSizes(pl.P) {
			plan := mustPlan(t, pl.Algorithm, n, pl.P)
			iv, err := set.Interval(plan.Steps[pl.Step-1].Counts)
			if err != nil {
				t.Fatal(err)
			}
			if iv.Good <= 0 {
				t.Fatalf("%s SS%d p=%d n=%d: t_g = %g <= 0", pl.Algorithm, pl.Step, pl.P, n, iv.Good)
			}
			r := iv.Bad / iv.Good
			lo, hi = min(lo, r), max(hi, r)
		}
		rLo := 1 + (pl.MG-0.005-1)/(1-(pl.Loc-0.005))
		rHi := 1 + (pl.MG+0.005-1)/(1-(pl.Loc+0.005))
		if rHi < lo || rLo > hi {
			t.Errorf("%s SS%d p=%d: Loc %.2f, M/G %.2f imply t_b/t_g in [%.1f, %.1f]; the model gives [%.1f, %.1f]", pl.Algorithm, pl.Step, pl.P, pl.Loc, pl.MG, rLo, rHi, lo, hi)
		}
		checked++
	}
	// Table 9: 2 supersteps with M/G, Table 10: 3, Table 11: 5; × 4 p.
	if checked != (2+3+5)*4 {
		t.Errorf("checked %d published pairs, want 40", checked)
	}
}

// TestLocate uses the column sort of TestPredictTotal: per superstep
// t_g = 418.8 µs, t_b = 41011 µs. A measured 2 ms gives
// Loc = 1 − (2000 − 418.8)/(41011 − 418.8) = 1 − 1581.2/40592.2 = 0.961047...
// and M/G = 2000/418.8 = 4.77555...; five such supersteps sum to 10 ms
// against [2094, 205055] µs: Loc = 1 − 7906/202961 = 0.961047..., the same.
func TestLocate(t *testing.T) {
	set, _ := SGIPowerChallenge(12)
	pr, err := set.Predict(mustPlan(t, "column", 60000, 12))
	if err != nil {
		t.Fatal(err)
	}
	steps := map[int]float64{0: 2e-3, 1: 2e-3, 2: 2e-3, 3: 2e-3, 4: 2e-3}
	loc, err := pr.Locate(steps, nil)
	if err != nil {
		t.Fatal(err)
	}
	l := loc.Steps[2]
	if l.LocErr != nil || l.MGErr != nil || !near(l.Loc, 1-1581.2/40592.2, 1e-12) || !near(l.MG, 2000/418.8, 1e-12) {
		t.Errorf("superstep 3: %+v", l)
	}
	if loc.Total == nil || !loc.TotalSummed || !near(loc.Total.Measured, 10e-3, 1e-12) || !near(loc.Total.Loc, 1-7906.0/202961, 1e-12) {
		t.Errorf("total: %+v", loc.Total)
	}
	// Only some supersteps: no total unless given.
	loc, _ = pr.Locate(map[int]float64{1: 1e-3}, nil)
	if loc.Total != nil || len(loc.Steps) != 1 {
		t.Errorf("partial: %+v", loc)
	}
	tot := 0.1
	loc, _ = pr.Locate(nil, &tot)
	if loc.Total == nil || loc.TotalSummed || !near(loc.Total.MG, 0.1/2094e-6, 1e-12) {
		t.Errorf("given total: %+v", loc.Total)
	}
	for _, tc := range []struct {
		steps map[int]float64
		total float64
		want  string
	}{
		{map[int]float64{5: 1}, 1, "the sort has 5 supersteps"},
		{map[int]float64{0: math.NaN()}, 1, "superstep 1 = NaN"},
		{nil, -1, "measured total = -1"},
	} {
		total := tc.total
		if _, err := pr.Locate(tc.steps, &total); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v, %g: err = %v, want %q", tc.steps, tc.total, err, tc.want)
		}
	}
}
