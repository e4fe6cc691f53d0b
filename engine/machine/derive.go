package machine

import (
	"fmt"
	"math"
)

// Spec is what a data sheet gives: the memory bus and its latency, the CPU's
// clock and its branch-misprediction pipeline depth, and the cache geometry.
type Spec struct {
	BusWidth       int64   `json:"bus_width"`       // bytes per bus transfer (8 on the Pentiums)
	BusFrequency   float64 `json:"bus_frequency"`   // transfers per second (266e6 for DDR-266)
	LatencyCycles  float64 `json:"latency_cycles"`  // memory latency in bus cycles
	LatencyClock   float64 `json:"latency_clock"`   // clock the latency is counted in; 0 means BusFrequency
	PipelineStages float64 `json:"pipeline_stages"` // branch-misprediction pipeline
	CPUClock       float64 `json:"cpu_clock"`       // Hz
	Cache          int64   `json:"cache"`
	Line           int64   `json:"line"`
	Mu1            int     `json:"mu1"`
}

// Derive applies the MBRAM paper, section III.A: a cache line takes t = B/beta1 on
// a bus of width·f bytes per second, a random line waits the latency lambda
// first, so
//
//	beta1 = width·f,  lambda = cycles/f_latency,  beta2 = B/(lambda + B/beta1),
//	m = pipeline stages / CPU clock.
//
// The latency is counted in cycles of LatencyClock (the paper counts DDR-266's
// 10 cycles on its 133 MHz clock while data moves at 266 MT/s).
func Derive(s Spec) (Machine, error) {
	var es Errors
	add := es.Add
	pos := func(v float64) bool { return v > 0 && !math.IsInf(v, 0) && !math.IsNaN(v) }
	if s.BusWidth < 1 || s.BusWidth > 1<<12 {
		add("bus_width", "bus width must be from 1 to 4096 bytes; got %d", s.BusWidth)
	}
	if !pos(s.BusFrequency) || s.BusFrequency > 1e12 {
		add("bus_frequency", "bus frequency must be above 0 Hz and at most 1 THz (e.g. 133 MHz); got %g", s.BusFrequency)
	}
	if math.IsNaN(s.LatencyCycles) || s.LatencyCycles < 0 || s.LatencyCycles > 1e6 {
		add("latency_cycles", "latency must be from 0 to 10^6 bus cycles; got %g", s.LatencyCycles)
	}
	if math.IsNaN(s.LatencyClock) || s.LatencyClock < 0 || s.LatencyClock > 1e12 {
		add("latency_clock", "latency clock must be 0 (the bus frequency) or a frequency up to 1 THz; got %g", s.LatencyClock)
	}
	if math.IsNaN(s.PipelineStages) || s.PipelineStages < 0 || s.PipelineStages > 1000 {
		add("pipeline_stages", "pipeline stages must be from 0 to 1000; got %g", s.PipelineStages)
	}
	if !pos(s.CPUClock) || s.CPUClock > 1e12 {
		add("cpu_clock", "CPU clock must be above 0 Hz and at most 1 THz (e.g. 2.66 GHz); got %g", s.CPUClock)
	}
	if len(es) > 0 {
		return Machine{}, es
	}
	lc := s.LatencyClock
	if lc == 0 {
		lc = s.BusFrequency
	}
	beta1 := float64(s.BusWidth) * s.BusFrequency
	lambda := s.LatencyCycles / lc
	mu1 := s.Mu1
	if mu1 == 0 {
		mu1 = 2
	}
	m := Machine{
		Name:   "derived from specifications",
		Source: fmt.Sprintf("derived (the MBRAM paper, section III.A): %d B bus at %.4g MHz, latency %.4g cycles, %.4g pipeline stages at %.4g GHz", s.BusWidth, s.BusFrequency/1e6, s.LatencyCycles, s.PipelineStages, s.CPUClock/1e9),
		Beta1:  beta1,
		Beta2:  float64(s.Line) / (lambda + float64(s.Line)/beta1),
		Mu1:    mu1,
		C:      s.Cache,
		B:      s.Line,
		M:      s.PipelineStages / s.CPUClock,
	}
	if err := m.Validate(); err != nil {
		return m, err
	}
	return m, nil
}
