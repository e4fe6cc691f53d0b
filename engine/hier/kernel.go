package hier

import (
	"context"

	"memwall/engine/kernels"
	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/sim"
)

// NewForLevels is a simulator of m's hierarchy when m gives its cache
// levels, and nil otherwise: a machine of the MBRAM paper's six numbers
// has only the one cache the MBRAM simulator already models, so the
// pages, the CLI and the language run the hierarchy simulator beside it
// only for machines with levels.
func NewForLevels(m machine.Machine) (*Sim, error) {
	if len(m.Levels) == 0 {
		return nil, nil
	}
	return New(ConfigFor(m))
}

// SimulateKernel runs built-in kernel id on generated data through
// engine/sim's MBRAM simulator and, with the same accesses passed on
// (kernels.Options.Tracer), through the hierarchy simulator of m's
// levels: the MBRAM result and the hierarchy's (KernelResult).
// o.Tracer is replaced.
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
	r := s.Result()
	return r, h.KernelResult(m, id, p, r.Counts.Mispredictions), nil
}

// KernelResult finishes a run of built-in kernel id on workload p that
// went through s (kernels.Options.Tracer): the write-backs at the end, the
// kernel's operations as the hierarchy model counts them (Work), charged
// at the machine's compute rate as a program's are, and the run's
// mispredictions at m's penalty.
func (s *Sim) KernelResult(m machine.Machine, id string, p mbram.Params, mispredictions int64) Result {
	s.Finish()
	if k, ok := kernelForms[id]; ok {
		w := k.work(shape{n: float64(p.N), w: float64(p.W), b: float64(p.Buckets), c: float64(m.C), streams: float64(StreamsOf(m)), m: m})
		s.Compute(int64(w.Ops))
	}
	return s.RunResult(mispredictions, m.M)
}
