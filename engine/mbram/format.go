package mbram

import (
	"strconv"

	"memwall/engine/units"
)

// num writes a plain number with four significant digits for substituted
// formulas.
func num(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }

func integer(v int64) string { return strconv.FormatInt(v, 10) }

func bw(v float64) string { return "(" + units.FormatBandwidth(v) + ")" }

func sec(v float64) string { return units.FormatSeconds(v) }

func size(v int64) string { return units.FormatSize(v) }

// count writes n with the singular or plural noun: "1 block", "3 blocks".
func count(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return integer(n) + " " + many
}
