package superstep

import (
	"fmt"
	"slices"
)

// PublishedCacheWords is C on the SGI Power Challenge: "the L2 cache contains a
// maximum of 2^19 integers" (the superstep paper, section 4.2.1; 2 MB of 4-byte
// integers, section 2).
const PublishedCacheWords = 1 << 19

// PublishedProcessorCounts are the processor counts the paper fitted and
// validated its functions for (section 4.1).
var PublishedProcessorCounts = []int{2, 4, 8, 12}

// Published is one row of the paper's coefficient tables.
type Published struct {
	Table    string
	Family   Family
	Function Function
	P        int
	Region   Region
	Coef     Coefficients
}

// published holds Tables 1–4 of the superstep paper as printed, in µs.
//
// Table 1 heads the HrHwM-c columns "ghrm; ghrc" and "ghwm; ghwc" but its R0
// row reads "0.0184, 0.0" and "0.0087, 0.0": since R0 has h_rm = h_wm = 0,
// the zero must be g_hrm and g_hwm, and Table 2's p = 8 rows (g_hrc 0.0184,
// g_hrm 0.0) confirm that the printed pairs are (g_hrc, g_hrm) and
// (g_hwc, g_hwm). Table 1's HM R1 row prints the same L (−33137) as H R1;
// it is kept as printed.
var published = []Published{
	// Table 1: all functions fit from Suite 1 for p = 8 (Good family).
	{"Table 1", Good, H, 8, R0, Coefficients{L: 141, Gh: 0.0236}},
	{"Table 1", Good, H, 8, R1, Coefficients{L: -33137, Gh: 0.0897}},
	{"Table 1", Good, HrHw, 8, R0, Coefficients{L: 138, Ghr: 0.0186, Ghw: 0.0090}},
	{"Table 1", Good, HrHw, 8, R1, Coefficients{L: -34252, Ghr: 0.0573, Ghw: 0.0487}},
	{"Table 1", Good, HM, 8, R0, Coefficients{L: 141, Gh: 0.0180, GM: 0.00062}},
	{"Table 1", Good, HM, 8, R1, Coefficients{L: -33137, Gh: 0.0606, GM: 0.00322}},
	{"Table 1", Good, HrHwMc, 8, R0, Coefficients{L: 140, Ghrc: 0.0184, Ghrm: 0.0, Ghwc: 0.0087, Ghwm: 0.0, GM: 0.00005}},
	{"Table 1", Good, HrHwMc, 8, R1, Coefficients{L: 0, Ghrc: 0.0202, Ghrm: 0.0492, Ghwc: 0.0082, Ghwm: 0.0444, GM: 0.00027}},

	// Table 2: HrHwM-c fit from Suite 1 (Good family).
	{"Table 2", Good, HrHwMc, 2, R0, Coefficients{L: -30, Ghrc: 0.0184, Ghrm: 0.0, Ghwc: 0.0086, Ghwm: 0.0, GM: 0.00009}},
	{"Table 2", Good, HrHwMc, 2, R1, Coefficients{L: -5153, Ghrc: 0.0256, Ghrm: 0.0482, Ghwc: 0.0159, Ghwm: 0.0442, GM: 0.00018}},
	{"Table 2", Good, HrHwMc, 4, R0, Coefficients{L: 18, Ghrc: 0.0185, Ghrm: 0.0, Ghwc: 0.0084, Ghwm: 0.0, GM: 0.00013}},
	{"Table 2", Good, HrHwMc, 4, R1, Coefficients{L: -2162, Ghrc: 0.0230, Ghrm: 0.0489, Ghwc: 0.0113, Ghwm: 0.0444, GM: 0.00024}},
	{"Table 2", Good, HrHwMc, 8, R0, Coefficients{L: 140, Ghrc: 0.0184, Ghrm: 0.0, Ghwc: 0.0087, Ghwm: 0.0, GM: 0.00005}},
	{"Table 2", Good, HrHwMc, 8, R1, Coefficients{L: 0, Ghrc: 0.0202, Ghrm: 0.0492, Ghwc: 0.0082, Ghwm: 0.0444, GM: 0.00027}},
	{"Table 2", Good, HrHwMc, 12, R0, Coefficients{L: 279, Ghrc: 0.0183, Ghrm: 0.0, Ghwc: 0.0087, Ghwm: 0.0, GM: 0.00004}},
	{"Table 2", Good, HrHwMc, 12, R1, Coefficients{L: 0, Ghrc: 0.0191, Ghrm: 0.0491, Ghwc: 0.0081, Ghwm: 0.0444, GM: 0.00035}},

	// Table 3: all functions fit from Suite 2 for p = 8 (Bad family).
	{"Table 3", Bad, H, 8, AllRegions, Coefficients{L: 13055, Gh: 1.8974}},
	{"Table 3", Bad, HrHw, 8, AllRegions, Coefficients{L: 13767, Ghr: 0.7072, Ghw: 1.5467}},
	{"Table 3", Bad, HM, 8, AllRegions, Coefficients{L: 18791, Gh: 0.3221, GM: 0.20423}},
	{"Table 3", Bad, HrHwM, 8, AllRegions, Coefficients{L: 16566, Ghr: 0.4612, Ghw: 0.7708, GM: 0.11138}},

	// Table 4: HrHwM fit from Suite 2 (Bad family).
	{"Table 4", Bad, HrHwM, 2, AllRegions, Coefficients{L: 10444, Ghr: 0.5062, Ghw: 1.0377, GM: 0.0484}},
	{"Table 4", Bad, HrHwM, 4, AllRegions, Coefficients{L: 16261, Ghr: 0.4748, Ghw: 1.0166, GM: 0.0663}},
	{"Table 4", Bad, HrHwM, 8, AllRegions, Coefficients{L: 16566, Ghr: 0.4612, Ghw: 0.7708, GM: 0.1113}},
	{"Table 4", Bad, HrHwM, 12, AllRegions, Coefficients{L: 16555, Ghr: 0.2429, Ghw: 0.5755, GM: 0.1697}},
}

