package app

import (
	"memwall/engine/fit"
	"memwall/engine/speedup"
)

// The speedup chart is drawn for P from "P from" to "P to", so a roll-off
// beyond the largest P measured can be looked for; engine/speedup reads
// the range.

func defaultPTo(f fit.Frame, n string) string { return speedup.DefaultPTo(f, n) }

func procCounts(lo, hi float64) []float64 { return speedup.ProcCounts(lo, hi) }
