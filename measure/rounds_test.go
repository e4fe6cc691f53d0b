package measure

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
)

// logRounds records the rounds it is asked for, by name.
type logRounds struct {
	name string
	log  *[]string
}

func (l logRounds) round(r int) { *l.log = append(*l.log, fmt.Sprintf("%s%d", l.name, r)) }

// TestRunRounds: the rounds of several measurements are taken in turn,
// a repeated one n rounds of its own for each, and a cancelled context
// stops them before the next.
func TestRunRounds(t *testing.T) {
	var log []string
	a, b := logRounds{"a", &log}, logRounds{"b", &log}
	if err := runRounds(context.Background(), 2, a, repeated{b, 3}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"a0", "b0", "b1", "b2", "a1", "b3", "b4", "b5"}; !slices.Equal(log, want) {
		t.Errorf("rounds %v, want %v", log, want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	log = nil
	stop := logRounds{"s", &log}
	err := runRounds(ctx, 3, a, roundFunc(func(int) { cancel() }), stop)
	if !errors.Is(err, context.Canceled) || !slices.Equal(log, []string{"a0"}) {
		t.Errorf("cancelled: %v after %v, want context.Canceled after a0", err, log)
	}
}

// TestCalibrateProgress: a calibration's steps count up to its total, the
// interleaved rounds of the gather, the walks, the crowded reads and the
// column curve among them, one step a round.
func TestCalibrateProgress(t *testing.T) {
	var ps []Progress
	if _, err := Calibrate(context.Background(), Options{Quick: true, MaxBytes: 8 << 20, Progress: func(p Progress) { ps = append(ps, p) }}); err != nil {
		t.Fatal(err)
	}
	last := ps[len(ps)-1]
	if last.Step != "done" || last.Done != last.Total {
		t.Errorf("last progress %+v, want done at the total", last)
	}
	rounds := 0
	for i, p := range ps {
		if p.Total != last.Total || p.Done > p.Total || (i > 0 && p.Step != "done" && p.Done != ps[i-1].Done+1) {
			t.Errorf("progress %d: %+v after %+v", i, p, ps[max(0, i-1)])
		}
		if len(p.Step) > 22 && p.Step[:22] == "random reads by index," {
			rounds++
		}
	}
	if rounds == 0 {
		t.Errorf("no round of the interleaved measurements among %d steps", len(ps))
	}
	// Steps count from 0, so the last before "done" is at the total.
	if before := ps[len(ps)-2]; before.Done != last.Total {
		t.Errorf("the last step %+v, want it at the total %d", before, last.Total)
	}
}
