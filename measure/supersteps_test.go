package measure

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"memwall/engine/superstep"
)

// TestPlan: p = 3 and 2 counts give, per suite, 7 experiments per count
// (x = 1, 2 with three patterns each, x = 3 with one: the superstep paper's section
// 4.1), 14 in all, each in both modes: 28, in the engine's order.
func TestPlan(t *testing.T) {
	opt := SuperstepOptions{P: []int{3}, Suites: []int{2}, H: []int64{1000, 3000}, Seed: 9, OS: &OSInfo{Line: 64}}
	plan, err := PlanSupersteps(opt)
	if err != nil {
		t.Fatal(err)
	}
	exps, err := superstep.SuiteOf(2, 3, opt.H, 9)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan) != 28 || len(exps) != 14 {
		t.Fatalf("%d supersteps from %d experiments, want 28 from 14", len(plan), len(exps))
	}
	for i, st := range plan {
		e := exps[i/2]
		if st.Mode != []string{"good", "bad"}[i%2] || st.Pattern != e.Pattern.String() || st.X != e.X ||
			!slices.Equal(st.Reads, e.Superstep.Reads) || !slices.Equal(st.Writes, e.Superstep.Writes) {
			t.Fatalf("superstep %d: %+v, experiment %+v", i, st, e)
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
// bad mode words i + k·t_line (the superstep paper's section 4).
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
	opt := SuperstepOptions{P: []int{2}, Suites: []int{1, 3}, H: []int64{1000, 4000}, Reps: 2, LineWords: 16, CacheWords: 2048, FlushBytes: 1 << 16}
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
		c, _ := superstep.Superstep{Reads: st.Reads, Writes: st.Writes}.Counts()
		if st.Features != c.Features(2048) {
			t.Errorf("%+v: features %+v", st.Superstep, st.Features)
		}
	}
}

func TestRunSuperstepsCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := RunSupersteps(ctx, SuperstepOptions{P: []int{2}, H: []int64{100}, LineWords: 16})
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
		{SuperstepOptions{H: []int64{1 << 31}}, "h:"},
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
	// The paper's suites on 8 processors reach 1.9·10^6 accesses on one
	// processor (Suite 1's vary at the largest h) and so need at least
	// 1.9·10^6·16 words in bad mode: 116 MiB, above a 64 MiB limit.
	_, err := RunSupersteps(context.Background(), SuperstepOptions{P: []int{8}, LineWords: 16, MaxBytes: 64 << 20, OS: os})
	if err == nil || !strings.HasPrefix(err.Error(), "memory:") {
		t.Errorf("memory limit: err = %v", err)
	}
}
