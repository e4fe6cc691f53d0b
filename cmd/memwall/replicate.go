package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"memwall/presets"
)

func init() {
	register(command{name: "replicate", summary: "recompute a paper's printed predictions beside the engine's", run: runReplicate})
}

func runReplicate(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "mbram" {
		fmt.Fprintln(stderr, "Usage: memwall replicate mbram [--json]\n  mbram: the MBRAM paper's Figs. 3, 4 and 5")
		return 2
	}
	fs := newFlags("replicate mbram", "[--json]", stderr)
	asJSON := fs.Bool("json", false, "print the rows as JSON")
	if s := parseFlags(fs, args[1:], stderr); s >= 0 {
		return s
	}
	rows, err := presets.MBRAMReplication()
	if err != nil {
		return fail(stderr, "replicate", err)
	}
	if *asJSON {
		if err := writeJSON(stdout, rows); err != nil {
			return fail(stderr, "replicate", err)
		}
		return 0
	}
	fmt.Fprintln(stdout, "The MBRAM paper (Cooperman, Ma and Nguyen): printed predictions beside memwall's, on the Fig. 2 machines.")
	tw := tabwriter.NewWriter(stdout, 0, 2, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "figure\tmachine\tkernel\tN or n\tmeasured\tprinted\tmemwall\tdiff\t")
	var reasons []string
	for _, r := range rows {
		mark := ""
		if !r.Matches {
			k := indexOf(reasons, r.Reason)
			if k < 0 {
				reasons = append(reasons, r.Reason)
				k = len(reasons) - 1
			}
			mark = fmt.Sprintf(" [%d]", k+1)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%.*f\t%.*f\t%.*f\t%s%s\t\n", r.Figure, r.Machine, r.Kernel, r.Params.N,
			r.Decimals, r.Measured, r.Decimals, r.Printed, r.Decimals+1, r.Engine, signedPercent(r.RelDiff, 1), mark)
	}
	tw.Flush()
	fmt.Fprintln(stdout)
	for i, s := range reasons {
		fmt.Fprintf(stdout, "[%d] %s\n", i+1, s)
	}
	fmt.Fprintln(stdout, "\nRows without a mark agree to the printed precision.")
	return 0
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}
