package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"memwall/engine/machine"
	"memwall/engine/mbram"
	"memwall/engine/scenario"
	"memwall/internal/jsonx"
	"memwall/presets"
)

// loadMachine reads a preset id or a machine JSON file.
func loadMachine(arg string) (machine.Machine, error) {
	if arg == "" {
		return machine.Machine{}, errors.New("--machine: give a preset id (see 'memwall machines') or a machine JSON file")
	}
	if m, ok := presets.Machine(arg); ok {
		return m, nil
	}
	if !strings.HasSuffix(arg, ".json") && !strings.ContainsAny(arg, `/\`) {
		return machine.Machine{}, fmt.Errorf("--machine: %q is neither a preset id (%s) nor a .json file", arg, presetIDs())
	}
	f, err := os.Open(arg)
	if err != nil {
		return machine.Machine{}, fmt.Errorf("--machine: %v", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, machine.MaxFileSize+1))
	if err != nil {
		return machine.Machine{}, fmt.Errorf("--machine: %v", err)
	}
	m, err := machine.ParseJSON(data)
	if err != nil {
		return machine.Machine{}, fmt.Errorf("--machine %s: %v", arg, err)
	}
	if m.ID == "" {
		m.ID = arg
	}
	return m, nil
}

func presetIDs() string {
	var ids []string
	for _, m := range presets.Machines() {
		ids = append(ids, m.ID)
	}
	return strings.Join(ids, ", ")
}

// setFlags collects repeated --set name=value flags.
type setFlags []string

func (s *setFlags) String() string     { return strings.Join(*s, ",") }
func (s *setFlags) Set(v string) error { *s = append(*s, v); return nil }

// parseSets applies name=value pairs to a workload: n and b are counts
// ("8Mi", "2^23"), w is a size in bytes ("4", "8B").
func parseSets(sets []string, p *mbram.Params) error {
	for _, s := range sets {
		name, value, ok := strings.Cut(s, "=")
		if !ok {
			return fmt.Errorf("--set %q: want name=value, e.g. n=8Mi", s)
		}
		name = strings.TrimSpace(name)
		var dst *int64
		switch name {
		case "n":
			dst = &p.N
		case "w":
			dst = &p.W
		case "b":
			dst = &p.Buckets
		default:
			return fmt.Errorf("--set %q: unknown parameter %q (n, w or b)", s, name)
		}
		v, err := scenario.ParseParam(name, value)
		*dst = v
		if err != nil {
			return fmt.Errorf("--set %s: %v", name, err)
		}
	}
	return nil
}

// newFlags makes a flag set that reports to stderr and never exits.
func newFlags(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: memwall %s %s\n", name, usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses and rejects stray positional arguments. It returns the
// exit status to use when parsing fails, or -1.
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) int {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "memwall %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return 2
	}
	return -1
}

func writeJSON(w io.Writer, v any) error {
	b, err := jsonx.MarshalIndent(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// signedPercent formats a fraction as a signed percentage with the given
// decimals; a value that rounds to zero is "+0.0%", never "-0.0%".
func signedPercent(frac float64, decimals int) string {
	s := strconv.FormatFloat(100*frac, 'f', decimals, 64)
	if strings.Trim(s, "-0.") == "" {
		s = strings.TrimPrefix(s, "-")
	}
	if !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s + "%"
}

// isSet reports whether the flag was given on the command line, so that a
// value that happens to equal the default ("--reps 0") is checked like any
// other rather than read as "not given".
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// quoteName shows a user-given name (a file, a column, a key) in a message:
// as it is when every character is printable, else quoted with Go escapes,
// so control characters never reach the terminal.
func quoteName(s string) string {
	for _, r := range s {
		if !unicode.IsPrint(r) || r == utf8.RuneError {
			return strconv.Quote(s)
		}
	}
	return s
}

func fail(stderr io.Writer, cmd string, err error) int {
	fmt.Fprintf(stderr, "memwall %s: %v\n", cmd, err)
	return 2
}
