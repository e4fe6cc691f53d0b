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

// TestCheck: a byte order mark is dropped, a repeated key is named with its
// object and line, and text after the top-level value is refused for an
// array as for an object.
func TestCheck(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{"\xef\xbb\xbf{\"p\": 2}", `{"p": 2}`, ""},
		{"\xef\xbb\xbf[1, 2]", `[1, 2]`, ""},
		{`{"p": 2, "L": 1, "p": 3}`, "", `file: key "p" appears twice in the top-level object (line 1); give each key once`},
		{"{\"a\": {\"x\": 1,\n \"x\": 2}}", "", `file: key "x" appears twice in "a" (line 2); give each key once`},
		{"{\"rows\": [{\"N\": 1}, {\"N\": 2,\n\n \"N\": 3}]}", "", `file: key "N" appears twice in "rows[1]" (line 3); give each key once`},
		{`[{"N": 1, "P": 2}, {"N": 1, "P": 2}]`, `[{"N": 1, "P": 2}, {"N": 1, "P": 2}]`, ""},
		{`{"a": {"p": 1}, "b": {"p": 1}}`, `{"a": {"p": 1}, "b": {"p": 1}}`, ""},
		{"[1, 2]\n\n x", "", "file: text after the JSON array (line 3)"},
		{"[1, 2] [3]", "", "file: text after the JSON array (line 1)"},
		{`{"p": 2} {"p": 3}`, "", "file: text after the JSON object (line 1)"},
		{"[1, 2]\n\t \n", "[1, 2]\n\t \n", ""},
		{`{"p": 2,, "L": 1}`, `{"p": 2,, "L": 1}`, ""}, // syntax: the decoder reports it
	}
	for _, tc := range tests {
		got, err := Check([]byte(tc.in), "file")
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		if msg != tc.err || (err == nil && string(got) != tc.want) {
			t.Errorf("%q: got %q, %q; want %q, %q", tc.in, got, msg, tc.want, tc.err)
		}
	}
}
