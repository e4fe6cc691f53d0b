package numl

import (
	"fmt"
	"strings"

	"memwall/engine/units"
)

// coefNames are the keys of a coefficient list, in the order String writes
// them.
var coefNames = []string{"alpha", "beta", "gamma", "delta", "beta_mem", "gamma_mem"}

// ParseCoef reads a coefficient list such as
// "alpha=10us, beta=3.3ns, gamma=100ns, delta=3.3ns, beta_mem=1ns,
// gamma_mem=30ns": times with units (a bare number is seconds), keys
// alpha (per message), beta (per byte), gamma (per line touched by a
// message), delta (per arithmetic operation), beta_mem (per load or store)
// and gamma_mem (per line touched by a statement). Keys left out are zero.
// Errors name the key (prefixed by field, e.g. "m1.") and what is accepted.
func ParseCoef(field, s string) (Coef, error) {
	var c Coef
	if len(s) > 1000 {
		return c, &FieldError{Field: field, Msg: "the list is longer than 1000 characters"}
	}
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		k = strings.ToLower(strings.TrimSpace(k))
		if !ok {
			return c, &FieldError{Field: field, Msg: fmt.Sprintf("%q is not key=time (keys %s)", part, strings.Join(coefNames, ", "))}
		}
		var dst *float64
		switch k {
		case "alpha":
			dst = &c.Alpha
		case "beta":
			dst = &c.Beta
		case "gamma":
			dst = &c.Gamma
		case "delta":
			dst = &c.Delta
		case "beta_mem":
			dst = &c.BetaMem
		case "gamma_mem":
			dst = &c.GammaMem
		default:
			return c, &FieldError{Field: field, Msg: fmt.Sprintf("unknown coefficient %q (keys %s)", k, strings.Join(coefNames, ", "))}
		}
		if seen[k] {
			return c, &FieldError{Field: field + k, Msg: "given twice"}
		}
		seen[k] = true
		x, err := units.ParseDuration(strings.TrimSpace(v))
		if err != nil {
			return c, &FieldError{Field: field + k, Msg: err.Error() + " (a time such as 10us, 3.3ns)"}
		}
		*dst = x
	}
	return c, c.Validate(field)
}

// String writes c in the form ParseCoef reads, leaving out zeros.
func (c Coef) String() string {
	var parts []string
	for i, v := range []float64{c.Alpha, c.Beta, c.Gamma, c.Delta, c.BetaMem, c.GammaMem} {
		if v != 0 {
			parts = append(parts, coefNames[i]+"="+units.FormatSecondsPrec(v, 6))
		}
	}
	return strings.Join(parts, ", ")
}
