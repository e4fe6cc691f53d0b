// Package machine holds the MBRAM description of a computer (the MBRAM paper,
// section II): sequential and random RAM bandwidth, the number of concurrent
// sequential streams, the size and line size of the largest cache, and the
// branch-misprediction penalty. It validates a description with messages that
// name the field and the accepted range, derives one from memory and CPU
// specifications (the MBRAM paper, section III.A), reads and writes machine files,
// and reads what a Kerncraft machine file (YAML) gives of the six numbers.
package machine
