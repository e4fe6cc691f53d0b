package main

import (
	"fmt"
	"io"
	"math"
	"slices"

	"memwall/engine/hier"
	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/units"
	"memwall/measure"
)

// estimateChange is the hierarchy model's estimate of one row of
// validate --sizes levels on two machines.
type estimateChange struct {
	class, kernel string
	n             int64 // elements, or the matrix dimension
	a, b          float64
}

// rel is the change from a to b as a share of a.
func (e estimateChange) rel() float64 { return (e.b - e.a) / e.a }

// rowKey names a row of validate --sizes levels: its class, kernel and
// size.
type rowKey struct {
	class, kernel string
	n             int64
}

func (e estimateChange) key() rowKey { return rowKey{e.class, e.kernel, e.n} }

// movesAlone is compareEstimates from a to a with the parameters of
// group as b has them and everything else as a has it
// (measure.WithParamOf), or why that is not a valid machine.
func movesAlone(a, b machine.Machine, group string) ([]estimateChange, error) {
	m, err := measure.WithParamOf(a, b, group)
	if err == nil {
		err = m.Validate()
	}
	if err != nil {
		return nil, err
	}
	return compareEstimates(a, m), nil
}

// compareEstimates is the hierarchy model's estimate of every row of
// validate --sizes levels on a and on b, at the sizes a's levels give
// (levelClasses, with no bound from this machine's memory: nothing is
// run). Two calibrations' parameters say how far each moved; these say
// how far what a user is told moved, which no one parameter does: one
// past a kink moves no estimate (the stream test's count of buckets,
// where every sort of validate's passes into 64), and one that every
// step of a kernel pays moves it by its share. Rows either machine
// cannot estimate (a kernel with no rate for its work) are left out.
func compareEstimates(a, b machine.Machine) []estimateChange {
	classes, _ := levelClasses(a, 0)
	var out []estimateChange
	for _, c := range classes {
		jobs := productJobs(c.perm, c.mat)
		for _, k := range validateSorts {
			jobs = append(jobs, kernelJob{k, c.sort})
		}
		for _, j := range jobs {
			p := mbram.DefaultParams(j.n)
			ea, errA := hier.Model(a, j.kernel, p)
			eb, errB := hier.Model(b, j.kernel, p)
			if errA != nil || errB != nil || ea.NoCompute || eb.NoCompute || !(ea.Seconds > 0) || !(eb.Seconds > 0) {
				continue
			}
			out = append(out, estimateChange{class: c.name, kernel: j.kernel, n: j.n, a: ea.Seconds, b: eb.Seconds})
		}
	}
	return out
}

// printEstimateChanges prints compareEstimates' rows, marks those that
// moved by more than measure.AgreeWithin and ends with how many did and
// which moved most.
func printEstimateChanges(w io.Writer, ch []estimateChange, nameA, nameB string) {
	if len(ch) == 0 {
		return
	}
	fmt.Fprintf(w, "\nthe hierarchy model's estimates of validate --sizes levels' rows, at the sizes %s's levels give:\n", nameA)
	fmt.Fprintf(w, "%-7s %-13s %8s %14s %14s %9s\n", "class", "kernel", "n", nameA, nameB, "change")
	over, most := 0, ch[0]
	for _, e := range ch {
		mark := ""
		if math.Abs(e.rel()) > measure.AgreeWithin {
			mark = fmt.Sprintf("  > %d%%", int(100*measure.AgreeWithin))
			over++
		}
		if math.Abs(e.rel()) > math.Abs(most.rel()) {
			most = e
		}
		fmt.Fprintf(w, "%-7s %-13s %8s %14s %14s %+8.1f%%%s\n", e.class, e.kernel, units.FormatCount(e.n),
			units.FormatSeconds(e.a), units.FormatSeconds(e.b), 100*e.rel(), mark)
	}
	fmt.Fprintf(w, "%d of %d estimates differ by more than %d%%; the most, %s in the %s class, by %+.1f%%\n",
		over, len(ch), int(100*measure.AgreeWithin), most.kernel, most.class, 100*most.rel())
}

// paramEffect is what one group of parameters that two calibrations read
// differently does on its own to the hierarchy model's estimates of
// validate's rows (compareEstimates): the row it moves most, and by how
// much, or why the group cannot stand alone.
type paramEffect struct {
	group   string
	most    estimateChange // zero when there is no row, or invalid says why not
	invalid string
}

