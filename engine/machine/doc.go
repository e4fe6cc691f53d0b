// Package machine holds the MBRAM description of a computer (the MBRAM paper,
// section II): sequential and random RAM bandwidth, the number of concurrent
// sequential streams, the size and line size of the largest cache, and the
// branch-misprediction penalty. It validates a description with messages that
// name the field and the accepted range, derives one from memory and CPU
// specifications (the MBRAM paper, section III.A), reads and writes machine files,
// and reads what a Kerncraft machine file (YAML) gives of the six numbers.
//
// A machine may also describe its cache hierarchy for the hierarchy model
// (engine/hier): Levels, L1 first, each with its size, line and the
// sequential and random bandwidths of filling it from the level below,
// plus the memory's load-to-use latency and the core's compute rate. The
// last level is the paper's cache: Validate requires its size and line to
// equal C and B, and WithLevels sets those two from it. Its bandwidths are
// its own: the step in cost from a hit in it to a line from memory, where
// the paper's β1 and β2 are the whole cost. A machine without levels means what the paper's six numbers mean,
// one level (C, B) filled from memory at β1 and β2 (Hierarchy), and its
// JSON is unchanged. Level sizes need not be powers of two (a 48 KiB L1 or
// a 30 MiB L3 are common); like C they must be whole numbers of lines.
package machine
