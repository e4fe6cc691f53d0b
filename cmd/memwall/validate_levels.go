package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"memwall/engine/hier"
	"memwall/engine/machine"
	"memwall/engine/ranking"
	"memwall/engine/units"
	"memwall/measure"
)

// Size classes of validate --sizes levels: every kernel at a size whose
// data sit in the L2, in the last cache level, and at least four times
// beyond it, so that each level of the hierarchy model is what decides
// one class.

type sizeClass struct {
	name       string
	sort, perm int64 // elements
	mat        int64 // matrix dimension
	reps       int
}

// pow2Floor is the largest power of two at most v (at least 1).
func pow2Floor(v int64) int64 {
	p := int64(1)
	for p*2 <= v {
		p *= 2
	}
	return p
}

// sortBytesPerKey is the most memory a validate run of a sort holds a
// key at once: its keys and their fresh copy (4 + 4 bytes) and the simple
// sorts' two sets of buckets, each a quarter over the keys (10 bytes).
const sortBytesPerKey = 18

// memoryShare is how much of the machine's memory one kernel of validate
// may take.
const memoryShare = 0.6

// levelClasses picks the sizes from the machine's levels: in the L2 (the
// second level), all data of every kernel fit in half of it (the largest
// footprint is 16 bytes an element, and 12 bytes an entry for the three
// matrices): calibration gives a private level the size its OS lists
// where it can, the cache's whole capacity, and data that fill a
// physically indexed cache conflict in its sets before they fill it (a
// random chase over 1.4 to 1.6 MiB began to miss the Intel guest's 2 MiB
// L2); in the last cache, all of it against its size, and past the L2; beyond, the
// arrays of 4-byte keys are at least four times the last cache. When mem
// (bytes of RAM, 0: not known) cannot hold the beyond class's largest
// sort within memoryShare, that class is halved until it can and the
// warning says so: a guest that sees a 289 MiB share of its host's last
// cache needs 2^29 keys, 9.7 GB for the simple sorts.
func levelClasses(m machine.Machine, mem int64) ([]sizeClass, string) {
	lv := m.Hierarchy()
	l2 := lv[min(1, len(lv)-1)].Size
	llc := lv[len(lv)-1].Size
	beyond := pow2Floor(llc)
	if beyond < llc {
		beyond *= 2
	}
	warn := ""
	if mem > 0 && float64(sortBytesPerKey*beyond) > memoryShare*float64(mem) {
		want := beyond
		for beyond > 1 && float64(sortBytesPerKey*beyond) > memoryShare*float64(mem) {
			beyond /= 2
		}
		warn = fmt.Sprintf("the beyond class's %s keys would take %s of the %s of memory; it sorts %s keys instead, %.1f times the last cache", units.FormatCount(want),
			units.FormatSize(sortBytesPerKey*want), units.FormatSize(mem), units.FormatCount(beyond), float64(4*beyond)/float64(llc))
	}
	llcMat := matDim(min(llc, 12*1200*1200))
	return []sizeClass{
		{name: "l2", sort: pow2Floor(l2 / 32), perm: pow2Floor(l2 / 32), mat: matDim(l2 / 2), reps: 5},
		{name: "llc", sort: pow2Floor(llc / 16), perm: pow2Floor(llc / 16), mat: llcMat, reps: 3},
		{name: "beyond", sort: beyond, perm: beyond, mat: beyondMat(m, llc, llcMat), reps: beyondRounds},
	}, warn
}

// matDim is the matrix dimension whose three matrices of 4-byte entries
// fill bytes, as an odd multiple of 8.
func matDim(bytes int64) int64 { return measure.OddEight(int64(math.Sqrt(float64(bytes) / 12))) }

// matCap bounds the beyond class's matrix dimension: n = 2600 is about
// half a minute a run on the AMD guest.
const matCap = 2600

// qPast is how many times the last cache the matrix product's reused
// matrix Q (n²·w bytes) is in the beyond class, when the cap allows.
const qPast = 1.25

// beyondMat is the beyond class's matrix dimension: its three matrices
// four times the last cache of llc bytes (up to matCap), so that Q is
// 1.33 times it. Where Q can be at least qPast times the cache, it stays
// there, the translation's knee (belowKnee) lowering n no further: with
// Q within a factor of the cache the estimate turns on the cache's size
// (Q comes in once, or once a row of P), and on the AMD guest, whose L3
// share (8 to 15.5 MiB) lies near its translation reach (some 2900
// pages), the knee put Q at 0.98 of the cache, where the product ran at
// 1.27 to 1.33 of an estimate that the calibration's own spreads moved by
// 47 %; past both, n = 2008 to 2504, it ran at 0.88. Where Q cannot get
// past the cache (a large last cache), the knee may lower n to the
// last-cache class's, and Q is kept to at most half the cache.
func beyondMat(m machine.Machine, llc, llcMat int64) int64 {
	target := matDim(min(4*llc, 12*matCap*matCap))
	// The least odd multiple of 8 with 4·n² ≥ qPast·llc.
	edge := measure.OddEight(int64(math.Ceil(math.Sqrt(qPast*float64(llc)/4))) + 15)
	if edge <= target {
		return belowKnee(m, target, edge)
	}
	n := belowKnee(m, target, llcMat)
	if half := measure.OddEight(int64(math.Sqrt(float64(llc) / 8))); n > half {
		n = max(half, llcMat)
	}
	return n
}

