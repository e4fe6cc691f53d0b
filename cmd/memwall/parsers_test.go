package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestParsersSayWhatIsWrong: each bad file gets the exact message naming
// what is wrong and where; a byte order mark is no error at all.
func TestParsersSayWhatIsWrong(t *testing.T) {
	dir := t.TempDir()
	file := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	dupKey := file("dup.json", "[{\"N\": 1, \"T\": 2},\n {\"N\": 2, \"T\": 4, \"T\": 5}]")
	trailing := file("trail.json", "[{\"N\": 1, \"T\": 2}, {\"N\": 2, \"T\": 4}]\n]")
	textCol := file("text.csv", "N,T\nfast,2\nslow,4\nmid,7\n")
	ctrlCol := file("ctrl.csv", "N,T\x1b[2J\n1,2\n2,4\n")
	ctrlID := file("m.json", `{"id": "x\u001b[2J", "beta1": "1GB/s", "beta2": "1GB/s", "mu1": 2, "cache": "1MiB", "line": 64, "mispredict": "5ns"}`)
	dupMachine := file("dm.json", "{\"id\": \"a\", \"beta1\": \"1GB/s\",\n \"beta1\": \"2GB/s\", \"beta2\": \"1GB/s\", \"mu1\": 2, \"cache\": \"1MiB\", \"line\": 64, \"mispredict\": \"5ns\"}")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"fit", "--data", dupKey, "--y", "T", "--terms", "1, N"}, "memwall fit: " + dupKey + ": JSON: key \"T\" appears twice in \"[1]\" (line 2); give each key once\n"},
		{[]string{"fit", "--data", trailing, "--y", "T", "--terms", "1, N"}, "memwall fit: " + trailing + ": JSON: text after the JSON array (line 2)\n"},
		{[]string{"fit", "--data", textCol, "--y", "N", "--terms", "1, T"}, "memwall fit: the column to fit: column \"N\" holds text, not numbers: line 2 has \"fast\"\n"},
		{[]string{"fit", "--data", ctrlCol, "--y", "T", "--terms", "1, N"}, "memwall fit: " + ctrlCol + ": line 1, column 2: the column name \"T\\x1b[2J\" holds a control character; names are printable\n"},
		{[]string{"predict", "--machine", ctrlID, "--kernel", "quicksort"}, "memwall predict: --machine " + ctrlID + ": id: holds the control character \"\\x1b\" at byte 1; names and texts are printable\n"},
		{[]string{"predict", "--machine", dupMachine, "--kernel", "quicksort"}, "memwall predict: --machine " + dupMachine + ": machine file: key \"beta1\" appears twice in the top-level object (line 2); give each key once\n"},
	}
	for _, tc := range tests {
		_, errs, st := runCLI(tc.args...)
		if st != 2 || errs != tc.want {
			t.Errorf("%q: status %d, stderr\n%q\nwant 2 and\n%q", tc.args, st, errs, tc.want)
		}
	}

	// A byte order mark in front of JSON: the same fit as the CSV of the
	// same rows.
	csvFile := file("rows.csv", "N,T\n1,2\n2,4\n3,6.5\n")
	bomFile := file("rows.json", "\xef\xbb\xbf[{\"N\": 1, \"T\": 2}, {\"N\": 2, \"T\": 4}, {\"N\": 3, \"T\": 6.5}]")
	coef := func(path string) map[string]float64 {
		out, errs, st := runCLI("fit", "--data", path, "--y", "T", "--terms", "1, N", "--weight", "abs", "--json")
		if st != 0 {
			t.Fatalf("%s: status %d: %s", path, st, errs)
		}
		var r struct{ Coefficients map[string]float64 }
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		return r.Coefficients
	}
	// Least squares by hand: slope = Σ(N−2)(T−4.1667)/Σ(N−2)² = 4.5/2 =
	// 2.25, intercept = 4.1667 − 2.25·2 = −1/3.
	c, want := coef(bomFile), coef(csvFile)
	if len(c) != 2 || c["N"] != want["N"] || c["1"] != want["1"] || c["N"] < 2.2499 || c["N"] > 2.2501 {
		t.Errorf("with a BOM: %v; from the CSV: %v; by hand N = 2.25, 1 = -1/3", c, want)
	}
}
