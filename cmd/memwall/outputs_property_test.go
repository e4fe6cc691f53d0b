package main

import (
	"encoding/json"
	"math/rand/v2"
	"memwall/engine/lang"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// badToken finds NaN, Inf and a negative zero in printed output (with an
// ASCII or a Unicode minus), and negativeTime a negative duration in text.
var (
	badToken     = regexp.MustCompile(`(?i)(^|[^\p{L}\d_])(nan|[+-]?inf(inity)?)([^\p{L}\d_]|$)|(^|[\s(=:,\[{"])[-−]0(\.0+)?([\s,)\]}%"a-zµ]|$)`)
	negativeTime = regexp.MustCompile(`(^|[\s(=:,])[-−]\d[\d.]*(e[+-]?\d+)?\s?(s|ms|µs|us|ns|min|h)([\s,)]|$)`)
	timeKey      = regexp.MustCompile(`(?i)(seconds|_s$|^s_e$|rel_error|^time)`)
)

// TestOutputsFiniteAndNonNegative is a property test over every command
// that computes without measuring: random combinations of each command's
// flags, with values from the valid, the edge (0, -0, 1e308, NaN, Inf,
// 2^63) and the malformed. Whatever the input, a run either fails with
// status 2 and a message, or prints no NaN, no Inf, no -0 and no negative
// time (a JSON key for seconds, a time or an error; a text duration).
func TestOutputsFiniteAndNonNegative(t *testing.T) {
	edge := []string{"0", "-0", "-3", "1", "2", "7", "64", "1e308", "-1e308", "NaN", "Inf", "1e-300", "2^63", "1.5", "", "abc", "4Ki", "100"}
	small := []string{"0", "-0", "-3", "1", "2", "16", "100", "1000", "1e308", "NaN", "abc", "2^12"}
	times := []string{"1ms", "0s", "-0s", "-1ms", "1e308s", "NaN", "Inf s", "2s", "150us", "-", "x"}
	type flagSpec struct {
		name   string
		values []string
	}
	sets := func(keys string, vals []string) flagSpec {
		var vs []string
		for _, k := range strings.Split(keys, ",") {
			for _, v := range vals {
				vs = append(vs, k+"="+v)
			}
		}
		return flagSpec{"--set", vs}
	}
	commands := []struct {
		base  []string
		flags []flagSpec
	}{
		{[]string{"predict", "--machine", "p4-1.7-pc133", "--kernel", "quicksort"}, []flagSpec{sets("n,w,b", edge)}},
		{[]string{"predict", "--machine", "p4-1.7-pc133", "--kernel", "matmul"}, []flagSpec{sets("n,w", edge)}},
		{[]string{"predict", "--machine", "p4-1.7-pc133", "--kernel", "perm"}, []flagSpec{sets("n,w", edge)}},
		{[]string{"simulate", "--machine", "p4-1.7-pc133", "--kernel", "quicksort", "--set", "n=1000"}, []flagSpec{sets("n,w", small), {"--window", small}, {"--predictor", []string{"majority", "2bit", "x"}}}},
		{[]string{"simulate", "--machine", "p4-1.7-pc133", "--kernel", "perm", "--set", "n=1000"}, []flagSpec{sets("n,w", small), {"--seed", []string{"0", "1", "-1", "18446744073709551615"}}}},
		{[]string{"fit", "--data", "chittor-table6", "--y", "T"}, []flagSpec{{"--terms", []string{"1, N/P", "N", "1, N^64", "1/(N-N)", "log2(P)", "1, P, P^2, P^3", "N^0.5", "2^N"}}, {"--train", []string{"N<=512", "P>1e308", "N>0 && P<4", "N<0"}}, {"--weight", []string{"abs", "rel", "auto", "x"}}}},
		{[]string{"numl", "--rows"}, []flagSpec{{"-W", edge}, {"-k", edge}, {"-L", edge}, {"-o", edge}}},
		{[]string{"numl", "--cols"}, []flagSpec{{"-W", edge}, {"-k", edge}, {"-w", edge}, {"-r", edge}, {"-L", edge}, {"-o", edge}}},
		{[]string{"numl", "conv"}, []flagSpec{{"-N", edge}, {"-w", edge}, {"--pr", edge}, {"--pc", edge}, {"-L", edge}, {"--bmax", small}, {"--std", []string{"alpha=10us, beta=3.3ns", "alpha=0", "alpha=-1s", "beta=1e308s", "alpha=NaN"}}, {"--m1", []string{"alpha=10us, gamma=1us", "gamma=-5us", "delta=1e308s"}}}},
		{[]string{"supersteps", "--algo", "radix"}, []flagSpec{{"--n", edge}, {"--p", []string{"2", "4", "8", "12", "3", "0", "-0"}}, {"--measured", times}, {"--measured-total", times}, {"--radix-bits", []string{"1", "6", "8", "0", "-1", "31"}}}},
		{[]string{"supersteps", "--algo", "sample"}, []flagSpec{{"--n", edge}, {"--p", []string{"2", "4", "8", "12"}}, {"--oversample", []string{"1", "100", "0", "-1", "1000000"}}, {"--measured-total", times}}},
		{[]string{"supersteps", "--algo", "column"}, []flagSpec{{"--n", edge}, {"--p", []string{"2", "4", "8", "12"}}, {"--measured", times}}},
		{[]string{"machines"}, nil},
		{[]string{"kernels"}, nil},
		{[]string{"replicate", "mbram"}, nil},
	}
	// Programs of the language, for run and compare.
	dir := t.TempDir()
	prog := func(id string) string {
		ex, _ := lang.LookupExample(id)
		path := filepath.Join(dir, id+".mw")
		if err := os.WriteFile(path, []byte(ex.Source), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	qs, perm, twopass := prog("quicksort"), prog("perm"), prog("perm-twopass")
	commands = append(commands,
		struct {
			base  []string
			flags []flagSpec
		}{[]string{"run", qs, "--set", "N=1000"}, []flagSpec{sets("N", small), {"--seed", []string{"0", "1", "-1"}}, {"--predictor", []string{"majority", "2bit", "x"}},
			{"--branches", []string{"all", "data", "x"}}, {"--at", []string{"2^13", "0", "-1", "abc", "1e308"}}, {"--budget", []string{"1", "1000000", "0", "-5"}}}},
		struct {
			base  []string
			flags []flagSpec
		}{[]string{"compare", perm, twopass}, []flagSpec{{"--from", small}, {"--to", []string{"16", "1000", "2^12", "0", "-0", "1e308"}}, {"--per-doubling", []string{"1", "2", "0", "17"}}}},
	)
	rng := rand.New(rand.NewPCG(14, 3))
	start := time.Now()
	runs, ok := 0, 0
	for runs < 1500 && time.Since(start) < 4*time.Second {
		c := commands[runs%len(commands)]
		args := append([]string(nil), c.base...)
		for _, f := range c.flags {
			if rng.IntN(3) == 0 {
				continue
			}
			args = append(args, f.name, f.values[rng.IntN(len(f.values))])
		}
		asJSON := rng.IntN(2) == 0
		if asJSON {
			args = append(args, "--json")
		}
		runs++
		out, errs, st := runCLI(args...)
		if st != 0 {
			if st != 2 || errs == "" || strings.Contains(errs, "internal error") {
				t.Errorf("%q: status %d, stderr %q", args, st, errs)
			}
			continue
		}
		ok++
		if m := badToken.FindString(out); m != "" {
			t.Errorf("%q: output holds %q:\n%.2000s", args, m, out)
		}
		if !asJSON {
			if m := negativeTime.FindString(out); m != "" {
				t.Errorf("%q: output holds the negative time %q:\n%.2000s", args, m, out)
			}
			continue
		}
		var v any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Errorf("%q: not JSON: %v", args, err)
			continue
		}
		walkJSON(v, "", func(path, key string, x float64) {
			// A term's share of a cost (supersteps' good_terms) is a
			// coefficient times a count, negative with a fitted negative
			// constant L; the time it adds up to is checked instead.
			if timeKey.MatchString(key) && x < 0 && !strings.Contains(path, "_terms") {
				t.Errorf("%q: %s = %g, a negative time or error", args, path, x)
			}
		})
	}
	t.Logf("%d runs in %v, %d succeeded", runs, time.Since(start).Round(time.Millisecond), ok)
	if ok < runs/10 {
		t.Errorf("only %d of %d runs succeeded: the property is checked on too few outputs", ok, runs)
	}
}

// walkJSON calls f for every number in v with its path and the key it is
// under.
func walkJSON(v any, path string, f func(path, key string, x float64)) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			walkJSON(e, path+"."+k, f)
		}
	case []any:
		for _, e := range x {
			walkJSON(e, path+"[]", f)
		}
	case float64:
		f(path, path[strings.LastIndexByte(path, '.')+1:], x)
	}
}
