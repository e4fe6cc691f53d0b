package scenario

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"memwall/engine/machine"
	"memwall/engine/units"
)

// A machine that gives its cache hierarchy carries it in fifteen more keys,
// written only when the machine has them, so a link of the paper's six
// numbers is what it always was:
//
//	levels=L1:48KiB:64B:200GB/s:100GB/s:1.2ns,L2:2MiB:64B:80GB/s:40GB/s:4ns
//	mem_latency=90ns
//	mem_latency_curve=512MiB:188ns,1GiB:222ns,2GiB:343ns
//	compute_rate=4G
//	core_rates=heapsort:2.5G,quicksort:3G
//	distribution=16KiB:10.9ns:12.9ns,1GiB:27.8ns:58ns:19ns
//	streams=33
//	stream_cost=8:16.6ns,32:27ns,64:22.4ns
//	few_buckets=2:15.9ns:18.7ns:20.4ns,32:8.1ns:11.7ns:16.6ns
//	l1_overlap=0.38ns:0.17
//	level_overlap=1
//	walk_in_flight=2.18
//	crowded_read=1.9ns
//	column_curve=1:16:1ns,1:512:2.2ns,64:16:0.45ns,64:2048:1.2ns
//	gather_curve=32MiB:3.8ns,64MiB:5.4ns,512MiB:10.2ns
//
// l1_overlap is the first level's fill time a line and the exposed share
// of the shorter of its fills and the core's work
// (machine.Machine.L1Fill, L1Exposed); level_overlap is the share of the
// levels' fills that hides behind the longest (machine.Machine.LevelOverlap);
// walk_in_flight is the lines a walk down a heap keeps in flight
// (machine.Machine.WalkInFlight); crowded_read is the time a read
// crowded into one place of its page takes beyond a first-level hit
// (machine.Machine.CrowdedRead). A point of the distribution curve is size:count:scatter, then :walk
// when its page walk was measured and :put when the simple sorts' scatter
// was (with walk 0 when only put was; machine.DistPoint).
// A point of the stream curve is buckets:scatter (machine.StreamPoint),
// of the few-bucket curve buckets:count:scatter, then :put when the
// simple sorts' loop was timed (machine.FewPoint),
// and of the column curve places:lines:read (machine.ColumnPoint).
// A point of the gather curve is span:read (machine.GatherPoint).
// A point of the memory latency curve is span:latency
// (machine.LatencyPoint). A level is name:size:line:beta1:beta2, and :latency when it has one; the
// levels go from the core out. A ":", "," or "%" in a level's name or a
// kernel id is written %3A, %2C or %25 (and that "%" escaped again by the
// link), so any name the machine package accepts comes back.

// hierarchyKeys are the hierarchy's link keys, in link order.
var hierarchyKeys = []string{"levels", "mem_latency", "mem_latency_curve", "compute_rate", "core_rates", "distribution", "streams", "stream_cost", "few_buckets", "l1_overlap", "level_overlap", "walk_in_flight", "crowded_read", "column_curve", "gather_curve"}