// beyondRounds is the beyond class's rounds unless --reps says: two, so
// that each sort's order comes with the range of its rounds (misordered)
// even there. Beyond the caches a sort's runs move by more than the model
// sets some of them apart: on the development guest the counting radix
// sort of 2^28 keys ran in 6.31 to 7.14 s over four runs, and the simple
// bucket sort, which the model puts within a few percent of it, in 6.68
// to 7.02; one run each orders them by chance.
const beyondRounds = 2

// kneeMargin is how far below the translation buffer's reach a matrix
// column's pages stay in validate. On the development machine, whose
// reach is 2048 to 2156 pages, the product's inner step rose from 0.84 to
// 1.22 ns between n = 1400 and 1510 (rows of 6040 B, a page and a half),
// and a gather over 8000-byte steps missed from 1448 pages: misses began
// at 0.69 to 0.71 of the reach, and the margin is a tenth below that
// (docs/hierarchy.md).
const kneeMargin = 0.6

// kneeStart is where, as a share of the reach, the product's misses
// began on the development machine (above).
const kneeStart = 0.69

// belowKnee moves a matrix dimension n whose column's pages (one to a
// page from n = 1024 on: rows of 4 KiB or more) would come within
// kneeMargin of the machine's translation reach (machine.WalkReach) down
// to that margin, an odd multiple of 8 again, but not below floor. When
// the margin lies below floor, floor itself is taken if its column stays
// under kneeStart of the reach, and n is kept otherwise: a column just
// past the reach, as n = 1992 against a reach of 1919 pages was on the
// development machine, is where the share of reads that miss is least
// known (it ran at 0.80 of its prediction there, where n = 1992 against
// a reach of some 2100 pages had run at 0.96).
// Near the reach the share of a column's reads that miss turns on how
// its pages fall in the buffer's sets, which no parameter of the machine
// holds, as a dimension that is a multiple of 128 turns on the caches'
// sets; validate tests the levels and the walk on either side of it.
func belowKnee(m machine.Machine, n, floor int64) int64 {
	reach := m.WalkReach()
	if reach == 0 {
		return n
	}
	pages := reach / machine.WalkPage
	most := measure.OddEight(int64(kneeMargin * pages))
	switch {
	case n <= most:
		return n
	case most > floor:
		return most
	case float64(floor) <= kneeStart*pages:
		return min(floor, n)
	}
	return n
}

func runValidateLevels(m machine.Machine, fs *flag.FlagSet, reps int, asJSON bool, stdout, stderr io.Writer) int {
	rep := validateReport{Machine: m.ID, Sizes: "levels", MatrixRegime2N: regime2Needed(m),
		Note: "measured: the fastest of the repetitions; ratio = measured/predicted by the MBRAM paper's closed forms (a lower bound on the paper's machines); hier ratio = measured/predicted by the hierarchy model (an estimate)"}
	progress := func(s string) { fmt.Fprintf(stderr, "validate: %s\n", s) }
	if isSet(fs, "reps") {
		if err := checkReps(reps); err != nil {
			return fail(stderr, "validate", err)
		}
	}
	classes, warn := levelClasses(m, measure.ReadOSInfo().Memory)
	if warn != "" {
		progress(warn)
		rep.Note += "; " + warn
	}
	host := hostChecks{m: m}
	for _, c := range classes {
		sz := validateSizes{perm: c.perm, sort: c.sort, mat1: c.mat, reps: c.reps}
		if isSet(fs, "reps") {
			sz.reps = reps
		}
		progress(fmt.Sprintf("size class %s: N = %s, matrices n = %d", c.name, units.FormatCount(c.sort), c.mat))
		// The core's speed at every round's start, and at the class's end;
		// memory's too where the class's data reaches it.
		host.memory = readsMemory(m, 4*c.sort)
		rows, err := runValidateKernels(m, sz, 0, func(s string) { progress(s); host.check() })
		host.check()
		if err != nil {
			return fail(stderr, "validate", err)
		}
		for i := range rows {
			rows[i].Class = c.name
		}
		rep.Classes = append(rep.Classes, summarizeClass(c.name, rows))
		rep.Rows = append(rep.Rows, rows...)
		host.report(c.name, &rep)
	}
	return emitLevels(m, rep, asJSON, stdout, stderr)
}

// emitLevels prints a report of size classes, as JSON or as tables.
func emitLevels(m machine.Machine, rep validateReport, asJSON bool, stdout, stderr io.Writer) int {
	if asJSON {
		if err := writeJSON(stdout, rep); err != nil {
			return fail(stderr, "validate", err)
		}
		return 0
	}
	printValidateLevels(stdout, m, rep)
	return 0
}