// PublishedCoefficients returns Tables 1–4 of the superstep paper.
func PublishedCoefficients() []Published {
	return slices.Clone(published)
}

// lookupPublished returns the coefficients a table prints.
func lookupPublished(table string, fam Family, f Function, p int, r Region) (Coefficients, bool) {
	for _, e := range published {
		if e.Table == table && e.Family == fam && e.Function == f && e.P == p && e.Region == r {
			return e.Coef, true
		}
	}
	return Coefficients{}, false
}

// SGIPowerChallenge returns the paper's interval coefficients for p
// processors: HrHwM-c for the Good family from Table 2 (R0 and R1) and
// HrHwM for the Bad family from Table 4.
func SGIPowerChallenge(p int) (Set, error) {
	if !slices.Contains(PublishedProcessorCounts, p) {
		return Set{}, fmt.Errorf("p = %d: the superstep paper gives coefficients for p = 2, 4, 8 and 12 only; give a coefficient file for other processor counts", p)
	}
	r0, _ := lookupPublished("Table 2", Good, HrHwMc, p, R0)
	r1, _ := lookupPublished("Table 2", Good, HrHwMc, p, R1)
	bad, _ := lookupPublished("Table 4", Bad, HrHwM, p, AllRegions)
	return Set{
		Name:       fmt.Sprintf("SGI Power Challenge, p = %d", p),
		Source:     "the superstep paper, Table 2 (HrHwM-c, Good, fit on Suite 1) and Table 4 (HrHwM, Bad, fit on Suite 2)",
		P:          p,
		CacheWords: PublishedCacheWords,
		GoodR0:     r0,
		GoodR1:     &r1,
		Bad:        bad,
	}, nil
}

// PublishedError is one cell pair of the paper's validation tables: the
// average and maximum relative error of a function fit on one suite and
// evaluated on another.
type PublishedError struct {
	Table         string
	Family        Family
	Function      Function
	Region        Region
	FitSuite      int
	ValidateSuite int
	P             int
	Mean, Max     float64
}

