package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRefusedBeforeOverflow: inputs that are finite but would make an
// output NaN, Inf or a negative time are refused, each with the field and
// the accepted range.
func TestRefusedBeforeOverflow(t *testing.T) {
	dir := t.TempDir()
	file := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	huge := file("huge.csv", "N,T\n1,2\n2,1e308\n3,7\n4,8\n")
	negative := file("neg.csv", "N,T_s\n1,2\n2,-4\n3,7\n4,8\n")
	overflow := file("over.csv", "N,T\n1e90,2\n2,100\n3,7\n4,8\n")
	const good = `"good": {"L": 10, "g_hrc": 0.01, "g_hrm": 0.02, "g_hwc": 0.01, "g_hwm": 0.02, "g_M": 0.001}`
	zero := file("zero.json", `{"p": 2, `+good+`, "bad": {"L": 0, "g_hr": 0, "g_hw": 0, "g_M": 0}}`)
	negBad := file("negbad.json", `{"p": 2, `+good+`, "bad": {"L": -1e9, "g_hr": 0.5, "g_hw": 1, "g_M": 0.05}}`)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"fit", "--data", huge, "--y", "T", "--terms", "1, N"},
			"memwall fit: " + huge + ": 1 bad row(s), 3 good:\n  line 3, column 2 (T): \"1e308\" is beyond the accepted range: magnitude at most 1e+100\nimport only the 3 good rows if that is acceptable\n(rerun with --keep-good-rows to use them)\n"},
		{[]string{"fit", "--data", negative, "--y", "T", "--terms", "1, N"},
			"memwall fit: " + negative + ": 1 bad row(s), 3 good:\n  line 3, column 2 (T_s): \"-4\" is a negative time; a time is 0 or more\nimport only the 3 good rows if that is acceptable\n(rerun with --keep-good-rows to use them)\n"},
		{[]string{"fit", "--data", overflow, "--y", "T", "--terms", "1, N^2"},
			"memwall fit: " + overflow + ": line 2: term \"N^2\" overflows at N=1e+90: its value is beyond the accepted range (magnitude at most 1e+100)\n"},
		{[]string{"supersteps", "--algo", "radix", "--n", "1e6", "--coef", zero},
			"memwall supersteps: --coef " + zero + ": coefficient file: coefficients: bad: every coefficient is 0, so every prediction would be 0 s; give fitted coefficients (memwall superstep-fit writes them)\n"},
		// Superstep 1 at p = 2, n = 10^6: h_r = n/p = 500000, h_w = 64,
		// M = n + 64p = 1000128, so t_b = −10^9 + 0.5·500000 + 64 +
		// 0.05·1000128 = −999699929.6 µs.
		{[]string{"supersteps", "--algo", "radix", "--n", "1e6", "--coef", negBad},
			"memwall supersteps: superstep 1 (count elts): the Bad function predicts -9.997e+08 µs, a negative time: its constant L = -1e+09 µs outweighs the access terms; give Bad coefficients whose predictions are 0 or more for this superstep\n"},
		{[]string{"supersteps", "--algo", "radix", "--n", "1e6", "--p", "2", "--measured-total", "1e308s"},
			"memwall supersteps: --measured-total: 1e308s; accepted 0 to 1e+07 s\n"},
		{[]string{"supersteps", "--algo", "radix", "--n", "1e6", "--p", "2", "--measured", "1ms,-0s"},
			""},
	}
	for _, tc := range tests {
		_, errs, st := runCLI(tc.args...)
		if tc.want == "" {
			if st != 0 {
				t.Errorf("%q: status %d: %s", tc.args, st, errs)
			}
			continue
		}
		if st != 2 || errs != tc.want {
			t.Errorf("%q: status %d, stderr\n%q\nwant 2 and\n%q", tc.args, st, errs, tc.want)
		}
	}
}
