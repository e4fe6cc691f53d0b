package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memwall/presets"
)

// TestParseValidateRows: what a rows file must hold, each fault named by
// its field.
func TestParseValidateRows(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{`{"sizes":"levels","rows":[{"kernel":"perm","n":65536,"measured_seconds":2e-5,"class":"l2"}]}`, ""},
		{`not json`, "not a validate --json report"},
		{`{"rows":[]}`, "rows: the report has none"},
		{`{"rows":[{"kernel":"bogo","n":8,"measured_seconds":1}]}`, `rows[0].kernel: "bogo"`},
		{`{"rows":[{"kernel":"perm","n":8,"measured_seconds":1},{"kernel":"heapsort","n":0,"measured_seconds":1}]}`, "rows[1].n: 0"},
		{`{"rows":[{"kernel":"perm","n":8,"measured_seconds":-1}]}`, "rows[0].measured_seconds: -1"},
		{`{"rows":[{"kernel":"perm","n":8,"measured_seconds":1,"measured_range":-0.5}]}`, "rows[0].measured_range: -0.5"},
	} {
		_, rows, err := parseValidateRows([]byte(tc.in))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.in, err)
		case tc.want == "" && len(rows) != 1:
			t.Errorf("%s: %d rows, want 1", tc.in, len(rows))
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want one with %q", tc.in, err, tc.want)
		}
	}
}

// FuzzParseValidateRows: any bytes give rows fit to predict or an error,
// never a panic, and rejudging accepted rows gives finite, non-negative
// numbers.
func FuzzParseValidateRows(f *testing.F) {
	f.Add([]byte(`{"sizes":"levels","rows":[{"kernel":"radix-count","n":16777216,"measured_seconds":0.34,"class":"llc","measured_range":0.04}]}`))
	f.Add([]byte(`{"rows":[{"kernel":"matmul","n":1240,"measured_seconds":1.65}]}`))
	f.Add([]byte(`{"rows":[{"kernel":"perm","n":1099511627776,"measured_seconds":1e300}]}`))
	m, ok := presets.Machine("xeon-kvm-2vcpu")
	if !ok {
		f.Fatal("no preset xeon-kvm-2vcpu")
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sizes, rows, err := parseValidateRows(data)
		if err != nil {
			return
		}
		rep, err := rejudgeRows(m, sizes, rows)
		if err != nil {
			return
		}
		for _, r := range rep.Rows {
			for _, v := range []float64{r.Predicted, r.Ratio, r.Hier, r.HierRatio, r.HierUncertainty} {
				if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
					t.Fatalf("row %+v: a number that is not finite and non-negative", r)
				}
			}
		}
	})
}

// TestRejudgeShippedTable: the shipped validate table of the development
// machine, predicted again on its preset, gives back the hierarchy
// predictions the run recorded (its file's hier_predicted_seconds, which
// the run wrote; TestValidationSets holds them to the engine), and the
// preset's spreads give each row an uncertainty.
func TestRejudgeShippedTable(t *testing.T) {
	path := filepath.Join("..", "..", "presets", "validation", "xeon-kvm-2vcpu.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want struct {
		Rows []struct {
			Kernel string  `json:"kernel"`
			Class  string  `json:"class"`
			Hier   float64 `json:"hier_predicted_seconds"`
		} `json:"rows"`
	}
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := runValidate([]string{"--machine", "xeon-kvm-2vcpu", "--rows", path, "--json"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got validateReport
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Rows) != len(want.Rows) || len(got.Rows) == 0 {
		t.Fatalf("%d rows, want %d", len(got.Rows), len(want.Rows))
	}
	for i, r := range got.Rows {
		w := want.Rows[i]
		if r.Kernel != w.Kernel || r.Class != w.Class || math.Abs(r.Hier-w.Hier) > 1e-9*w.Hier {
			t.Errorf("row %d: %s %s %.6g s, want %s %s %.6g s", i, r.Class, r.Kernel, r.Hier, w.Class, w.Kernel, w.Hier)
		}
		if !(r.HierUncertainty > 0) {
			t.Errorf("row %d %s: uncertainty %v, want a share above 0 from the preset's spreads", i, r.Kernel, r.HierUncertainty)
		}
	}
	if len(got.Classes) != 3 {
		t.Errorf("%d classes, want l2, llc and beyond", len(got.Classes))
	}
}