// summarizeClass ranks the sorts and names the faster permutation
// product of one size class's rows, by both models.
func summarizeClass(name string, rows []validateRow) classSummary {
	return ranking.Summarize(name, runsOf(rows))
}

// runsOf is the rows as the ranking reads them.
func runsOf(rows []validateRow) []ranking.Run {
	runs := make([]ranking.Run, len(rows))
	for i, r := range rows {
		runs[i] = ranking.Run{Kernel: r.Kernel, Measured: r.Measured, Range: r.Range, Predicted: r.Predicted, Hier: r.Hier, HierShifts: r.hierShifts}
	}
	return runs
}

func printValidateLevels(w io.Writer, m machine.Machine, rep validateReport) {
	fmt.Fprintf(w, "machine %s:", m.ID)
	for _, l := range m.Hierarchy() {
		fmt.Fprintf(w, " %s %s", l.Name, units.FormatSize(l.Size))
	}
	if m.LevelOverlap > 0 && len(m.Levels) >= 2 {
		fmt.Fprintf(w, " (levels' transfers overlap, ω = %.3g)", m.LevelOverlap)
	}
	if m.WalkInFlight > 0 {
		fmt.Fprintf(w, " (a heap walk's lines in flight %.3g)", m.WalkInFlight)
	}
	fmt.Fprintf(w, "; paper's beta1 %s, beta2 %s, m %s\n", units.FormatBandwidth(m.Beta1), units.FormatBandwidth(m.Beta2), units.FormatSeconds(m.M))
	fmt.Fprintf(w, "\n%-7s %-13s %-20s %11s %7s %11s %7s %11s %7s %7s\n", "class", "kernel", "params", "measured", "spread", "MBRAM", "ratio", "hierarchy", "±", "ratio")
	for _, r := range rep.Rows {
		hs, hr := hierCells(r)
		fmt.Fprintf(w, "%-7s %-13s %-20s %11s %6.1f%% %11s %7.2f %11s %6.1f%% %7s\n", r.Class, r.Kernel, r.Params, units.FormatSeconds(r.Measured), 100*r.Spread, units.FormatSeconds(r.Predicted), r.Ratio, hs, 100*r.HierUncertainty, hr)
	}
	fmt.Fprintln(w, "± : how far the calibration's spreads move the hierarchy prediction, each parameter by its own, added in quadrature")
	fmt.Fprintln(w)
	for _, c := range rep.Classes {
		fmt.Fprintf(w, "%-7s hierarchy ratios in [%.2f, %.2f]: %d of %d; sort ranking (Spearman) MBRAM %.3f, hierarchy %.3f; faster permutation product: measured %s, MBRAM %s, hierarchy %s%s\n",
			c.Class, hier.BandLo, hier.BandHi, c.InBand, c.Rows, c.SpearmanSorts, c.SpearmanSortsHier, c.PermWinner, c.PermPredicted, c.PermPredictedHier, permTieNote(c))
		fmt.Fprintf(w, "%-7s sort pairs ordered against the measurement (a < b: a ran faster): MBRAM %s; hierarchy %s\n",
			"", pairList(c.MisorderedPairs, c.SortPairs), pairList(c.MisorderedHier, c.SortPairs))
		fmt.Fprintf(w, "%-7s of those, apart by more than the range of either's rounds: MBRAM %s; hierarchy %s\n",
			"", pairList(c.MisorderedBeyondNoise, c.SortPairs), pairList(c.MisorderedHierBeyondNoise, c.SortPairs))
		fmt.Fprintf(w, "%-7s and predicted apart by more than the calibration's spreads move the gap: hierarchy %s\n",
			"", pairList(c.MisorderedHierResolved, c.SortPairs))
	}
	printHostSpeeds(w, rep)
	if slices.ContainsFunc(rep.Rows, func(r validateRow) bool { return r.Class == sweepClass }) {
		fmt.Fprintln(w, sweepBand(rep.Rows))
	}
	fmt.Fprintln(w, "* outside the band; ratio = measured/predicted")
	for _, n := range nearFitNotes(rep.Rows) {
		fmt.Fprintln(w, n)
	}
}

// pairList shows the misordered pairs: how many of all, and which.
func pairList(ps []string, all int) string {
	if len(ps) == 0 {
		return fmt.Sprintf("none of %d", all)
	}
	return fmt.Sprintf("%d of %d (%s)", len(ps), all, strings.Join(ps, ", "))
}

// permTieNote says when a class's faster permutation product is no
// measurement of the kernels (the two ran closer than their rounds' range)
// or no call of the hierarchy model (its gap within what the calibration's
// spreads move it).
func permTieNote(c ranking.Summary) string {
	switch {
	case c.PermWithinNoise && c.PermHierTied:
		return " (measured closer than the range of either's rounds, and predicted closer than the calibration's spreads move the gap)"
	case c.PermWithinNoise:
		return " (measured closer than the range of either's rounds: the measurement names no faster one)"
	case c.PermHierTied:
		return " (the hierarchy model's gap is within what the calibration's spreads move it)"
	}
	return ""
}
