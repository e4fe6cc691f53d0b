package hier

import (
	"context"

	"memwall/engine/kernels"
	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/sim"
)

// SimulateKernel runs built-in kernel id on generated data through
// engine/sim's MBRAM simulator and, with the same accesses passed on
// (kernels.Options.Tracer), through the hierarchy simulator of m's
// levels: the MBRAM result and the hierarchy's, with the run's
// mispredictions at m's penalty. o.Tracer is replaced.
func SimulateKernel(ctx context.Context, m machine.Machine, pred sim.Predictor, id string, p mbram.Params, o kernels.Options) (sim.Result, Result, error) {
	if err := m.Validate(); err != nil {
		return sim.Result{}, Result{}, err
	}
	s, err := sim.New(sim.ConfigFor(m, pred))
	if err != nil {
		return sim.Result{}, Result{}, err
	}
	h, err := New(ConfigFor(m))
	if err != nil {
		return sim.Result{}, Result{}, err
	}
	o.Tracer = h
	if err := kernels.Run(ctx, s, id, p, o); err != nil {
		return sim.Result{}, Result{}, err
	}
	h.Finish()
	r := s.Result()
	return r, h.RunResult(r.Counts.Mispredictions, m.M), nil
}
