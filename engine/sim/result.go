package sim

import (
	"strconv"

	"memwall/engine/mbram"
	"memwall/engine/units"
)

// Term names, the same as the closed forms' (engine/mbram), so a view can
// put a simulated term beside a predicted one.
const (
	TermSequential = "sequential memory traffic"
	TermRandom     = "random memory traffic"
	TermBranches   = "branch mispredictions"
)

// Phase is the part of a run between two Phase marks.
type Phase struct {
	Name    string       `json:"name"`
	Seconds float64      `json:"seconds"`
	Terms   []mbram.Term `json:"terms"`
	Counts  Counts       `json:"counts"`
}

// Result is a simulated running time with the closed forms' breakdown.
type Result struct {
	Seconds float64      `json:"seconds"`
	Terms   []mbram.Term `json:"terms"`
	Counts  Counts       `json:"counts"`
	Phases  []Phase      `json:"phases,omitempty"`
}

// Seconds charges counts by the model rules: each sequential transfer
// B/β1, each random transfer B/β2 (rule 1), each misprediction m (rule 3).
func (c Config) Seconds(n Counts) float64 {
	t := c.Terms(n)
	return t[0].Seconds + t[1].Seconds + t[2].Seconds
}

// Terms is the breakdown of counts, always the three terms in the order
// sequential, random, branches.
func (c Config) Terms(n Counts) []mbram.Term {
	b := float64(c.Line)
	seq := float64(n.SeqTransfers) * b / c.Beta1
	rnd := float64(n.RandTransfers) * b / c.Beta2
	br := float64(n.Mispredictions) * c.Mispredict
	return []mbram.Term{
		{Name: TermSequential, Seconds: seq, Formula: "sequential transfers·B/β1 = " + count(n.SeqTransfers) + " × " + units.FormatSize(c.Line) + " / " + units.FormatBandwidth(c.Beta1)},
		{Name: TermRandom, Seconds: rnd, Formula: "random transfers·B/β2 = " + count(n.RandTransfers) + " × " + units.FormatSize(c.Line) + " / " + units.FormatBandwidth(c.Beta2)},
		{Name: TermBranches, Seconds: br, Formula: "mispredictions·m = " + count(n.Mispredictions) + " × " + units.FormatSeconds(c.Mispredict)},
	}
}

func count(v int64) string { return strconv.FormatInt(v, 10) }

// Seconds is the simulated time of the counts so far.
func (s *Sim) Seconds() float64 { return s.cfg.Seconds(s.Counts()) }

// Result is the breakdown of the run so far; call Finish first to charge
// the final write-backs.
func (s *Sim) Result() Result {
	c := s.Counts()
	r := Result{Seconds: s.cfg.Seconds(c), Terms: s.cfg.Terms(c), Counts: c}
	for i, p := range s.phases {
		end := c
		if i+1 < len(s.phases) {
			end = s.phases[i+1].at
		}
		d := end.Sub(p.at)
		r.Phases = append(r.Phases, Phase{Name: p.name, Seconds: s.cfg.Seconds(d), Terms: s.cfg.Terms(d), Counts: d})
	}
	return r
}