// writeHierarchy writes the hierarchy keys of m through add.
func writeHierarchy(add func(key, value string), m machine.Machine) {
	if len(m.Levels) > 0 {
		parts := make([]string, len(m.Levels))
		for i, l := range m.Levels {
			p := []string{escapePiece(l.Name), exactSize(l.Size), exactSize(l.Line),
				exact(l.Beta1, units.ParseBandwidth, bandwidthForms), exact(l.Beta2, units.ParseBandwidth, bandwidthForms)}
			if l.Latency > 0 {
				p = append(p, exact(l.Latency, units.ParseDuration, durationForms))
			}
			parts[i] = strings.Join(p, ":")
		}
		add("levels", strings.Join(parts, ","))
	}
	if m.MemLatency > 0 {
		add("mem_latency", exact(m.MemLatency, units.ParseDuration, durationForms))
	}
	if len(m.MemLatencyCurve) > 0 {
		parts := make([]string, len(m.MemLatencyCurve))
		for i, p := range m.MemLatencyCurve {
			parts[i] = exactSize(p.Span) + ":" + exact(p.Latency, units.ParseDuration, durationForms)
		}
		add("mem_latency_curve", strings.Join(parts, ","))
	}
	if m.ComputeRate > 0 {
		add("compute_rate", exactRate(m.ComputeRate))
	}
	if len(m.CoreRates) > 0 {
		ids := make([]string, 0, len(m.CoreRates))
		for id := range m.CoreRates {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		parts := make([]string, len(ids))
		for i, id := range ids {
			parts[i] = escapePiece(id) + ":" + exactRate(m.CoreRates[id])
		}
		add("core_rates", strings.Join(parts, ","))
	}
	if len(m.Distribution) > 0 {
		parts := make([]string, len(m.Distribution))
		for i, p := range m.Distribution {
			parts[i] = exactSize(p.Size) + ":" + exact(p.Count, units.ParseDuration, durationForms) + ":" + exact(p.Scatter, units.ParseDuration, durationForms)
			if p.Walk != 0 || p.Put != 0 {
				parts[i] += ":" + exact(p.Walk, units.ParseDuration, durationForms)
			}
			if p.Put != 0 {
				parts[i] += ":" + exact(p.Put, units.ParseDuration, durationForms)
			}
		}
		add("distribution", strings.Join(parts, ","))
	}
	if m.Streams > 0 {
		add("streams", strconv.Itoa(m.Streams))
	}
	if len(m.StreamCost) > 0 {
		parts := make([]string, len(m.StreamCost))
		for i, p := range m.StreamCost {
			parts[i] = strconv.Itoa(p.Buckets) + ":" + exact(p.Scatter, units.ParseDuration, durationForms)
		}
		add("stream_cost", strings.Join(parts, ","))
	}
	if len(m.FewBuckets) > 0 {
		parts := make([]string, len(m.FewBuckets))
		for i, p := range m.FewBuckets {
			parts[i] = strconv.Itoa(p.Buckets) + ":" + exact(p.Count, units.ParseDuration, durationForms) + ":" + exact(p.Scatter, units.ParseDuration, durationForms)
			if p.Put != 0 {
				parts[i] += ":" + exact(p.Put, units.ParseDuration, durationForms)
			}
		}
		add("few_buckets", strings.Join(parts, ","))
	}
	if m.L1Fill > 0 || m.L1Exposed > 0 {
		add("l1_overlap", exact(m.L1Fill, units.ParseDuration, durationForms)+":"+strconv.FormatFloat(m.L1Exposed, 'g', -1, 64))
	}
	if m.LevelOverlap > 0 {
		add("level_overlap", strconv.FormatFloat(m.LevelOverlap, 'g', -1, 64))
	}
	if m.WalkInFlight > 0 {
		add("walk_in_flight", strconv.FormatFloat(m.WalkInFlight, 'g', -1, 64))
	}
	if m.CrowdedRead > 0 {
		add("crowded_read", exact(m.CrowdedRead, units.ParseDuration, durationForms))
	}
	if len(m.ColumnCurve) > 0 {
		parts := make([]string, len(m.ColumnCurve))
		for i, p := range m.ColumnCurve {
			parts[i] = strconv.Itoa(p.Places) + ":" + strconv.FormatInt(p.Lines, 10) + ":" + exact(p.Read, units.ParseDuration, durationForms)
		}
		add("column_curve", strings.Join(parts, ","))
	}
	if len(m.GatherCurve) > 0 {
		parts := make([]string, len(m.GatherCurve))
		for i, p := range m.GatherCurve {
			parts[i] = exactSize(p.Span) + ":" + exact(p.Read, units.ParseDuration, durationForms)
		}
		add("gather_curve", strings.Join(parts, ","))
	}
}

// applyHierarchy reads the hierarchy keys of vals into m. A key that does
// not read is named in a problem and m keeps base's value of it. Levels
// without cache and line keys give the machine its C and B, as
// machine.WithLevels does.
func applyHierarchy(vals map[string]string, m *machine.Machine, base machine.Machine) Problems {
	var ps Problems
	// A number key: its value is checked with the machine
	// (machine.Validate), a value that does not read is named here.
	number := func(key string, parse func(string) (float64, error), dst *float64) {
		v, ok := vals[key]
		if !ok {
			return
		}
		if x, err := parse(v); err != nil {
			ps = append(ps, Problem{Field: key, Msg: err.Error() + "; " + keptValue(key, base)})
		} else {
			*dst = x
		}
	}
	if v, ok := vals["levels"]; ok {
		levels, p := parseLevels(v)
		if p != nil {
			p.Msg += "; " + keptValue("levels", base)
			ps = append(ps, *p)
		} else {
			m.Levels = levels
			_, hasC := vals["cache"]
			_, hasB := vals["line"]
			if last := levels[len(levels)-1]; !hasC && !hasB {
				m.C, m.B = last.Size, last.Line
			}
		}
	}
	number("mem_latency", units.ParseDuration, &m.MemLatency)
	ps = applyCurve(vals, "mem_latency_curve", parseLatencyCurve, &m.MemLatencyCurve, base, ps)
	number("compute_rate", units.ParseNumber, &m.ComputeRate)
	if v, ok := vals["core_rates"]; ok {
		rates, err := parseCoreRates(v)
		if err != nil {
			ps = append(ps, Problem{Field: "core_rates", Msg: err.Error() + "; " + keptValue("core_rates", base)})
		} else {
			m.CoreRates = rates
		}
	}
	ps = applyCurve(vals, "distribution", parseDistribution, &m.Distribution, base, ps)
	if v, ok := vals["streams"]; ok {
		// The count is checked with the machine (machine.Validate).
		if n, err := units.ParseCount(v); err != nil {
			ps = append(ps, Problem{Field: "streams", Msg: err.Error() + "; " + keptValue("streams", base)})
		} else {
			m.Streams = int(min(n, machine.MaxStreams+1))
		}
	}
	ps = applyCurve(vals, "stream_cost", parseStreamCost, &m.StreamCost, base, ps)
	ps = applyCurve(vals, "few_buckets", parseFewBuckets, &m.FewBuckets, base, ps)
	ps = applyCurve(vals, "column_curve", parseColumnCurve, &m.ColumnCurve, base, ps)
	ps = applyCurve(vals, "gather_curve", parseGatherCurve, &m.GatherCurve, base, ps)
	if v, ok := vals["l1_overlap"]; ok {
		// The values are checked with the machine (machine.Validate).
		fill, exposed, found := strings.Cut(v, ":")
		f, ferr := units.ParseDuration(fill)
		k, kerr := units.ParseNumber(exposed)
		switch {
		case !found:
			ps = append(ps, Problem{Field: "l1_fill", Msg: fmt.Sprintf("l1_overlap is the fill time and the exposed share, as 0.38ns:0.17; got %q", v) + "; " + keptValue("l1_fill", base)})
		case ferr != nil:
			ps = append(ps, Problem{Field: "l1_fill", Msg: ferr.Error() + "; " + keptValue("l1_fill", base)})
		case kerr != nil:
			ps = append(ps, Problem{Field: "l1_exposed", Msg: kerr.Error() + "; " + keptValue("l1_exposed", base)})
		default:
			m.L1Fill, m.L1Exposed = f, k
		}
	}
	number("level_overlap", units.ParseNumber, &m.LevelOverlap)
	number("walk_in_flight", units.ParseNumber, &m.WalkInFlight)
	number("crowded_read", units.ParseDuration, &m.CrowdedRead)
	return ps
}

// applyCurve reads the curve key of vals, when given, into dst; a curve
// that does not read is named in a problem added to ps, and dst keeps
// base's value.
func applyCurve[P any](vals map[string]string, key string, parse func(string) ([]P, *Problem), dst *[]P, base machine.Machine, ps Problems) Problems {
	v, ok := vals[key]
	if !ok {
		return ps
	}
	pts, p := parse(v)
	if p != nil {
		p.Msg += "; " + keptValue(key, base)
		return append(ps, *p)
	}
	*dst = pts
	return ps
}

// curveKey is how a link writes one of a machine's curves: its key, what
// its problems call it, its most points, the fewest pieces a point has
// (the fields past them are optional), the form the pieces take, and the
// fields they read into.
type curveKey[P any] struct {
	key, noun string
	max, min  int
	want      string
	fields    func(p *P) []linkField
}

// parseCurve reads a curve's key, points separated by commas and their
// pieces by colons. Its problem names the point and the field, as
// distribution[1].scatter; the curve's order and ranges are checked
// with the machine (machine.Validate).
func parseCurve[P any](v string, c curveKey[P]) ([]P, *Problem) {
	parts := strings.Split(v, ",")
	if len(parts) > c.max {
		return nil, &Problem{Field: c.key, Msg: fmt.Sprintf("a %s has at most %d points; got %d", c.noun, c.max, len(parts))}
	}
	pts := make([]P, len(parts))
	for i, part := range parts {
		at := fmt.Sprintf("%s[%d]", c.key, i)
		pieces := strings.Split(part, ":")
		fields := c.fields(&pts[i])
		if len(pieces) < c.min || len(pieces) > len(fields) {
			return nil, &Problem{Field: at, Msg: fmt.Sprintf("want %s; got %q", c.want, clip(part))}
		}
		if pr := parseFields(at, pieces, fields); pr != nil {
			return nil, pr
		}
	}
	return pts, nil
}

// parseDistribution reads the distribution key.
func parseDistribution(v string) ([]machine.DistPoint, *Problem) {
	return parseCurve(v, curveKey[machine.DistPoint]{key: "distribution", noun: "distribution curve", max: machine.MaxDistPoints, min: 3,
		want: "size:count:scatter, then :walk and :put when measured (walk 0 when only put is), e.g. 64MiB:27ns:58ns:8ns:45ns",
		fields: func(p *machine.DistPoint) []linkField {
			return []linkField{
				{"size", func(s string) (err error) { p.Size, err = units.ParseSize(s); return }},
				{"count", func(s string) (err error) { p.Count, err = units.ParseDuration(s); return }},
				{"scatter", func(s string) (err error) { p.Scatter, err = units.ParseDuration(s); return }},
				{"walk", func(s string) (err error) { p.Walk, err = units.ParseDuration(s); return }},
				{"put", func(s string) (err error) { p.Put, err = units.ParseDuration(s); return }},
			}
		}})
}

// parseStreamCost reads the stream_cost key.
func parseStreamCost(v string) ([]machine.StreamPoint, *Problem) {
	return parseCurve(v, curveKey[machine.StreamPoint]{key: "stream_cost", noun: "stream curve", max: machine.MaxStreamPoints, min: 2,
		want: "buckets:scatter, e.g. 64:22ns",
		fields: func(p *machine.StreamPoint) []linkField {
			return []linkField{
				{"buckets", func(s string) error {
					n, err := units.ParseCount(s)
					p.Buckets = int(min(n, machine.MaxStreams+1))
					return err
				}},
				{"scatter", func(s string) (err error) { p.Scatter, err = units.ParseDuration(s); return }},
			}
		}})
}

// parseFewBuckets reads the few_buckets key.
func parseFewBuckets(v string) ([]machine.FewPoint, *Problem) {
	return parseCurve(v, curveKey[machine.FewPoint]{key: "few_buckets", noun: "few-bucket curve", max: machine.MaxFewPoints, min: 3,
		want: "buckets:count:scatter, then :put when measured, e.g. 2:15.9ns:18.7ns:20.4ns",
		fields: func(p *machine.FewPoint) []linkField {
			return []linkField{
				// A count past the bounds is kept past them, for the
				// machine's check to name (machine.ValidateFewBuckets).
				{"buckets", func(s string) error {
					n, err := units.ParseCount(s)
					p.Buckets = int(min(n, machine.CurveBuckets))
					return err
				}},
				{"count", func(s string) (err error) { p.Count, err = units.ParseDuration(s); return }},
				{"scatter", func(s string) (err error) { p.Scatter, err = units.ParseDuration(s); return }},
				{"put", func(s string) (err error) { p.Put, err = units.ParseDuration(s); return }},
			}
		}})
}

// parseColumnCurve reads the column_curve key.
func parseColumnCurve(v string) ([]machine.ColumnPoint, *Problem) {
	return parseCurve(v, curveKey[machine.ColumnPoint]{key: "column_curve", noun: "column curve", max: machine.MaxColumnPoints, min: 3,
		want: "places:lines:read, e.g. 1:512:2.2ns",
		fields: func(p *machine.ColumnPoint) []linkField {
			return []linkField{
				// Counts past the bounds are kept past them, for the
				// machine's check to name (machine.ValidateColumnCurve).
				{"places", func(s string) error {
					n, err := units.ParseCount(s)
					p.Places = int(min(n, machine.MaxColumnPlaces+1))
					return err
				}},
				{"lines", func(s string) error {
					n, err := units.ParseCount(s)
					p.Lines = min(n, machine.MaxColumnLines+1)
					return err
				}},
				{"read", func(s string) (err error) { p.Read, err = units.ParseDuration(s); return }},
			}
		}})
}

// parseGatherCurve reads the gather_curve key.
func parseGatherCurve(v string) ([]machine.GatherPoint, *Problem) {
	return parseCurve(v, curveKey[machine.GatherPoint]{key: "gather_curve", noun: "gather curve", max: machine.MaxGatherPoints, min: 2,
		want: "span:read, e.g. 64MiB:5.4ns",
		fields: func(p *machine.GatherPoint) []linkField {
			return []linkField{
				{"span", func(s string) (err error) { p.Span, err = units.ParseSize(s); return }},
				{"read", func(s string) (err error) { p.Read, err = units.ParseDuration(s); return }},
			}
		}})
}

// parseLatencyCurve reads the mem_latency_curve key.
func parseLatencyCurve(v string) ([]machine.LatencyPoint, *Problem) {
	return parseCurve(v, curveKey[machine.LatencyPoint]{key: "mem_latency_curve", noun: "memory latency curve", max: machine.MaxLatencyPoints, min: 2,
		want: "span:latency, e.g. 1GiB:222ns",
		fields: func(p *machine.LatencyPoint) []linkField {
			return []linkField{
				{"span", func(s string) (err error) { p.Span, err = units.ParseSize(s); return }},
				{"latency", func(s string) (err error) { p.Latency, err = units.ParseDuration(s); return }},
			}
		}})
}

// parseLevels reads the levels key. Its problem names the level and the
// field, as levels[1].size.
func parseLevels(v string) ([]machine.Level, *Problem) {
	if strings.TrimSpace(v) == "" {
		return nil, &Problem{Field: "levels", Msg: "is empty; give the levels as name:size:line:beta1:beta2[:latency], separated by commas, or leave the key out"}
	}
	parts := strings.Split(v, ",")
	if len(parts) > machine.MaxLevels {
		return nil, &Problem{Field: "levels", Msg: fmt.Sprintf("a machine has at most %d cache levels; got %d", machine.MaxLevels, len(parts))}
	}
	levels := make([]machine.Level, len(parts))
	for i, part := range parts {
		at := fmt.Sprintf("levels[%d]", i)
		pieces := strings.Split(part, ":")
		if len(pieces) != 5 && len(pieces) != 6 {
			return nil, &Problem{Field: at, Msg: fmt.Sprintf("want name:size:line:beta1:beta2, and :latency when given; got %q", clip(part))}
		}
		for j := range pieces {
			u, err := url.PathUnescape(pieces[j])
			if err != nil {
				return nil, &Problem{Field: at, Msg: fmt.Sprintf("%q has a bad %%-escape", clip(pieces[j]))}
			}
			pieces[j] = u
		}
		l := &levels[i]
		l.Name = pieces[0]
		if pr := parseFields(at, pieces[1:], []linkField{
			{"size", func(s string) (err error) { l.Size, err = units.ParseSize(s); return }},
			{"line", func(s string) (err error) { l.Line, err = units.ParseSize(s); return }},
			{"beta1", func(s string) (err error) { l.Beta1, err = units.ParseBandwidth(s); return }},
			{"beta2", func(s string) (err error) { l.Beta2, err = units.ParseBandwidth(s); return }},
			{"latency", func(s string) (err error) { l.Latency, err = units.ParseDuration(s); return }},
		}); pr != nil {
			return nil, pr
		}
	}
	return levels, nil
}

// linkField is one piece of a colon-separated link value: its name in a
// problem and how it is read into its place.
type linkField struct {
	name  string
	parse func(string) error
}

// parseFields reads pieces into fields in order (fields past the pieces,
// the optional ones, are left as they are); a problem names the piece as
// at.name.
func parseFields(at string, pieces []string, fields []linkField) *Problem {
	for j, piece := range pieces {
		if err := fields[j].parse(piece); err != nil {
			return &Problem{Field: at + "." + fields[j].name, Msg: err.Error()}
		}
	}
	return nil
}

// parseCoreRates reads kernel:rate pairs separated by commas.
func parseCoreRates(v string) (map[string]float64, error) {
	rates := map[string]float64{}
	for _, part := range strings.Split(v, ",") {
		id, rate, ok := strings.Cut(part, ":")
		if !ok {
			return nil, fmt.Errorf("want kernel:rate pairs separated by commas, e.g. quicksort:3G; got %q", clip(part))
		}
		u, err := url.PathUnescape(id)
		if err != nil {
			return nil, fmt.Errorf("%q has a bad %%-escape", clip(id))
		}
		r, err := units.ParseNumber(rate)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", clip(u), err)
		}
		rates[u] = r
	}
	return rates, nil
}

