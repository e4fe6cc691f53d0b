package measure

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestSeedH checks the suite's access counts against seed 003 section 4.1:
// H0 = {5000·i : 1 ≤ i ≤ 10}, H1 = {50000·i : 1 ≤ i ≤ 10},
// H2 = {550000 + 150000·i : 0 ≤ i ≤ 9}: 30 counts from 5000 to 1 900 000.
func TestSeedH(t *testing.T) {
	h := SeedH()
	if len(h) != 30 || h[0] != 5000 || h[9] != 50000 || h[10] != 50000 || h[19] != 500000 || h[20] != 550000 || h[29] != 1900000 {
		t.Fatalf("SeedH = %v", h)
	}
	if h[29] > SeedTMax {
		t.Fatalf("largest h %d above t_max %d", h[29], SeedTMax)
	}
}

// TestSuite1 checks the three patterns by hand for p = 4, x = 2, h = 1000
// (h·x/p = 500).
func TestSuite1(t *testing.T) {
	tests := []struct {
		pat           string
		reads, writes []int64
	}{
		{LikeGather, []int64{1000, 1000, 0, 0}, []int64{500, 500, 500, 500}},
		{LikeScatter, []int64{500, 500, 500, 500}, []int64{1000, 1000, 0, 0}},
		{Vary, []int64{1000, 1000, 0, 0}, []int64{1000, 1000, 0, 0}},
	}
	for _, tc := range tests {
		r, w := suite1(tc.pat, 4, 2, 1000)
		if !slices.Equal(r, tc.reads) || !slices.Equal(w, tc.writes) {
			t.Errorf("%s: reads %v writes %v, want %v %v", tc.pat, r, w, tc.reads, tc.writes)
		}
	}
}

