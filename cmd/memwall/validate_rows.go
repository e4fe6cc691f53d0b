package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"memwall/engine/machine"
	"memwall/presets"
)

// Rejudging a validate run: `validate --rows FILE` takes the measured rows
// of an earlier `validate --json` and predicts them again on the machine
// given, with the models as they are now, running nothing. A run at four
// times the last cache takes most of an hour; this is how a change to the
// models, or another calibration of the same machine, is read against the
// runs already made.

// maxRowsFile bounds a rows file (presets.MaxReportBytes).
const maxRowsFile = presets.MaxReportBytes

// parseValidateRows reads the rows of a validate report
// (presets.ParseValidationReport, which the Data page's import reads with
// too: a kernel the models know, a size, a measured time), and checks
// that each kernel is one validate runs. Errors name the field, as
// rows[2].n.
func parseValidateRows(data []byte) (sizes string, rows []validateRow, err error) {
	rep, err := presets.ParseValidationReport(data)
	if err != nil {
		return "", nil, err
	}
	for i, r := range rep.Rows {
		if !slices.Contains(validateKernels(), r.Kernel) {
			return "", nil, fmt.Errorf("rows[%d].kernel: %q is not one of validate's kernels (%s)", i, r.Kernel, strings.Join(validateKernels(), ", "))
		}
		rows = append(rows, validateRow{Kernel: r.Kernel, Params: r.Params, N: r.N, Measured: r.Measured, Spread: r.Spread,
			Range: r.Range, Reps: r.Repetitions, Predicted: r.Predicted, Regime: r.Regime, Class: r.Class, Hier: r.Hier})
	}
	return rep.Sizes, rows, nil
}

// validateKernels is the kernels validate runs, for messages.
func validateKernels() []string {
	return append([]string{"perm", "perm-twopass", "matmul"}, validateSorts...)
}

// rejudgeRows predicts rows on m again and summarizes them class by class
// (summarizeClass), in the order the classes first appear.
func rejudgeRows(m machine.Machine, sizes string, rows []validateRow) (validateReport, error) {
	rep := validateReport{Machine: m.ID, Sizes: sizes, MatrixRegime2N: regime2Needed(m),
		Note: "measured: the rows of an earlier run, predicted again on this machine; ratio = measured/predicted by the MBRAM paper's closed forms (a lower bound on the paper's machines); hier ratio = measured/predicted by the hierarchy model (an estimate)"}
	var order []string
	byClass := map[string][]validateRow{}
	for _, r := range rows {
		if err := predictRow(m, &r); err != nil {
			return rep, err
		}
		if _, seen := byClass[r.Class]; !seen {
			order = append(order, r.Class)
		}
		byClass[r.Class] = append(byClass[r.Class], r)
	}
	for _, c := range order {
		// A sweep is one kernel at many sizes: no sorts to rank.
		if c != sweepClass {
			rep.Classes = append(rep.Classes, summarizeClass(c, byClass[c]))
		}
		rep.Rows = append(rep.Rows, byClass[c]...)
	}
	return rep, nil
}

// runRejudge is validate --rows: read, predict again, print as a run
// prints.
func runRejudge(m machine.Machine, path string, asJSON bool, stdout, stderr io.Writer) int {
	data, err := readLimited(path, maxRowsFile)
	if err != nil {
		return fail(stderr, "validate", fmt.Errorf("--rows: %v", err))
	}
	sizes, rows, err := parseValidateRows(data)
	if err != nil {
		return fail(stderr, "validate", fmt.Errorf("--rows %s: %v", path, err))
	}
	rep, err := rejudgeRows(m, sizes, rows)
	if err != nil {
		return fail(stderr, "validate", err)
	}
	return emitLevels(m, rep, asJSON, stdout, stderr)
}
