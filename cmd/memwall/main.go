// Command memwall predicts, simulates, fits and measures memory-bound running
// times from the command line with the same engine the web app runs.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// command is one subcommand. Each lives in its own file and registers itself
// in init, so adding a command never touches this file.
type command struct {
	name    string
	summary string
	// run returns the process exit status: 0 success, 2 bad input or failure.
	run func(args []string, stdout, stderr io.Writer) int
}

var commands = map[string]command{}

func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("memwall: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the process: tests and fuzzers call it directly.
func run(args []string, stdout, stderr io.Writer) (status int) {
	defer func() {
		// A panic is a bug, but the user still gets a message and status 2
		// rather than a stack trace.
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "memwall: internal error: %v\n", r)
			status = 2
		}
	}()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "memwall: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	return c.run(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "memwall: predict running times of memory-bound and parallel programs\n\nUsage: memwall COMMAND [flags]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	for _, n := range names {
		fmt.Fprintf(w, "  %-*s  %s\n", width, n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'memwall COMMAND -h' for a command's flags.")
}
