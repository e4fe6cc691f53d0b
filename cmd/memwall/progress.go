package main

import (
	"fmt"
	"io"
	"time"

	"memwall/engine/units"
)

// progress reports a long run on stderr: nothing for the first few
// seconds (short runs stay quiet), then a line at most every few seconds
// with the fraction done and, when the total is known, an estimate of the
// time left.
type progress struct {
	w         io.Writer
	what      string
	start     time.Time
	last      time.Time
	quiet     time.Duration // no report before this much time has passed
	every     time.Duration
	now       func() time.Time
	reported  bool
	finalized bool
}

func newProgress(w io.Writer, what string) *progress {
	t := time.Now()
	return &progress{w: w, what: what, start: t, quiet: 2 * time.Second, every: 2 * time.Second, now: time.Now}
}

// update reports done of total units (total <= 0: unknown).
func (p *progress) update(done, total int64, unit string) {
	t := p.now()
	// Every couple of seconds at first, then about ten lines a run's
	// length so far: a half-hour run prints a few dozen lines, not a
	// thousand.
	every := max(p.every, t.Sub(p.start)/10)
	if t.Sub(p.start) < p.quiet || t.Sub(p.last) < every {
		return
	}
	p.last = t
	p.reported = true
	elapsed := t.Sub(p.start).Seconds()
	if total <= 0 || done <= 0 {
		fmt.Fprintf(p.w, "memwall %s: %s %s so far, %s elapsed\n", p.what, units.FormatCount(done), unit, units.FormatSeconds(elapsed))
		return
	}
	frac := min(float64(done)/float64(total), 1)
	left := elapsed * (1 - frac) / frac
	fmt.Fprintf(p.w, "memwall %s: %.0f%% of about %s %s, %s elapsed, about %s left (Ctrl-C stops)\n",
		p.what, 100*frac, units.FormatCount(total), unit, units.FormatSeconds(elapsed), units.FormatSeconds(left))
}

// done ends the report with the total time, if anything was reported.
func (p *progress) done() {
	if p.reported && !p.finalized {
		p.finalized = true
		fmt.Fprintf(p.w, "memwall %s: done in %s\n", p.what, units.FormatSeconds(p.now().Sub(p.start).Seconds()))
	}
}
