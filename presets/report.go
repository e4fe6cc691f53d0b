package presets

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"memwall/engine/mbram"
	"memwall/internal/strictjson"
)

// A validate report is the JSON `memwall validate --json` writes: the
// machine's id, the size classes and one row per kernel run, with what
// was measured. ParseValidationReport reads one as a ValidationSet, the
// shape the shipped tables have, so that `validate --rows` and the Data
// page's import take a user's run by one path and check it the same way.

// Bounds of a validate report: a levels run has 30 rows and some 20 KB; a
// sweep a few dozen rows.
const (
	MaxReportBytes = 4 << 20
	MaxReportRows  = 1000
	MaxReportN     = 1 << 40
)

// IsValidationReport says whether data look like a validate report rather
// than a data set (engine/dataset): a JSON object whose "rows" hold
// objects and which has no "columns". It reads no further than that; the
// report's faults are ParseValidationReport's to name.
func IsValidationReport(data []byte) bool {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if t := bytes.TrimSpace(data); len(t) == 0 || t[0] != '{' {
		return false
	}
	var doc struct {
		Columns json.RawMessage   `json:"columns"`
		Rows    []json.RawMessage `json:"rows"`
	}
	if json.Unmarshal(data, &doc) != nil || doc.Columns != nil || len(doc.Rows) == 0 {
		return false
	}
	first := bytes.TrimSpace(doc.Rows[0])
	return len(first) > 0 && first[0] == '{'
}

// ParseValidationReport reads a validate report. Each row needs a kernel
// the models know, a size, and a measured time; faults are named by
// their field (rows[2].n). Fields the report has beside the rows (its
// classes, notes, the host's speed) are what validate printed and are
// not read: the rows are predicted again on the machine as it is.
func ParseValidationReport(data []byte) (ValidationSet, error) {
	if len(data) > MaxReportBytes {
		return ValidationSet{}, fmt.Errorf("the report is %d bytes; at most %d are read", len(data), MaxReportBytes)
	}
	data, err := strictjson.Check(data, "validate report")
	if err != nil {
		return ValidationSet{}, err
	}
	var s ValidationSet
	if err := json.Unmarshal(data, &s); err != nil {
		return ValidationSet{}, fmt.Errorf("not a validate --json report: %v", err)
	}
	s.Machine = strings.TrimSpace(s.Machine)
	switch {
	case len(s.Rows) == 0:
		return s, errors.New("rows: the report has none")
	case len(s.Rows) > MaxReportRows:
		return s, fmt.Errorf("rows: %d of them; at most %d are accepted", len(s.Rows), MaxReportRows)
	}
	for i, r := range s.Rows {
		at := fmt.Sprintf("rows[%d].", i)
		k, ok := mbram.Lookup(r.Kernel)
		if !ok {
			return s, fmt.Errorf("%skernel: %q is not one of the models' kernels (%s)", at, r.Kernel, strings.Join(mbram.IDs(), ", "))
		}
		if r.N < 1 || r.N > MaxReportN {
			return s, fmt.Errorf("%sn: %d; want 1 to 2^40", at, r.N)
		}
		if !(r.Measured > 0) || math.IsInf(r.Measured, 0) {
			return s, fmt.Errorf("%smeasured_seconds: %v; want a positive number of seconds", at, r.Measured)
		}
		if !(r.Range >= 0) || math.IsInf(r.Range, 0) {
			return s, fmt.Errorf("%smeasured_range: %v; want a share of 0 or more", at, r.Range)
		}
		if err := k.Check(r.Workload()); err != nil {
			return s, fmt.Errorf("%s%v", at, err)
		}
	}
	return s, nil
}