// TestFeaturesOf: reads {3, 7, 0}, writes {5, 2, 9}: h_r = 7, h_w = 9,
// h = 9, M = 10 + 16 = 26; with 6 words in cache h_rc = 6, h_rm = 1,
// h_wc = 6, h_wm = 3.
func TestFeaturesOf(t *testing.T) {
	got := FeaturesOf([]int64{3, 7, 0}, []int64{5, 2, 9}, 6)
	want := Features{HR: 7, HW: 9, H: 9, M: 26, HRC: 6, HRM: 1, HWC: 6, HWM: 3}
	if got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

// TestPlan counts the supersteps and checks the constraints Suites 2 and 3
// put on their random counts (seed 003 section 4.1): Suite 2 keeps each
// count at most the Suite 1 maximum with one processor at it; Suite 3
// keeps the totals. p = 3 and 2 counts: x = 1, 2 give 3 patterns each and
// x = 3 one, so 7 per h, 14 per suite, 28 with both modes.
func TestPlan(t *testing.T) {
	os := &OSInfo{Line: 64}
	for seed := uint64(0); seed < 20; seed++ {
		opt := SuperstepOptions{P: []int{3}, H: []int64{1000, 3000}, TMax: 3500, Seed: seed, OS: os}
		plan := map[int][]Superstep{}
		for s := 1; s <= 3; s++ {
			opt.Suites = []int{s}
			p, err := PlanSupersteps(opt)
			if err != nil {
				t.Fatal(err)
			}
			if len(p) != 28 {
				t.Fatalf("suite %d: %d supersteps, want 28", s, len(p))
			}
			plan[s] = p
		}
		for i, st1 := range plan[1] {
			st2, st3 := plan[2][i], plan[3][i]
			if st2.Pattern != st1.Pattern || st3.X != st1.X || st3.H != st1.H {
				t.Fatalf("suites out of step at %d", i)
			}
			for _, c := range []struct{ one, two, three []int64 }{{st1.Reads, st2.Reads, st3.Reads}, {st1.Writes, st2.Writes, st3.Writes}} {
				if slices.Max(c.two) != slices.Max(c.one) {
					t.Errorf("seed %d %s x=%d: suite 2 max %v, suite 1 %v", seed, st1.Pattern, st1.X, c.two, c.one)
				}
				if sum(c.three) != sum(c.one) || slices.Max(c.three) > opt.TMax || slices.Min(c.three) < 0 {
					t.Errorf("seed %d %s x=%d: suite 3 %v, suite 1 %v (t_max %d)", seed, st1.Pattern, st1.X, c.three, c.one, opt.TMax)
				}
			}
		}
	}
}

func sum(xs []int64) (s int64) {
	for _, x := range xs {
		s += x
	}
	return s
}

// TestTeamAddresses runs one superstep in each mode and reads back where
// the copy-out wrote: good mode writes words i·t_max + k of processor i,
// bad mode words i + k·t_line (seed 003 section 4).
func TestTeamAddresses(t *testing.T) {
	// The sentinel is large enough that a written value (the sum of at
	// least three words read, plus k) never equals it.
	const tmax, line, p, sentinel = 100, 8, 3, 1 << 20
	arr := make([]int32, p*tmax)
	writes := []int64{5, 0, 7}
	for _, good := range []bool{true, false} {
		for i := range arr {
			arr[i] = sentinel
		}
		tm := newTeam(p, arr, nil)
		if s := tm.run(job{good: good, reads: []int64{3, 4, 5}, writes: writes, tmax: tmax, line: line, prime: 2}); !(s > 0) {
			t.Errorf("good=%v: %g s", good, s)
		}
		tm.close()
		written := map[int]bool{}
		for i, n := range writes {
			for k := range int(n) {
				if good {
					written[i*tmax+k] = true
				} else {
					written[i+k*line] = true
				}
			}
		}
		for i, v := range arr {
			if (v != sentinel) != written[i] {
				t.Fatalf("good=%v: word %d = %d, written %v", good, i, v, written[i])
			}
		}
	}
}

// TestRunSupersteps measures a small plan with two processors: every
// superstep gets a positive time and the features of its counts.
func TestRunSupersteps(t *testing.T) {
	opt := SuperstepOptions{P: []int{2}, Suites: []int{1, 3}, H: []int64{1000, 4000}, TMax: 4000, Reps: 2, LineWords: 16, CacheWords: 2048, FlushBytes: 1 << 16}
	var calls int
	opt.Progress = func(done, total int) { calls++ }
	run, err := RunSupersteps(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	// Per suite: 2 counts × (3 patterns at x = 1, 1 at x = 2) × 2 modes.
	if len(run.Steps) != 32 || calls != 32 {
		t.Fatalf("%d supersteps, %d progress calls, want 32", len(run.Steps), calls)
	}
	for _, st := range run.Steps {
		if !(st.Seconds.Median > 0) || len(st.Seconds.Samples) != 2 {
			t.Errorf("%+v: seconds %+v", st.Superstep, st.Seconds)
		}
		if st.Features != FeaturesOf(st.Reads, st.Writes, 2048) {
			t.Errorf("%+v: features %+v", st.Superstep, st.Features)
		}
	}
}

func TestRunSuperstepsCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := RunSupersteps(ctx, SuperstepOptions{P: []int{2}, H: []int64{100}, TMax: 100, LineWords: 16})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// TestSuperstepOptionsBad: every refused option names its field.
func TestSuperstepOptionsBad(t *testing.T) {
	os := &OSInfo{Line: 64}
	tests := []struct {
		opt  SuperstepOptions
		want string
	}{
		{SuperstepOptions{P: []int{0}}, "p:"},
		{SuperstepOptions{Suites: []int{4}}, "suites:"},
		{SuperstepOptions{Modes: []string{"ugly"}}, "modes:"},
		{SuperstepOptions{H: []int64{10}, TMax: 5}, "h:"},
		{SuperstepOptions{H: []int64{0}}, "h:"},
		{SuperstepOptions{P: []int{20}, LineWords: 16}, "p: bad mode"},
		{SuperstepOptions{Reps: -1}, "reps:"},
		{SuperstepOptions{FlushBytes: -1}, "flush:"},
		{SuperstepOptions{LineWords: -3}, "line:"},
	}
	for _, tc := range tests {
		tc.opt.OS = os
		_, err := PlanSupersteps(tc.opt)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want %q", tc.opt, err, tc.want)
		}
	}
	// The seed's full suites on 8 processors need 8·2·10^6 words in good
	// mode and 2·10^6·16 in bad mode: 128 MiB, above a 64 MiB limit.
	_, err := RunSupersteps(context.Background(), SuperstepOptions{P: []int{8}, LineWords: 16, MaxBytes: 64 << 20, OS: os})
	if err == nil || !strings.HasPrefix(err.Error(), "memory:") {
		t.Errorf("memory limit: err = %v", err)
	}
}