// escapePiece writes a name for a piece of a level or a core rate: the
// separators and the escape character percent-encoded.
func escapePiece(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '%', ':', ',':
			fmt.Fprintf(&b, "%%%02X", c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// exactRate writes operations per second with an SI prefix where that is
// exact ("4G"), else in plain digits, which always are.
func exactRate(v float64) string {
	for _, p := range []struct {
		f      float64
		prefix string
	}{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if v >= p.f {
			s := strconv.FormatFloat(v/p.f, 'f', -1, 64) + p.prefix
			if got, err := units.ParseNumber(s); err == nil && got == v {
				return s
			}
			break
		}
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// restoreHierarchy puts base's value of a hierarchy field back into m:
// all its levels for a field of any level.
func restoreHierarchy(m *machine.Machine, base machine.Machine, key string) {
	switch {
	case strings.HasPrefix(key, "levels"):
		m.Levels = base.Levels
		if len(base.Levels) == 0 {
			// The link's levels are left out: the machine is the
			// paper's six numbers, whatever its cache and line.
			m.Levels = nil
		}
	case strings.HasPrefix(key, "mem_latency_curve"):
		m.MemLatencyCurve = base.MemLatencyCurve
	case key == "mem_latency":
		m.MemLatency = base.MemLatency
	case key == "compute_rate":
		m.ComputeRate = base.ComputeRate
	case strings.HasPrefix(key, "core_rates"):
		m.CoreRates = base.CoreRates
	case strings.HasPrefix(key, "distribution"):
		m.Distribution = base.Distribution
	case key == "streams":
		m.Streams = base.Streams
	case strings.HasPrefix(key, "stream_cost"):
		m.StreamCost = base.StreamCost
	case strings.HasPrefix(key, "few_buckets"):
		m.FewBuckets = base.FewBuckets
	case strings.HasPrefix(key, "l1_"):
		m.L1Fill, m.L1Exposed = base.L1Fill, base.L1Exposed
	case key == "level_overlap":
		m.LevelOverlap = base.LevelOverlap
	case key == "walk_in_flight":
		m.WalkInFlight = base.WalkInFlight
	case key == "crowded_read":
		m.CrowdedRead = base.CrowdedRead
	case strings.HasPrefix(key, "column_curve"):
		m.ColumnCurve = base.ColumnCurve
	case strings.HasPrefix(key, "gather_curve"):
		m.GatherCurve = base.GatherCurve
	}
}

// keptHierarchy says which value a refused hierarchy key kept.
func keptHierarchy(key string, base machine.Machine) (string, bool) {
	switch {
	case strings.HasPrefix(key, "levels"):
		if len(base.Levels) == 0 {
			return "the link's cache levels were left out", true
		}
		return "the cache levels of " + base.Name + " were used instead", true
	case strings.HasPrefix(key, "mem_latency_curve"):
		if len(base.MemLatencyCurve) == 0 {
			return "the memory latency curve was left out", true
		}
		return "the memory latency curve of " + base.Name + " was used instead", true
	case key == "mem_latency":
		if base.MemLatency == 0 {
			return "the memory latency was left out", true
		}
		return "mem_latency = " + units.FormatSeconds(base.MemLatency) + " of " + base.Name + " was used instead", true
	case key == "compute_rate":
		if base.ComputeRate == 0 {
			return "the compute rate was left out", true
		}
		return "compute_rate = " + exactRate(base.ComputeRate) + " of " + base.Name + " was used instead", true
	case strings.HasPrefix(key, "core_rates"):
		if len(base.CoreRates) == 0 {
			return "the core rates were left out", true
		}
		return "the core rates of " + base.Name + " were used instead", true
	case strings.HasPrefix(key, "distribution"):
		if len(base.Distribution) == 0 {
			return "the distribution curve was left out", true
		}
		return "the distribution curve of " + base.Name + " was used instead", true
	case key == "streams":
		if base.Streams == 0 {
			return "the stream bound was left out", true
		}
		return "streams = " + strconv.Itoa(base.Streams) + " of " + base.Name + " was used instead", true
	case strings.HasPrefix(key, "stream_cost"):
		if len(base.StreamCost) == 0 {
			return "the stream curve was left out", true
		}
		return "the stream curve of " + base.Name + " was used instead", true
	case strings.HasPrefix(key, "few_buckets"):
		if len(base.FewBuckets) == 0 {
			return "the few-bucket curve was left out", true
		}
		return "the few-bucket curve of " + base.Name + " was used instead", true
	case strings.HasPrefix(key, "l1_"):
		if base.L1Fill == 0 {
			return "the first level's overlap with the core's work was left out", true
		}
		return "the first level's overlap of " + base.Name + " was used instead", true
	case key == "level_overlap":
		if base.LevelOverlap == 0 {
			return "the levels' overlap was left out", true
		}
		return "level_overlap = " + strconv.FormatFloat(base.LevelOverlap, 'g', -1, 64) + " of " + base.Name + " was used instead", true
	case key == "walk_in_flight":
		if base.WalkInFlight == 0 {
			return "the heap walk's lines in flight were left out", true
		}
		return "walk_in_flight = " + strconv.FormatFloat(base.WalkInFlight, 'g', -1, 64) + " of " + base.Name + " was used instead", true
	case key == "crowded_read":
		if base.CrowdedRead == 0 {
			return "the crowded read's time was left out", true
		}
		return "crowded_read = " + units.FormatSeconds(base.CrowdedRead) + " of " + base.Name + " was used instead", true
	case strings.HasPrefix(key, "column_curve"):
		if len(base.ColumnCurve) == 0 {
			return "the column curve was left out", true
		}
		return "the column curve of " + base.Name + " was used instead", true
	case strings.HasPrefix(key, "gather_curve"):
		if len(base.GatherCurve) == 0 {
			return "the gather curve was left out", true
		}
		return "the gather curve of " + base.Name + " was used instead", true
	}
	return "", false
}
