package strictjson

import (
	"strings"
	"testing"
)

func TestDecode(t *testing.T) {
	type file struct {
		P int     `json:"p"`
		L float64 `json:"L"`
	}
	tests := []struct {
		in, want string // want: "" for success, else a part of the error
	}{
		{`{"p": 2, "L": 1.5}`, ""},
		{`{"p": 2, "L": 1.5`, "file: not valid JSON: the text ends before the object is closed"},
		{`{"p": 2,, "L": 1}`, "file: not valid JSON at byte 9"},
		{`{"p": "two"}`, `file: field "p" has the wrong type (string)`},
		{`{"p": 2, "q": 1}`, `file: json: unknown field "q"`},
		{`{"p": 2} {"p": 3}`, "file: text after the JSON object"},
		{``, "file: not valid JSON: the text ends"},
	}
	for _, tc := range tests {
		var f file
		err := Decode([]byte(tc.in), &f, "file")
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v", tc.in, err)
		case tc.want == "" && (f.P != 2 || f.L != 1.5):
			t.Errorf("%q: decoded %+v", tc.in, f)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: err = %v, want %q", tc.in, err, tc.want)
		}
	}
}
