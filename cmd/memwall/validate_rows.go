package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"memwall/engine/machine"
	"memwall/internal/jsonx"
)

// Rejudging a validate run: `validate --rows FILE` takes the measured rows
// of an earlier `validate --json` and predicts them again on the machine
// given, with the models as they are now, running nothing. A run at four
// times the last cache takes most of an hour; this is how a change to the
// models, or another calibration of the same machine, is read against the
// runs already made.

// maxRowsFile and maxRows bound a rows file: a levels report has 30 rows
// and some 20 KB.
const (
	maxRowsFile = 4 << 20
	maxRows     = 1000
	maxRowN     = 1 << 40
)

// parseValidateRows reads the rows of a validate report, checking what a
// prediction needs of each: a kernel the models know, a size, and a
// measured time. Errors name the field, as rows[2].n.
func parseValidateRows(data []byte) (sizes string, rows []validateRow, err error) {
	var rep validateReport
	if err := jsonx.Unmarshal(data, &rep); err != nil {
		return "", nil, fmt.Errorf("not a validate --json report: %v", err)
	}
	if len(rep.Rows) == 0 {
		return "", nil, errors.New("rows: the report has none")
	}
	if len(rep.Rows) > maxRows {
		return "", nil, fmt.Errorf("rows: %d of them; at most %d are accepted", len(rep.Rows), maxRows)
	}
	for i, r := range rep.Rows {
		at := fmt.Sprintf("rows[%d].", i)
		if !slices.Contains(validateKernels(), r.Kernel) {
			return "", nil, fmt.Errorf("%skernel: %q is not one of validate's kernels (%s)", at, r.Kernel, strings.Join(validateKernels(), ", "))
		}
		if r.N < 1 || r.N > maxRowN {
			return "", nil, fmt.Errorf("%sn: %d; want 1 to 2^40", at, r.N)
		}
		if !(r.Measured > 0) || math.IsInf(r.Measured, 0) {
			return "", nil, fmt.Errorf("%smeasured_seconds: %v; want a positive number of seconds", at, r.Measured)
		}
		if !(r.Range >= 0) || math.IsInf(r.Range, 0) {
			return "", nil, fmt.Errorf("%smeasured_range: %v; want a share of 0 or more", at, r.Range)
		}
	}
	return rep.Sizes, rep.Rows, nil
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
