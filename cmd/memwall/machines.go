package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"memwall/engine/units"
	"memwall/presets"
)

func init() {
	register(command{name: "machines", summary: "list the preset machines and their MBRAM parameters", run: runMachines})
}

func runMachines(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("machines", "[--json]", stderr)
	asJSON := fs.Bool("json", false, "print the machines as JSON")
	if s := parseFlags(fs, args, stderr); s >= 0 {
		return s
	}
	ms := presets.Machines()
	if *asJSON {
		if err := writeJSON(stdout, ms); err != nil {
			return fail(stderr, "machines", err)
		}
		return 0
	}
	tw := tabwriter.NewWriter(stdout, 0, 2, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tβ1\tβ2\tμ1\tC\tB\tm\tNAME")
	for _, m := range ms {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\n", m.ID, units.FormatBandwidth(m.Beta1), units.FormatBandwidth(m.Beta2),
			m.Mu1, units.FormatSize(m.C), units.FormatSize(m.B), units.FormatSeconds(m.M), m.Name)
	}
	tw.Flush()
	fmt.Fprintln(stdout, "\nSources: 'memwall machines --json'. A machine file (JSON) may be given wherever an id is.")
	return 0
}
