// Package trace reads memory-access traces for the simulator of
// engine/sim: Valgrind Lackey output (valgrind --tool=lackey
// --trace-mem=yes) and memwall's plain "R|W address size" format. A trace
// is read as a stream, line by line, with a limit on its size; a bad line
// is reported with its line number. Replay feeds the records to a
// simulator in slices, so a long trace can report progress and be
// cancelled, and tees them, when asked, to a second one (engine/hier's
// hierarchy simulator).
package trace
