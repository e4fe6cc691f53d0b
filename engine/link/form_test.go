package link_test

import (
	"strings"
	"testing"

	"memwall/engine/link"
)

var testForm = link.Form{
	Model:    "communication",
	Keys:     []string{"kind", "W", "w"},
	Defaults: func() link.Inputs { return link.Inputs{"kind": "columns", "W": "4000", "w": "4"} },
	Skip:     func(in link.Inputs, k string) bool { return k == "w" && in["kind"] == "rows" },
}

// TestFormRoundTrips writes inputs as a link and as a file and reads them
// back: each route gives the inputs it was given.
func TestFormRoundTrips(t *testing.T) {
	in := link.Inputs{"kind": "columns", "W": "4 KiB", "w": "8"}
	frag, err := testForm.Fragment(in)
	if err != nil || frag != "kind=columns&W=4+KiB&w=8" {
		t.Fatalf("Fragment = %q, %v", frag, err)
	}
	got, es := testForm.Read("#" + frag)
	if len(es) > 0 || got["W"] != "4 KiB" || got["w"] != "8" {
		t.Errorf("Read(Fragment) = %v, %v", got, es)
	}
	got2, err := testForm.ParseJSON(testForm.JSON(in))
	if err != nil || got2["W"] != "4 KiB" || got2["w"] != "8" || got2["kind"] != "columns" {
		t.Errorf("ParseJSON(JSON) = %v, %v", got2, err)
	}
	rows, _ := testForm.Fragment(link.Inputs{"kind": "rows", "W": "4000", "w": "4"})
	if strings.Contains(rows, "w=") {
		t.Errorf("a skipped key was written: %q", rows)
	}
}

func TestFormParseJSONRefuses(t *testing.T) {
	for _, tt := range []struct{ file, want string }{
		{`{"model":"speedup","inputs":{}}`, `"speedup" scenario`},
		{`{"model":"communication","inputs":{"x":"1"}}`, "unknown key"},
		{`{"model":"communication","inputs":{"W":4000}}`, "wrong type"},
		{`{"model":"communication","version":9,"inputs":{}}`, "newer memwall"},
		{`{"model":"communication","inputs":{"W":"1","W":"2"}}`, "W"},
		{`{"model":"communication"`, "not valid JSON"},
	} {
		_, err := testForm.ParseJSON([]byte(tt.file))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseJSON(%s) = %v, want an error with %q", tt.file, err, tt.want)
		}
	}
}

func FuzzFormParseJSON(f *testing.F) {
	f.Add(string(testForm.JSON(testForm.Defaults())))
	f.Fuzz(func(t *testing.T, s string) {
		in, err := testForm.ParseJSON([]byte(s))
		if err == nil && len(in) != 3 {
			t.Fatalf("ParseJSON gave %v", in)
		}
	})
}
