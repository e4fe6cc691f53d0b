package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"memwall/engine/machine"
	"memwall/engine/units"
	"memwall/presets"
)

func init() {
	register(command{name: "machines", summary: "list the preset machines and their MBRAM parameters", run: runMachines})
}

func runMachines(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("machines", "[--json] | --kerncraft FILE --beta2 BW --mispredict T [--beta1 BW] [--mu1 N] [--name NAME]", stderr)
	asJSON := fs.Bool("json", false, "print the machines as JSON")
	kc := fs.String("kerncraft", "", "read a Kerncraft machine file (YAML) and print it as a memwall machine file (JSON)")
	beta1 := fs.String("beta1", "", "with --kerncraft: sequential bandwidth, replacing the file's (needed when it has no measurement from memory)")
	beta2 := fs.String("beta2", "", "with --kerncraft: random-access bandwidth, e.g. 2.3GB/s (Kerncraft files have none)")
	mispredict := fs.String("mispredict", "", "with --kerncraft: branch misprediction penalty, e.g. 7ns (Kerncraft files have none)")
	mu1 := fs.Int("mu1", 0, "with --kerncraft: sequential streams at full speed (default 2)")
	name := fs.String("name", "", "with --kerncraft: the machine's name (default the file's model name)")
	if s := parseFlags(fs, args, stderr); s >= 0 {
		return s
	}
	if *kc == "" {
		// The --kerncraft companions mean nothing without it.
		var stray []string
		fs.Visit(func(f *flag.Flag) {
			if f.Name != "json" {
				stray = append(stray, "--"+f.Name)
			}
		})
		if len(stray) > 0 {
			return fail(stderr, "machines", fmt.Errorf("%s: only with --kerncraft FILE", strings.Join(stray, ", ")))
		}
	}
	mu1Set := false
	fs.Visit(func(f *flag.Flag) { mu1Set = mu1Set || f.Name == "mu1" })
	if mu1Set && (*mu1 < 1 || *mu1 > machine.MaxMu1) {
		return fail(stderr, "machines", fmt.Errorf("--mu1: sequential streams at full speed, a whole number from 1 to %d; got %d", machine.MaxMu1, *mu1))
	}
	if *kc != "" {
		m, err := importKerncraft(*kc, *beta1, *beta2, *mispredict, *mu1, *name)
		if err != nil {
			return fail(stderr, "machines", err)
		}
		if err := writeJSON(stdout, m); err != nil {
			return fail(stderr, "machines", err)
		}
		return 0
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

// importKerncraft reads a Kerncraft machine file and completes it with the
// numbers given on the command line.
func importKerncraft(path, beta1, beta2, mispredict string, mu1 int, name string) (machine.Machine, error) {
	f, err := os.Open(path)
	if err != nil {
		return machine.Machine{}, err
	}
	defer f.Close()
	// One byte over the parser's limit, so that it can say the file is too big.
	data, err := io.ReadAll(io.LimitReader(f, machine.MaxKerncraftFile+1))
	if err != nil {
		return machine.Machine{}, err
	}
	k, err := machine.ParseKerncraft(data)
	if err != nil {
		return machine.Machine{}, fmt.Errorf("%s: %v", path, err)
	}
	var given machine.Machine
	for _, fl := range []struct {
		flag, text string
		into       *float64
		parse      func(string) (float64, error)
	}{
		{"--beta1", beta1, &given.Beta1, units.ParseBandwidth},
		{"--beta2", beta2, &given.Beta2, units.ParseBandwidth},
		{"--mispredict", mispredict, &given.M, units.ParseDuration},
	} {
		if fl.text == "" {
			continue
		}
		if *fl.into, err = fl.parse(fl.text); err != nil {
			return machine.Machine{}, fmt.Errorf("%s: %v", fl.flag, err)
		}
	}
	given.Mu1 = mu1
	m, err := k.Machine(given)
	if name != "" {
		m.Name = name
	}
	var missing machine.Errors
	if errors.As(err, &missing) {
		return m, fmt.Errorf("%s: %v (give them with --beta1, --beta2 and --mispredict)", path, err)
	}
	if err != nil {
		return m, fmt.Errorf("%s: %v", path, err)
	}
	return m, nil
}
