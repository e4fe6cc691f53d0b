package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"memwall/engine/units"
	"memwall/measure"
)

// TestFlagsMeanWhatTheySay: a flag value out of range is refused with the
// flag and the accepted range, never replaced by a default; messages name a
// flag or field the command has.
func TestFlagsMeanWhatTheySay(t *testing.T) {
	dir := t.TempDir()
	// A preset with a cache too large for the simulator: the message names
	// the machine file's field, since simulate has no --cache.
	out, _, _ := runCLI("machines", "--json")
	var ms []map[string]any
	if err := json.Unmarshal([]byte(out), &ms); err != nil || len(ms) == 0 {
		t.Fatalf("machines --json: %v", err)
	}
	m := ms[0]
	m["cache"] = "64GiB"
	big := filepath.Join(dir, "big.json")
	b, _ := json.Marshal(m)
	os.WriteFile(big, b, 0o644)
	line := int64(m["line"].(float64)) // bytes
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"machines", "--kerncraft", "x.yml", "--mu1", "-3"}, "memwall machines: --mu1: sequential streams at full speed, a whole number from 1 to 1024; got -3\n"},
		{[]string{"machines", "--kerncraft", "x.yml", "--mu1", "0"}, "memwall machines: --mu1: sequential streams at full speed, a whole number from 1 to 1024; got 0\n"},
		{[]string{"machines", "--mu1", "4"}, "memwall machines: --mu1: only with --kerncraft FILE\n"},
		{[]string{"numl", "measure", "-L", "0"}, "memwall numl measure: -L: a power of two from 8 to 4096 bytes, e.g. 64; got \"0\"\n"},
		{[]string{"numl", "measure", "-L", "48"}, "memwall numl measure: -L: a power of two from 8 to 4096 bytes, e.g. 64; got \"48\"\n"},
		{[]string{"numl", "measure", "--reps", "0"}, "memwall numl measure: --reps: from 1 to 1000; got 0\n"},
		{[]string{"validate", "--machine", "p4-1.7-pc133", "--reps", "0"}, "memwall validate: --reps 0: want 1 to 100\n"},
		{[]string{"validate", "--machine", "p4-1.7-pc133", "--matrix-n", "0"}, "memwall validate: --matrix-n 0: want 2 to 5000\n"},
		{[]string{"superstep-suites", "--h", "0", "--p", "2"}, "memwall superstep-suites: --h: access counts of at least 1; got 0\n"},
		{[]string{"superstep-fit", "--data", big, "--p", "0"}, "memwall superstep-fit: --p: a processor count of at least 1; got 0\n"},
		{[]string{"numl", "conv", "--std", "alpha=NaN"}, "memwall numl conv: --std: alpha: \"NaN\" does not start with a number (a time such as 10us, 3.3ns)\n"},
		{[]string{"numl", "conv", "--m1", "zeta=1"}, "memwall numl conv: --m1: unknown coefficient \"zeta\" (keys alpha, beta, gamma, delta, beta_mem, gamma_mem)\n"},
		{[]string{"simulate", "--machine", big, "--kernel", "quicksort", "--set", "n=1000"},
			"memwall simulate: --machine " + big + ": field \"cache\": must hold from 1 to 33554432 lines (C/B); got " + strconv.FormatInt((64<<30)/line, 10) + "\n"},
	}
	if mem := measure.ReadOSInfo().Memory; mem > 0 {
		tests = append(tests, struct {
			args []string
			want string
		}{[]string{"calibrate", "--max-memory", strconv.FormatInt(mem, 10)}, "memwall calibrate: --max-memory " + strconv.FormatInt(mem, 10) + ": more than half of this machine's " + units.FormatSize(mem) + " of memory; give at most " + units.FormatSize(mem/2) + "\n"})
	}
	for _, tc := range tests {
		_, errs, st := runCLI(tc.args...)
		if st != 2 || errs != tc.want {
			t.Errorf("%q: status %d, stderr\n%q\nwant 2 and\n%q", tc.args, st, errs, tc.want)
		}
	}
}
