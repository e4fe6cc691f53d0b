package scenario

import (
	"strconv"
	"strings"

	"memwall/engine/units"
)

// A link must reproduce the numbers exactly, and should read like the
// machine's data sheet. exact tries readable forms first and keeps the
// first one that parses back to the same float64; the last form, the
// shortest decimal of the value in base units, always does.

func bandwidthForms(v float64) []string {
	return []string{
		units.FormatBandwidth(v),
		strconv.FormatFloat(v/1e9, 'g', -1, 64) + "GB/s",
		strconv.FormatFloat(v/1e6, 'g', -1, 64) + "MB/s",
		strconv.FormatFloat(v, 'g', -1, 64),
	}
}

func durationForms(v float64) []string {
	return []string{
		units.FormatSeconds(v),
		strconv.FormatFloat(v*1e9, 'g', -1, 64) + "ns",
		strconv.FormatFloat(v, 'g', -1, 64),
	}
}

func exact(v float64, parse func(string) (float64, error), forms func(float64) []string) string {
	fs := forms(v)
	for _, f := range fs {
		f = strings.ReplaceAll(f, " ", "")
		if got, err := parse(f); err == nil && got == v {
			return f
		}
	}
	return fs[len(fs)-1]
}

// exactSize writes a size with a binary prefix when that is exact.
func exactSize(v int64) string {
	if f := strings.ReplaceAll(units.FormatSize(v), " ", ""); f != "" {
		if got, err := units.ParseSize(f); err == nil && got == v {
			return f
		}
	}
	return strconv.FormatInt(v, 10)
}