// paramEffects takes the groups (measure.ParamGroup) of the parameters
// in diffs that differ by more than measure.AgreeWithin, each into a on
// its own from b (measure.WithParamOf), and finds the row of
// compareEstimates it moves most. Two calibrations in a row on a shared
// machine differ in many parameters (the Zen 5 guest's: 11 to 28 of 67,
// docs/hierarchy.md), most of them in what no estimate of validate's
// rows reads much: a walk's lines in flight that read 8 and 39 moved the
// heapsort estimate by 3 %. This says which of the differences matter.
func paramEffects(a, b machine.Machine, diffs []measure.Diff) []paramEffect {
	var out []paramEffect
	seen := map[string]bool{}
	for _, d := range diffs {
		g := measure.ParamGroup(d.Param)
		if !(d.Rel > measure.AgreeWithin) || seen[g] {
			continue
		}
		seen[g] = true
		e := paramEffect{group: g}
		moved, err := movesAlone(a, b, g)
		if err != nil {
			e.invalid = err.Error()
			out = append(out, e)
			continue
		}
		for _, c := range moved {
			if e.most.a == 0 || math.Abs(c.rel()) > math.Abs(e.most.rel()) {
				e.most = c
			}
		}
		out = append(out, e)
	}
	return out
}

// printParamEffects prints paramEffects and how many groups move some
// estimate by more than measure.AgreeWithin on their own.
func printParamEffects(w io.Writer, effects []paramEffect, nameA, nameB string) {
	if len(effects) == 0 {
		return
	}
	fmt.Fprintf(w, "\nwhat each parameter that differs by more than %d%% does alone (%s's value in %s; the same rows, the one it moves most):\n",
		int(100*measure.AgreeWithin), nameB, nameA)
	over := 0
	for _, e := range effects {
		switch {
		case e.invalid != "":
			fmt.Fprintf(w, "%-28s not a valid machine alone: %s\n", e.group, e.invalid)
		case e.most.a == 0 || e.most.rel() == 0:
			fmt.Fprintf(w, "%-28s moves no estimate\n", e.group)
		default:
			mark := ""
			if math.Abs(e.most.rel()) > measure.AgreeWithin {
				mark = fmt.Sprintf("  > %d%%", int(100*measure.AgreeWithin))
				over++
			}
			fmt.Fprintf(w, "%-28s %-7s %-13s %8s %+8.1f%%%s\n", e.group, e.most.class, e.most.kernel, units.FormatCount(e.most.n), 100*e.most.rel(), mark)
		}
	}
	fmt.Fprintf(w, "%d of %d move an estimate by more than %d%% on their own\n", over, len(effects), int(100*measure.AgreeWithin))
}

// estimateCause is one row of compareEstimates that two calibrations
// move by more than measure.AgreeWithin, and the group of parameters
// (measure.ParamGroup) that moves it most on its own, with that move.
type estimateCause struct {
	row   estimateChange
	group string // "" where no group alone moves the row
	alone float64
}

// estimateCauses finds, for each row of changes that moved by more than
// measure.AgreeWithin, the group of parameters that moves it most when
// taken alone from b into a: every group both machines have, not only
// those paramEffects lists. A row can move with no parameter past 10 %:
// a curve is compared by a summary of its points (the column curve by
// each place count's median), and the point a kernel reads can move
// more. On the Zen 5 guest (d1 → d2, 2026-12-07) the matrix product in
// the last-level class moved by 21 %, every column-curve summary by
// under 9 %, and the point it reads, 64 places and 1024 lines, by 21 %.
func estimateCauses(a, b machine.Machine, changes []estimateChange) []estimateCause {
	var out []estimateCause
	for _, c := range changes {
		if math.Abs(c.rel()) > measure.AgreeWithin {
			out = append(out, estimateCause{row: c})
		}
	}
	if len(out) == 0 {
		return nil
	}
	pb := measure.Params(b)
	var groups []string
	for p := range measure.Params(a) {
		if _, ok := pb[p]; ok {
			groups = append(groups, measure.ParamGroup(p))
		}
	}
	slices.Sort(groups)
	for _, g := range slices.Compact(groups) {
		changes, err := movesAlone(a, b, g)
		if err != nil {
			continue // paramEffects says why a group cannot stand alone
		}
		moved := map[rowKey]float64{}
		for _, c := range changes {
			moved[c.key()] = c.rel()
		}
		for i, c := range out {
			r := moved[c.row.key()]
			if math.Abs(r) > math.Abs(c.alone) {
				out[i].group, out[i].alone = g, r
			}
		}
	}
	return out
}

// printEstimateCauses prints estimateCauses: each row that moved, and
// the group that moves it most alone.
func printEstimateCauses(w io.Writer, causes []estimateCause, nameA, nameB string) {
	if len(causes) == 0 {
		return
	}
	fmt.Fprintf(w, "\nthe estimates that differ by more than %d%%, and the parameter that moves each most on its own (%s's value in %s), of all the parameters:\n",
		int(100*measure.AgreeWithin), nameB, nameA)
	for _, c := range causes {
		cause := "no one parameter moves it"
		if c.group != "" {
			cause = fmt.Sprintf("%-28s %+8.1f%%", c.group, 100*c.alone)
		}
		fmt.Fprintf(w, "%-7s %-13s %8s %+8.1f%%   %s\n", c.row.class, c.row.kernel, units.FormatCount(c.row.n), 100*c.row.rel(), cause)
	}
}
