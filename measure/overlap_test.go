package measure

import (
	"strings"
	"testing"
)

// The levels' overlap follows the ECM model's finding per architecture,
// as Kerncraft's machine files give it: the Zen files (EPYC 7451, a
// family 23 part, and EPYC 7452, family 23 too) say the transfers
// overlap, the Intel and Arm ones that they do not.
func TestLevelOverlapOf(t *testing.T) {
	for _, c := range []struct {
		info OSInfo
		want float64
	}{
		{OSInfo{Vendor: "AuthenticAMD", Family: 23}, 1}, // Zen, Zen 2
		{OSInfo{Vendor: "AuthenticAMD", Family: 25}, 1}, // Zen 3, Zen 4 (this project's AMD guest)
		{OSInfo{Vendor: "AuthenticAMD", Family: 26}, 1}, // Zen 5
		{OSInfo{Vendor: "HygonGenuine", Family: 24}, 1}, // Dhyana, a Zen core
		{OSInfo{Vendor: "AuthenticAMD", Family: 21}, 0}, // Bulldozer
		{OSInfo{Vendor: "GenuineIntel", Family: 6}, 0},
		{OSInfo{}, 0}, // a browser, or an OS that does not say
	} {
		w, why := LevelOverlapOf(c.info)
		if w != c.want || (w > 0) != strings.Contains(why, "not measured") {
			t.Errorf("%+v: %g (%q), want %g", c.info, w, why, c.want)
		}
	}
}
