package scenario

import (
	"fmt"
	"testing"
)

// TestParseJSONStrict: a scenario file goes through the same JSON checks
// as every other file: a repeated key and trailing text are refused by
// name, a byte order mark is dropped.
func TestParseJSONStrict(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"{\"kernel\": \"perm\",\n \"kernel\": \"matmul\"}", `scenario file: key "kernel" appears twice in the top-level object (line 2); give each key once`},
		{"{} []", "scenario file: text after the JSON object (line 1)"},
	} {
		if _, err := ParseJSON([]byte(tc.in)); err == nil || err.Error() != tc.want {
			t.Errorf("%q: %v, want %q", tc.in, err, tc.want)
		}
	}
	// With a byte order mark the file reads as without one.
	with, err1 := ParseJSON([]byte("\xef\xbb\xbf{\"kernel\": \"perm\"}"))
	without, err2 := ParseJSON([]byte(`{"kernel": "perm"}`))
	if fmt.Sprint(err1) != fmt.Sprint(err2) || fmt.Sprint(with) != fmt.Sprint(without) {
		t.Errorf("with a BOM: %v, %v; without: %v, %v", with, err1, without, err2)
	}
}
