package machine

// GatherPoint is one point of a machine's gather curve: independent reads
// at random places of an array of Span bytes by indices streamed from
// another (s += a[idx[i]], the permutation product's Y[X[i]]), in seconds
// a read, the loop's other work and the hits of the levels included.
//
// Past the last cache such a read does not settle at one cost. Each read
// that misses the caches also waits for its translation, and the page
// tables of a wider span fall out of the translation caches and then out
// of the data caches; and the share of reads the last cache still holds
// falls more slowly than its size over the span, on a cache whose lines
// go where other tenants' do. On the Zen 5 guest of docs/hierarchy.md
// (a 14.5 MiB share of L3) the gather took 3.8, 5.4, 7.4, 8.6 and 10.2 ns
// a read over 32 MiB to 512 MiB, where the last level's hits (a share
// C/span) and memory's random fill read at 8·C gave 5.2, 7.0, 7.9, 8.4
// and 8.6: the permutation product of 16Mi elements ran at 0.73 of that
// estimate. The curve prices such reads at their own span.
type GatherPoint struct {
	Span int64   `json:"span"`
	Read float64 `json:"read"`
}

// MaxGatherPoints bounds the points of a gather curve, and MaxGatherRead
// a point's time.
const (
	MaxGatherPoints = 32
	MaxGatherRead   = 10e-6
)

// ValidateGatherCurve checks a gather curve: none, or two to
// MaxGatherPoints points, spans from 1 KiB to 1 TiB in increasing order,
// times above 0 and up to 10 µs a read. Errors name the point and field,
// as gather_curve[1].read.
func ValidateGatherCurve(ps []GatherPoint) Errors {
	return validateSpanCurve(spanCurve{key: "gather_curve", noun: "gather curve", max: MaxGatherPoints,
		field: "read", limit: MaxGatherRead, what: "a read's time must be above 0 and up to 10 µs (e.g. 5.4 ns)"},
		ps, func(p GatherPoint) (int64, float64) { return p.Span, p.Read })
}

// GatherAt is the gather curve's time a read over span bytes, read
// between its points linearly in log span. ok is false when the machine
// has no curve or span lies outside it (before its first point, where
// the reads hit the caches, which the levels price, or past its last),
// where the curve says nothing.
func (m Machine) GatherAt(span float64) (read float64, ok bool) {
	ps := m.GatherCurve
	if len(ps) < 2 || !(span >= float64(ps[0].Span) && span <= float64(ps[len(ps)-1].Span)) {
		return 0, false
	}
	lo, hi, f := logBracket(ps, span, func(p GatherPoint) int64 { return p.Span })
	return lo.Read + f*(hi.Read-lo.Read), true
}
