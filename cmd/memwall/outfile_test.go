package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestOutputsCheckedFirst: every output flag is checked before a
// measurement starts or a file is opened. Each case would otherwise run
// for seconds to minutes (calibrate, numl measure, superstep-suites) or
// replace its input (superstep-fit), so a prompt status 2 with the exact
// message, and the old file byte for byte, show the check ran first.
func TestOutputsCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old.json")
	const oldText = "previous result\n"
	if err := os.WriteFile(old, []byte(oldText), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing", "x.json")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"calibrate", "--out", missing}, "memwall calibrate: --out " + missing + ": the directory " + filepath.Join(dir, "missing") + " does not exist\n"},
		{[]string{"calibrate", "--out", old}, "memwall calibrate: --out " + old + ": the file exists; pass --force to replace it\n"},
		{[]string{"calibrate", "--out", dir}, "memwall calibrate: --out " + dir + ": is a directory; give a file name\n"},
		{[]string{"calibrate", "--out", missing[:len(missing)-6] + "y.json", "--curves", old, "--force"}, "memwall calibrate: --out " + missing[:len(missing)-6] + "y.json: the directory " + filepath.Join(dir, "missing") + " does not exist\n"},
		{[]string{"calibrate", "--out", old, "--curves", old, "--force"}, "memwall calibrate: --curves " + old + ": --out names the same file; give two different files\n"},
		{[]string{"superstep-fit", "--data", old, "--coef-out", old}, "memwall superstep-fit: --coef-out " + old + ": that is the input --data; write to another file\n"},
		{[]string{"superstep-fit", "--data", old, "--coef-out", old, "--force"}, "memwall superstep-fit: --coef-out " + old + ": that is the input --data; write to another file\n"},
		{[]string{"superstep-fit", "--data", old, "--coef-out", dir + "/./old.json"}, "memwall superstep-fit: --coef-out " + dir + "/./old.json: that is the input --data; write to another file\n"},
		{[]string{"numl", "measure", "-L", "0", "--out", old, "--force"}, "memwall numl measure: -L: a power of two from 8 to 4096 bytes, e.g. 64; got \"0\"\n"},
		{[]string{"numl", "measure", "--out", old}, "memwall numl measure: --out " + old + ": the file exists; pass --force to replace it\n"},
		{[]string{"superstep-suites", "--out", old}, "memwall superstep-suites: --out " + old + ": the file exists; pass --force to replace it\n"},
		{[]string{"superstep-suites", "--out", "-"}, "memwall superstep-suites: --out: give a file name; leave --out out to write to standard output\n"},
		{[]string{"calibrate", "--out", filepath.Join(dir, "a\x1b[2Jb.json"), "--curves", filepath.Join(dir, "a\x1b[2Jb.json")}, "memwall calibrate: --curves \"" + dir + "/a\\x1b[2Jb.json\": --out names the same file; give two different files\n"},
	}
	for _, tc := range tests {
		start := time.Now()
		_, errs, st := runCLI(tc.args...)
		if st != 2 || errs != tc.want {
			t.Errorf("%q: status %d, stderr\n%q\nwant 2 and\n%q", tc.args, st, errs, tc.want)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%q: took %v: the check ran after measuring", tc.args, d)
		}
		if b, _ := os.ReadFile(old); string(b) != oldText {
			t.Fatalf("%q: the old file now holds %q", tc.args, b)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
