package measure

import "context"

// A rounder is a measurement taken a round at a time, each round timing
// every point once, so that calibration can interleave the rounds of
// several (runRounds): on a shared host a neighbour's burst of some
// seconds slows every round timed in it, and a measurement whose rounds
// all fall in it reads the burst. On the Zen 5 guest of docs/hierarchy.md
// one calibration timed the gather curve's seven rounds back to back in
// such a burst: every span read 44 to 87 % slower than in the calibrations
// before and after it, the in-cache point too, with a spread of 4.6 %.
type rounder interface {
	round(r int)
}

// runRounds takes rounds rounds of each of rs, one round of each in turn,
// and stops with ctx's error once it is done.
func runRounds(ctx context.Context, rounds int, rs ...rounder) error {
	for r := range rounds {
		for _, x := range rs {
			if err := ctx.Err(); err != nil {
				return err
			}
			x.round(r)
		}
	}
	return nil
}

// roundFunc is a rounder of a function: calibration's progress step
// among the rounds it reports.
type roundFunc func(r int)

func (f roundFunc) round(r int) { f(r) }

// repeated takes n rounds of r for each of its own.
type repeated struct {
	r rounder
	n int
}

func (x repeated) round(r int) {
	for i := range x.n {
		x.r.round(r*x.n + i)
	}
}

// takeRounds takes rounds rounds of r, made with err, and gives its
// result: the rounds of one measurement alone, as the browser and the
// tests take them.
func takeRounds[T any, R interface {
	rounder
	result() T
}](ctx context.Context, rounds int, r R, err error) (T, error) {
	var zero T
	if err != nil {
		return zero, err
	}
	if err := runRounds(ctx, rounds, r); err != nil {
		return zero, err
	}
	return r.result(), nil
}