// publishedErrors holds Tables 5–8 as printed, one row per function (and
// region) with (average, maximum) for p = 2, 4, 8, 12. Table 8 prints one
// value, 0.4013, with four digits.
var publishedErrors = []struct {
	table         string
	family        Family
	fit, validate int
	function      Function
	region        Region
	meanMax       [8]float64
}{
	{"Table 5", Good, 1, 2, H, R0, [8]float64{0.151, 0.430, 0.175, 0.888, 0.177, 1.089, 0.170, 1.258}},
	{"Table 5", Good, 1, 2, H, R1, [8]float64{0.188, 0.480, 0.217, 0.840, 0.250, 1.141, 0.290, 1.220}},
	{"Table 5", Good, 1, 2, HrHw, R0, [8]float64{0.046, 0.386, 0.037, 0.321, 0.050, 0.303, 0.066, 0.362}},
	{"Table 5", Good, 1, 2, HrHw, R1, [8]float64{0.034, 0.323, 0.061, 0.641, 0.150, 1.461, 0.241, 1.090}},
	{"Table 5", Good, 1, 2, HM, R0, [8]float64{0.134, 0.409, 0.148, 0.698, 0.148, 0.899, 0.145, 1.048}},
	{"Table 5", Good, 1, 2, HM, R1, [8]float64{0.144, 0.398, 0.172, 0.501, 0.158, 0.498, 0.160, 0.615}},
	{"Table 5", Good, 1, 2, HrHwMc, R0, [8]float64{0.046, 0.388, 0.036, 0.310, 0.049, 0.296, 0.065, 0.360}},
	{"Table 5", Good, 1, 2, HrHwMc, R1, [8]float64{0.014, 0.077, 0.017, 0.116, 0.026, 0.136, 0.049, 0.262}},

	{"Table 6", Good, 1, 3, H, R0, [8]float64{0.089, 0.603, 0.087, 0.480, 0.088, 0.444, 0.089, 0.450}},
	{"Table 6", Good, 1, 3, H, R1, [8]float64{0.074, 0.270, 0.096, 0.248, 0.111, 0.365, 0.141, 0.800}},
	{"Table 6", Good, 1, 3, HrHw, R0, [8]float64{0.048, 0.566, 0.044, 0.489, 0.054, 0.444, 0.070, 0.435}},
	{"Table 6", Good, 1, 3, HrHw, R1, [8]float64{0.026, 0.133, 0.055, 0.243, 0.115, 0.311, 0.198, 0.452}},
	{"Table 6", Good, 1, 3, HM, R0, [8]float64{0.074, 0.566, 0.068, 0.470, 0.080, 0.446, 0.087, 0.426}},
	{"Table 6", Good, 1, 3, HM, R1, [8]float64{0.068, 0.260, 0.074, 0.258, 0.078, 0.344, 0.093, 0.445}},
	{"Table 6", Good, 1, 3, HrHwMc, R0, [8]float64{0.048, 0.565, 0.044, 0.472, 0.055, 0.438, 0.069, 0.431}},
	{"Table 6", Good, 1, 3, HrHwMc, R1, [8]float64{0.016, 0.072, 0.022, 0.103, 0.042, 0.200, 0.070, 0.367}},

	{"Table 7", Bad, 2, 1, H, AllRegions, [8]float64{0.203, 0.309, 0.211, 0.700, 0.286, 1.366, 0.354, 2.020}},
	{"Table 7", Bad, 2, 1, HrHw, AllRegions, [8]float64{0.075, 0.222, 0.097, 0.279, 0.178, 0.355, 0.253, 0.731}},
	{"Table 7", Bad, 2, 1, HM, AllRegions, [8]float64{0.083, 0.148, 0.099, 0.299, 0.104, 0.366, 0.108, 0.442}},
	{"Table 7", Bad, 2, 1, HrHwM, AllRegions, [8]float64{0.057, 0.206, 0.058, 0.205, 0.063, 0.201, 0.060, 0.277}},

	{"Table 8", Bad, 2, 3, H, AllRegions, [8]float64{0.097, 0.282, 0.143, 0.386, 0.145, 0.4013, 0.133, 0.594}},
	{"Table 8", Bad, 2, 3, HrHw, AllRegions, [8]float64{0.051, 0.358, 0.078, 0.451, 0.084, 0.290, 0.090, 0.460}},
	{"Table 8", Bad, 2, 3, HM, AllRegions, [8]float64{0.096, 0.449, 0.085, 0.556, 0.066, 0.513, 0.070, 0.438}},
	{"Table 8", Bad, 2, 3, HrHwM, AllRegions, [8]float64{0.048, 0.359, 0.056, 0.480, 0.049, 0.397, 0.059, 0.409}},
}

// PublishedErrors returns Tables 5–8 of the superstep paper, one entry per function,
// region and p.
func PublishedErrors() []PublishedError {
	var out []PublishedError
	for _, r := range publishedErrors {
		for k, p := range PublishedProcessorCounts {
			out = append(out, PublishedError{
				Table: r.table, Family: r.family, Function: r.function, Region: r.region,
				FitSuite: r.fit, ValidateSuite: r.validate, P: p,
				Mean: r.meanMax[2*k], Max: r.meanMax[2*k+1],
			})
		}
	}
	return out
}
