package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"memwall/engine/hier"
	"memwall/engine/machine"
	"memwall/engine/ranking"
	"memwall/engine/units"
	"memwall/measure"
)

// A sweep (validate --sweep KERNEL:FROM..TO) times one kernel at sizes
// from FROM to TO, two to a doubling (each power of two and 1.5 times
// it), and sets each beside both models: where the size classes of
// --sizes levels sample the hierarchy at three points, a sweep shows
// where across the levels a model departs from the machine, the way the
// permutation product was found to run over the model between the second
// level and memory on the development guest (docs/hierarchy.md).

// sweepClass is the class of a sweep's rows: one kernel at many sizes,
// which the ranking of sorts by size class does not read.
const sweepClass = "sweep"

// maxSweepPoints bounds a sweep: 2^0 to 2^31 at two points a doubling.
const maxSweepPoints = 64

// maxSweepN is the largest size a sweep runs: the runners index int32
// words (2^31 keys, 8 GiB with their copy); a matrix dimension stops at
// 5000, as --matrix-n does.
const (
	maxSweepN   = 1 << 31
	maxSweepMat = 5000
)

// sweepSpec is a parsed --sweep.
type sweepSpec struct {
	kernel   string
	from, to int64
}

// parseSweep reads KERNEL:FROM..TO, sizes as counts ("1Mi", "2^20",
// "1048576"; a matrix dimension for matmul). Errors name the flag and
// what is accepted.
func parseSweep(s string) (sweepSpec, error) {
	kernel, span, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok {
		return sweepSpec{}, fmt.Errorf("--sweep %q: want KERNEL:FROM..TO, e.g. perm:1Mi..32Mi", s)
	}
	kernel = strings.TrimSpace(kernel)
	if !slices.Contains(validateKernels(), kernel) {
		return sweepSpec{}, fmt.Errorf("--sweep %q: kernel %q is not one of validate's (%s)", s, kernel, strings.Join(validateKernels(), ", "))
	}
	lo, hi, ok := strings.Cut(span, "..")
	if !ok {
		return sweepSpec{}, fmt.Errorf("--sweep %q: want the sizes as FROM..TO, e.g. perm:1Mi..32Mi", s)
	}
	limit := int64(maxSweepN)
	if kernel == "matmul" {
		limit = maxSweepMat
	}
	size := func(what, v string) (int64, error) {
		n, err := units.ParseCount(strings.TrimSpace(v))
		if err != nil || n < 1 || n > limit {
			return 0, fmt.Errorf("--sweep %q: %s %q; want a whole number from 1 to %s (2^20, 1Mi and 1048576 are one size)", s, what, v, units.FormatCount(limit))
		}
		return n, nil
	}
	var sp sweepSpec
	var err error
	sp.kernel = kernel
	if sp.from, err = size("FROM", lo); err != nil {
		return sweepSpec{}, err
	}
	if sp.to, err = size("TO", hi); err != nil {
		return sweepSpec{}, err
	}
	if sp.to < sp.from {
		return sweepSpec{}, fmt.Errorf("--sweep %q: TO (%s) is below FROM (%s)", s, units.FormatCount(sp.to), units.FormatCount(sp.from))
	}
	return sp, nil
}

// sizes are the sweep's points: every power of two and 1.5 times one
// from FROM to TO, with FROM and TO themselves.
func (sp sweepSpec) sizes() []int64 {
	out := []int64{sp.from}
	for p := int64(1); p <= sp.to; p *= 2 {
		for _, n := range []int64{p, p + p/2} {
			if n > sp.from && n < sp.to && n != out[len(out)-1] {
				out = append(out, n)
			}
		}
	}
	if sp.to != sp.from {
		out = append(out, sp.to)
	}
	return out
}

// sweepBytes is the most memory a run of kernel at n holds.
func sweepBytes(kernel string, n int64) int64 {
	switch kernel {
	case "perm", "perm-twopass":
		return 16 * n // X, Y, Z and the two-pass product's D
	case "matmul":
		return 12 * n * n
	}
	return sortBytesPerKey * n
}

// runSweep times the sweep, round by round (rounds of a fresh runner
// each, so that each round samples where its arrays land), and prints it
// as a report whose rows `validate --rows` reads again.
func runSweep(m machine.Machine, sp sweepSpec, rounds int, asJSON bool, stdout, stderr io.Writer) int {
	ns := sp.sizes()
	if len(ns) > maxSweepPoints {
		return fail(stderr, "validate", fmt.Errorf("--sweep: %d sizes from %s to %s; at most %d", len(ns), units.FormatCount(sp.from), units.FormatCount(sp.to), maxSweepPoints))
	}
	if mem := measure.ReadOSInfo().Memory; mem > 0 {
		if b := sweepBytes(sp.kernel, sp.to); float64(b) > memoryShare*float64(mem) {
			return fail(stderr, "validate", fmt.Errorf("--sweep: %s at %s takes %s of the %s of memory; keep TO within %.0f%% of it",
				sp.kernel, units.FormatCount(sp.to), units.FormatSize(b), units.FormatSize(mem), 100*memoryShare))
		}
	}
	rep := validateReport{Machine: m.ID, Sizes: sweepClass, MatrixRegime2N: regime2Needed(m),
		Note: "measured: the fastest run over the rounds, each round a fresh allocation; ratio = measured/predicted by the MBRAM paper's closed forms (a lower bound on the paper's machines); hier ratio = measured/predicted by the hierarchy model (an estimate)"}
	progress := func(s string) { fmt.Fprintf(stderr, "validate: %s\n", s) }
	host := hostChecks{m: m}
	for _, n := range ns {
		var timed [][]float64
		params := ""
		host.memory = readsMemory(m, sweepBytes(sp.kernel, n))
		for round := 0; round < rounds; round++ {
			p, runs, err := timeRound(sp.kernel, n, m.C, func(p string) {
				progress(fmt.Sprintf("%s %s%s", sp.kernel, p, roundNote(round, rounds)))
				host.check()
			})
			if err != nil {
				return fail(stderr, "validate", err)
			}
			params = p
			timed = append(timed, runs)
		}
		row, err := validateRowOf(m, sp.kernel, params, n, timed)
		if err != nil {
			return fail(stderr, "validate", err)
		}
		row.Class = sweepClass
		rep.Rows = append(rep.Rows, row)
	}
	host.check()
	host.report(sweepClass, &rep)
	return emitLevels(m, rep, asJSON, stdout, stderr)
}

// sweepBand is the line a sweep prints under its table: how many of its
// rows the hierarchy model predicts within its band.
func sweepBand(rows []validateRow) string {
	sweep := slices.DeleteFunc(slices.Clone(rows), func(r validateRow) bool { return r.Class != sweepClass })
	in, all := ranking.Band(runsOf(sweep))
	return fmt.Sprintf("sweep   hierarchy ratios in [%.2f, %.2f]: %d of %d", hier.BandLo, hier.BandHi, in, all)
}
