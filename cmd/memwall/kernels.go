package main

import (
	"fmt"
	"io"

	"memwall/engine/mbram"
)

func init() {
	register(command{name: "kernels", summary: "list the kernels, their parameters and formulas", run: runKernels})
}

func runKernels(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("kernels", "[--json]", stderr)
	asJSON := fs.Bool("json", false, "print the kernels as JSON")
	if s := parseFlags(fs, args, stderr); s >= 0 {
		return s
	}
	ks := mbram.Kernels()
	if *asJSON {
		if err := writeJSON(stdout, ks); err != nil {
			return fail(stderr, "kernels", err)
		}
		return 0
	}
	for _, k := range ks {
		fmt.Fprintf(stdout, "%s — %s (%s)\n  %s\n  T = %s\n", k.ID, k.Name, k.Source, k.Summary, k.Formula)
		for _, p := range k.Params {
			fmt.Fprintf(stdout, "  --set %s=...  %s (default %d)\n", p.Name, p.Meaning, p.Default)
		}
		fmt.Fprintln(stdout)
	}
	return 0
}
