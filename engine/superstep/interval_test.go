package superstep

import (
	"math"
	"strings"
	"testing"
)

func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

// TestSuperstepCounts checks the features of a small superstep by hand.
func TestSuperstepCounts(t *testing.T) {
	tests := []struct {
		name          string
		s             Superstep
		c             float64 // cache words
		want          Features
		wantErrSubstr string
	}{
		{
			// Reads 3, 7, 0 and writes 5, 1, 2: h_r = 7, h_w = 5, h = 7,
			// M = 3+7+0+5+1+2 = 18; with C = 4: h_rc = 4, h_rm = 3,
			// h_wc = 4, h_wm = 1.
			name: "three processors", s: Superstep{Reads: []int64{3, 7, 0}, Writes: []int64{5, 1, 2}}, c: 4,
			want: Features{Hr: 7, Hw: 5, H: 7, M: 18, Hrc: 4, Hrm: 3, Hwc: 4, Hwm: 1},
		},
		{
			// Everything within the cache: the memory parts are 0.
			name: "in cache", s: Superstep{Reads: []int64{2, 2}, Writes: []int64{9, 0}}, c: 1 << 19,
			want: Features{Hr: 2, Hw: 9, H: 9, M: 13, Hrc: 2, Hwc: 9},
		},
		{name: "no processors", s: Superstep{}, wantErrSubstr: "no processors"},
		{name: "mismatched", s: Superstep{Reads: []int64{1, 2}, Writes: []int64{1}}, wantErrSubstr: "2 read counts but 1 write counts"},
		{name: "negative", s: Superstep{Reads: []int64{1, -2}, Writes: []int64{1, 1}}, wantErrSubstr: "h_r(2) = -2"},
		{name: "too many", s: Superstep{Reads: []int64{1 << 50, 1 << 50}, Writes: []int64{0, 0}}, wantErrSubstr: "exceeds 2^50"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := tc.s.Counts()
			if tc.wantErrSubstr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErrSubstr) {
					t.Fatalf("err = %v, want one containing %q", err, tc.wantErrSubstr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Features(tc.c); got != tc.want {
				t.Errorf("features = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestCountsValidate(t *testing.T) {
	tests := []struct {
		c       Counts
		wantErr string
	}{
		{Counts{Hr: 1, Hw: 1, M: 2}, ""},
		{Counts{Hr: 1, Hw: 1, M: 1}, "M = 1 is less than h_r + h_w = 2"},
		{Counts{Hr: math.NaN(), Hw: 1, M: 5}, "h_r = NaN"},
		{Counts{Hr: 1, Hw: -1, M: 5}, "h_w = -1"},
		{Counts{Hr: 1, Hw: 1, M: math.Inf(1)}, "M = +Inf"},
	}
	for _, tc := range tests {
		err := tc.c.Validate()
		if (err == nil) != (tc.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("%+v: err = %v, want %q", tc.c, err, tc.wantErr)
		}
	}
}

// TestIntervalHand evaluates the paper's coefficients by hand.
func TestIntervalHand(t *testing.T) {
	tests := []struct {
		name      string
		p         int
		c         Counts
		region    Region
		good, bad float64 // µs
		err       string  // the exact error, when the interval is refused
		goodNeg   bool    // the Good function is negative: t_g is 0, warned
	}{
		{
			// p = 8, h_r = h_w = 10^6 (> C = 524288, so R1), M = 8·10^6.
			// Table 2 R1: 0 + 0.0202·524288 + 0.0492·475712 + 0.0082·524288
			// + 0.0444·475712 + 0.00027·8e6 = 10590.6176 + 23405.0304 +
			// 4299.1616 + 21121.6128 + 2160 = 61576.4224.
			// Table 4: 16566 + 0.4612e6 + 0.7708e6 + 0.1113·8e6 = 2138966.
			name: "p=8 R1", p: 8, c: Counts{Hr: 1e6, Hw: 1e6, M: 8e6}, region: R1,
			good: 61576.4224, bad: 2138966,
		},
		{
			// p = 2, radix sort's prefix sum: h_r = h_w = 64, M = 128·2.
			// Table 2 R0: −30 + 0.0184·64 + 0.0086·64 + 0.00009·256 =
			// −30 + 1.1776 + 0.5504 + 0.02304 = −28.24896: negative, so the
			// lower bound is reported as 0 with a warning.
			// Table 4: 10444 + 0.5062·64 + 1.0377·64 + 0.0484·256 =
			// 10444 + 32.3968 + 66.4128 + 12.3904 = 10555.2.
			name: "p=2 R0 small", p: 2, c: Counts{Hr: 64, Hw: 64, M: 256}, region: R0,
			good: -28.24896, bad: 10555.2, goodNeg: true,
		},
		{
			// p = 12, h = C exactly is still R0 (the paper: R0 has h <= 2^19).
			// Table 2 R0: 279 + 0.0183·524288 + 0.0087·1000 + 0.00004·6e6 =
			// 279 + 9594.4704 + 8.7 + 240 = 10122.1704.
			// Table 4: 16555 + 0.2429·524288 + 0.5755·1000 + 0.1697·6e6 =
			// 16555 + 127349.5552 + 575.5 + 1018200 = 1162680.0552.
			name: "p=12 h=C", p: 12, c: Counts{Hr: 524288, Hw: 1000, M: 6e6}, region: R0,
			good: 10122.1704, bad: 1162680.0552,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			set, err := SGIPowerChallenge(tc.p)
			if err != nil {
				t.Fatal(err)
			}
			iv, err := set.Interval(tc.c)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if iv.Region != tc.region {
				t.Errorf("region = %v, want %v", iv.Region, tc.region)
			}
			wantGood := tc.good
			if tc.goodNeg {
				wantGood = 0
			}
			if !near(iv.Good, wantGood*1e-6, 1e-12) || !near(iv.Bad, tc.bad*1e-6, 1e-12) {
				t.Errorf("interval = [%.10g, %.10g] µs, want [%.10g, %.10g]", iv.Good*1e6, iv.Bad*1e6, wantGood, tc.bad)
			}
			sum := 0.0
			for _, term := range iv.GoodTerms {
				sum += term.Micros
			}
			if !near(sum, tc.good, 1e-12) {
				t.Errorf("Good terms sum to %g µs, want %g", sum, tc.good)
			}
			if got := len(iv.Warnings) > 0; got != tc.goodNeg {
				t.Errorf("warnings = %q, want some: %v", iv.Warnings, tc.goodNeg)
			}
		})
	}
}

func TestSGIPowerChallengeRefusesOtherP(t *testing.T) {
	for _, p := range []int{0, 1, 3, 16} {
		if _, err := SGIPowerChallenge(p); err == nil || !strings.Contains(err.Error(), "p = 2, 4, 8 and 12") {
			t.Errorf("p = %d: err = %v", p, err)
		}
	}
}

// TestLocMG checks the metrics of section 5.2 by hand and their refusals.
func TestLocMG(t *testing.T) {
	tests := []struct {
		name          string
		tm, tg, tb    float64
		loc, mg       float64
		locErr, mgErr string
	}{
		// Loc = 1 − (3 − 1)/(5 − 1) = 0.5; M/G = 3/1 = 3.
		{name: "middle", tm: 3, tg: 1, tb: 5, loc: 0.5, mg: 3},
		// The paper's own anchors: Loc = 1 when t_m = t_g, 0 when t_m = t_b.
		{name: "at good", tm: 2e-3, tg: 2e-3, tb: 9e-3, loc: 1, mg: 1},
		{name: "at bad", tm: 9e-3, tg: 2e-3, tb: 9e-3, loc: 0, mg: 4.5},
		// Above the Bad bound Loc goes negative: 1 − (11 − 1)/(6 − 1) = −1.
		{name: "beyond bad", tm: 11, tg: 1, tb: 6, loc: -1, mg: 11},
		{name: "point interval", tm: 1, tg: 2, tb: 2, locErr: "not above", mg: 0.5},
		{name: "empty interval", tm: 1, tg: 3, tb: 2, locErr: "not above", mg: 1.0 / 3},
		// t_g = −28.2 µs (the p = 2 prefix sum above): Loc is defined,
		// 1 − (100 + 28.24896)/(10555.2 + 28.24896) = 0.987882...; M/G not.
		{name: "negative good", tm: 100e-6, tg: -28.24896e-6, tb: 10555.2e-6, loc: 1 - 128.24896/10583.44896, mgErr: "not positive"},
		{name: "zero good", tm: 1, tg: 0, tb: 1, loc: 0, mgErr: "not positive"},
		{name: "NaN measured", tm: math.NaN(), tg: 1, tb: 2, locErr: "t_m", mgErr: "t_m"},
		{name: "negative measured", tm: -1, tg: 1, tb: 2, locErr: "t_m", mgErr: "t_m"},
		{name: "Inf prediction", tm: 1, tg: math.Inf(1), tb: 2, locErr: "t_g", mgErr: "t_g"},
		{name: "too long measured", tm: 1e308, tg: 0, tb: 1, locErr: "measured time t_m = 1e+308 s; accepted 0 to 1e+07 s", mgErr: "measured time t_m = 1e+308 s; accepted 0 to 1e+07 s"},
		{name: "tiny interval", tm: 1e7, tg: 0, tb: 1e-305, locErr: "too small", mgErr: "not positive"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			loc, err := Loc(tc.tm, tc.tg, tc.tb)
			checkMetric(t, "Loc", loc, err, tc.loc, tc.locErr)
			mg, err := MG(tc.tm, tc.tg)
			checkMetric(t, "M/G", mg, err, tc.mg, tc.mgErr)
		})
	}
}

func checkMetric(t *testing.T, name string, got float64, err error, want float64, wantErr string) {
	t.Helper()
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%s: err = %v, want one containing %q", name, err, wantErr)
		}
		return
	}
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	if math.IsNaN(got) || math.IsInf(got, 0) || !near(got, want, 1e-12) {
		t.Errorf("%s = %g, want %g", name, got, want)
	}
}

// TestPublishedTablesAgree checks the transcription of Tables 1–4 against
// each other: Table 1's HrHwM-c rows are Table 2's p = 8 rows, and Table 3's
// HrHwM row is Table 4's p = 8 row (Table 3 prints g_M = 0.11138, Table 4
// 0.1113: the same value cut to four decimals).
func TestPublishedTablesAgree(t *testing.T) {
	for _, r := range []Region{R0, R1} {
		a, ok1 := lookupPublished("Table 1", Good, HrHwMc, 8, r)
		b, ok2 := lookupPublished("Table 2", Good, HrHwMc, 8, r)
		if !ok1 || !ok2 || a != b {
			t.Errorf("%v: Table 1 %+v, Table 2 %+v", r, a, b)
		}
	}
	a, _ := lookupPublished("Table 3", Bad, HrHwM, 8, AllRegions)
	b, _ := lookupPublished("Table 4", Bad, HrHwM, 8, AllRegions)
	for _, col := range append([]string{"1"}, HrHwM.Columns()...) {
		if math.Abs(a.Get(col)-b.Get(col)) >= 1e-4 {
			t.Errorf("%s: Table 3 %g, Table 4 %g", CoefficientName(col), a.Get(col), b.Get(col))
		}
	}
	// Every published row sets only its own function's coefficients.
	for _, e := range PublishedCoefficients() {
		if err := e.Coef.Validate(e.Function); err != nil {
			t.Error(err)
		}
		used := map[string]bool{"1": true}
		for _, col := range e.Function.Columns() {
			used[col] = true
		}
		for _, col := range Columns {
			if !used[col] && e.Coef.Get(col) != 0 {
				t.Errorf("%s %v p=%d %v: %s set but not a term of the function", e.Table, e.Function, e.P, e.Region, CoefficientName(col))
			}
		}
	}
}

// TestPublishedTrends checks the paper's own statements about its
// coefficients (section 4.3) against the transcribed tables, a second
// route to a transcription error.
func TestPublishedTrends(t *testing.T) {
	var prevBad, prevR1 *Coefficients
	for _, p := range PublishedProcessorCounts {
		set, err := SGIPowerChallenge(p)
		if err != nil {
			t.Fatal(err)
		}
		// "When accesses are done in cache, reads are about twice as
		// expensive as writes (compare ghrc vs ghwc)": 0.0184/0.0086 = 2.14.
		if r := set.GoodR0.Ghrc / set.GoodR0.Ghwc; r < 1.8 || r > 2.5 {
			t.Errorf("p=%d: g_hrc/g_hwc (R0) = %.2f, the superstep paper says about 2", p, r)
		}
		// Bad: "writes are weighted about twice as much as reads":
		// 1.0377/0.5062 = 2.05 at p = 2, 0.7708/0.4612 = 1.67 at p = 8.
		if r := set.Bad.Ghw / set.Bad.Ghr; r < 1.5 || r > 2.5 {
			t.Errorf("p=%d: g_hw/g_hr (Bad) = %.2f, the superstep paper says about 2", p, r)
		}
		// "as p increases, the ghr and ghw coefficients decrease while gM
		// increases" (Bad) and "the slight decrease of ghrc and ghwc for R1
		// as p increases, which is compensated by an increase of gM" (Good).
		if prevBad != nil {
			if !(set.Bad.Ghr < prevBad.Ghr && set.Bad.Ghw < prevBad.Ghw && set.Bad.GM > prevBad.GM) {
				t.Errorf("p=%d: Bad trend broken: %+v after %+v", p, set.Bad, *prevBad)
			}
			r1 := *set.GoodR1
			if !(r1.Ghrc < prevR1.Ghrc && r1.Ghwc <= prevR1.Ghwc && r1.GM > prevR1.GM) {
				t.Errorf("p=%d: Good R1 trend broken: %+v after %+v", p, r1, *prevR1)
			}
		}
		bad := set.Bad
		prevBad, prevR1 = &bad, set.GoodR1
	}
}

func TestPublishedErrors(t *testing.T) {
	errs := PublishedErrors()
	// Tables 5 and 6: 4 functions × 2 regions; Tables 7 and 8: 4 functions;
	// each for 4 values of p.
	if len(errs) != (8+8+4+4)*4 {
		t.Fatalf("%d entries", len(errs))
	}
	for _, e := range errs {
		if e.Mean <= 0 || e.Max < e.Mean {
			t.Errorf("%+v: the maximum must not be below the average", e)
		}
		// "HrHwM-c for the Good family, and HrHwM for the Bad family ...
		// provide very accurate predictions that are always within 7%"
		// (section 4.3; the averages).
		if (e.Function == HrHwMc || e.Function == HrHwM) && e.Mean > 0.07 {
			t.Errorf("%+v: average above 7%%", e)
		}
	}
}

// TestIntervalOverflow: coefficients near the largest float64 make the
// terms overflow, to +Inf − Inf = NaN when their signs differ; refused.
func TestIntervalOverflow(t *testing.T) {
	set, _ := SGIPowerChallenge(8)
	set.GoodR0 = Coefficients{Ghrc: 1e308, GM: -1e308}
	if _, err := set.Interval(Counts{Hr: 10, Hw: 10, M: 100}); err == nil || !strings.Contains(err.Error(), "overflows") {
		t.Errorf("err = %v", err)
	}
}
