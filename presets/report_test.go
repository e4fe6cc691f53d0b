package presets

import (
	"path"
	"strings"
	"testing"

	"memwall/engine/mbram"
)

// TestParseValidationReport: what a report must hold, each fault named by
// its field; the reports that ship (a validate --json with an id, a title
// and a source added) read as they load.
func TestParseValidationReport(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{`{"machine":"xeon-m207-kvm-2vcpu","sizes":"levels","rows":[{"kernel":"perm","n":65536,"measured_seconds":2e-5,"class":"l2"}],"classes":[{"class":"l2"}],"host_speed":[]}`, ""},
		{"\xef\xbb\xbf" + `{"rows":[{"kernel":"heapsort","n":8,"measured_seconds":1}]}`, ""},
		{`not json`, "not a validate --json report"},
		{`{"rows":[]}`, "rows: the report has none"},
		{`{"rows":[{"kernel":"bogo","n":8,"measured_seconds":1}]}`, `rows[0].kernel: "bogo" is not one of the models' kernels`},
		{`{"rows":[{"kernel":"perm","n":8,"measured_seconds":1},{"kernel":"heapsort","n":0,"measured_seconds":1}]}`, "rows[1].n: 0"},
		{`{"rows":[{"kernel":"perm","n":1099511627777,"measured_seconds":1}]}`, "rows[0].n: 1099511627777; want 1 to 2^40"},
		{`{"rows":[{"kernel":"perm","n":8,"measured_seconds":-1}]}`, "rows[0].measured_seconds: -1"},
		{`{"rows":[{"kernel":"perm","n":8,"measured_seconds":0}]}`, "rows[0].measured_seconds: 0"},
		{`{"rows":[{"kernel":"perm","n":8,"measured_seconds":1,"measured_range":-0.5}]}`, "rows[0].measured_range: -0.5"},
		{`{"rows":[{"kernel":"radix","n":8,"b":1,"measured_seconds":1}]}`, "rows[0].b: buckets must be"},
		{`{"rows":[{"kernel":"perm","n":8,"measured_seconds":1}]} {}`, "validate report"},
		{`{"rows":[{"kernel":"perm","kernel":"heapsort","n":8,"measured_seconds":1}]}`, `"kernel"`},
		{`{"rows":[{"kernel":"perm","n":"8","measured_seconds":1}]}`, "not a validate --json report"},
	} {
		_, err := ParseValidationReport([]byte(tc.in))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v", tc.in, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: error %v, want one with %q", tc.in, err, tc.want)
		}
	}
	entries, err := validationFiles.ReadDir("validation")
	if err != nil || len(entries) == 0 {
		t.Fatalf("shipped reports: %v", err)
	}
	for _, e := range entries {
		data, _ := validationFiles.ReadFile(path.Join("validation", e.Name()))
		s, err := ParseValidationReport(data)
		if err != nil || len(s.Rows) != 30 || s.Machine == "" {
			t.Errorf("%s: %d rows of machine %q, error %v; want its 30 rows", e.Name(), len(s.Rows), s.Machine, err)
		}
	}
}

// TestIsValidationReport: a report is an object with rows of objects; a
// data set is an array of row objects or an object with columns.
func TestIsValidationReport(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{`{"machine":"m","rows":[{"kernel":"perm"}]}`, true},
		{"\xef\xbb\xbf \n" + `{"rows":[{"kernel":"perm"}]}`, true},
		{`[{"kernel":"perm","n":8,"seconds":1}]`, false},
		{`{"columns":["kernel","n"],"rows":[["perm",8]]}`, false},
		{`{"rows":[["perm",8]]}`, false},
		{`{"rows":[]}`, false},
		{`kernel,n,seconds`, false},
		{``, false},
	} {
		if got := IsValidationReport([]byte(tc.in)); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.in, got, tc.want)
		}
	}
}

// FuzzParseValidationReport: any bytes give a report whose every row a
// model can predict, or an error; never a panic.
func FuzzParseValidationReport(f *testing.F) {
	f.Add([]byte(`{"machine":"xeon-m207-kvm-2vcpu","rows":[{"kernel":"radix-count","n":16777216,"measured_seconds":0.34,"class":"llc","measured_range":0.04}]}`))
	f.Add([]byte(`{"rows":[{"kernel":"matmul","n":1240,"measured_seconds":1.65}]}`))
	f.Add([]byte(`{"rows":[{"kernel":"perm","n":1099511627776,"measured_seconds":1e300}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		IsValidationReport(data)
		s, err := ParseValidationReport(data)
		if err != nil {
			return
		}
		m, _ := Machine("xeon-m207-kvm-2vcpu")
		for i, r := range s.Rows {
			if r.N < 1 || !(r.Measured > 0) {
				t.Fatalf("row %d accepted: %+v", i, r)
			}
			if _, err := mbram.Predict(m, r.Kernel, r.Workload()); err != nil {
				t.Fatalf("row %d accepted but not predictable: %v", i, err)
			}
		}
	})
}
