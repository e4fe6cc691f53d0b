package machine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"memwall/engine/units"
	"memwall/internal/strictjson"
)

// MaxFileSize bounds a machine file; a real one is well under a kilobyte.
const MaxFileSize = 64 << 10

// fileMachine is the on-disk form. Each parameter may be a number in base
// units (bytes, bytes/s, seconds) or a string with a unit ("2.12 GB/s",
// "256 KiB", "7.52 ns"), so files written by hand read naturally while
// files written by memwall keep full precision.
type fileMachine struct {
	ID          string          `json:"id"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Source      string          `json:"source"`
	Beta1       json.RawMessage `json:"beta1"`
	Beta2       json.RawMessage `json:"beta2"`
	Mu1         json.RawMessage `json:"mu1"`
	C           json.RawMessage `json:"cache"`
	B           json.RawMessage `json:"line"`
	M           json.RawMessage `json:"mispredict"`
	Levels      []fileLevel     `json:"levels"`
	MemLatency  json.RawMessage `json:"mem_latency"`
	// MemLatencyCurve's points as Distribution's: bytes and seconds,
	// or "1 GiB" and "220 ns".
	MemLatencyCurve []fileLatencyPoint `json:"mem_latency_curve"`
	ComputeRate     json.RawMessage    `json:"compute_rate"`
	CoreRates       map[string]float64 `json:"core_rates"`
	// Distribution's points are written by memwall in seconds and
	// bytes; by hand as "64 MiB" and "30 ns" too.
	Distribution []fileDistPoint   `json:"distribution"`
	Streams      json.RawMessage   `json:"streams"`
	StreamCost   []fileStreamPoint `json:"stream_cost"`
	FewBuckets   []fileFewPoint    `json:"few_buckets"`
	L1Fill       json.RawMessage   `json:"l1_fill"`
	L1Exposed    json.RawMessage   `json:"l1_exposed"`
	LevelOverlap json.RawMessage   `json:"level_overlap"`
	WalkInFlight json.RawMessage   `json:"walk_in_flight"`
	CrowdedRead  json.RawMessage   `json:"crowded_read"`
	// ColumnCurve's points: places and lines as counts, each read as
	// seconds or as "0.8 ns".
	ColumnCurve []fileColumnPoint `json:"column_curve"`
	// GatherCurve's points as the latency curve's: bytes and seconds, or
	// "64 MiB" and "5.4 ns".
	GatherCurve []fileGatherPoint  `json:"gather_curve"`
	Spread      map[string]float64 `json:"spread"`
	Notes       map[string]string  `json:"notes"`
}

// fileLevel is one cache level on disk, with quantities as in
// fileMachine.
type fileLevel struct {
	Name  string          `json:"name"`
	Size  json.RawMessage `json:"size"`
	Line  json.RawMessage `json:"line"`
	Beta1 json.RawMessage `json:"beta1"`
	Beta2 json.RawMessage `json:"beta2"`
	// Latency is optional.
	Latency json.RawMessage `json:"latency"`
}

// fileDistPoint is one point of a distribution curve on disk.
type fileDistPoint struct {
	Size    json.RawMessage `json:"size"`
	Count   json.RawMessage `json:"count"`
	Scatter json.RawMessage `json:"scatter"`
	// Walk and Put are optional.
	Walk json.RawMessage `json:"walk"`
	Put  json.RawMessage `json:"put"`
}

// fileStreamPoint is one point of a stream curve on disk.
type fileStreamPoint struct {
	Buckets json.RawMessage `json:"buckets"`
	Scatter json.RawMessage `json:"scatter"`
}

// fileFewPoint is one point of a few-bucket curve on disk.
type fileFewPoint struct {
	Buckets json.RawMessage `json:"buckets"`
	Count   json.RawMessage `json:"count"`
	Scatter json.RawMessage `json:"scatter"`
	// Put is optional.
	Put json.RawMessage `json:"put"`
}

// fileColumnPoint is one point of a column curve on disk.
type fileColumnPoint struct {
	Places json.RawMessage `json:"places"`
	Lines  json.RawMessage `json:"lines"`
	Read   json.RawMessage `json:"read"`
}

// fileGatherPoint is one point of a gather curve on disk.
type fileGatherPoint struct {
	Span json.RawMessage `json:"span"`
	Read json.RawMessage `json:"read"`
}

// fileLatencyPoint is one point of a memory latency curve on disk.
type fileLatencyPoint struct {
	Span    json.RawMessage `json:"span"`
	Latency json.RawMessage `json:"latency"`
}

// parseSize reads a size quantity as a float64, for field.
func parseSize(s string) (float64, error) { v, err := units.ParseSize(s); return float64(v), err }

// filePoints makes room for a curve of n points read from a file, and
// for the number each point's position on the curve (a size, a span, a
// count) reads as before it is checked whole: none, and an error naming
// key, past max.
func filePoints[P any](es *Errors, key, noun string, n, max int) ([]P, []float64) {
	if n > max {
		es.Add(key, "a %s has at most %d points; got %d", noun, max, n)
		return nil, nil
	}
	if n == 0 {
		return nil, nil
	}
	return make([]P, n), make([]float64, n)
}

// parseCount reads a count as a float64, for field.
func parseCount(s string) (float64, error) { v, err := units.ParseCount(s); return float64(v), err }

// isAbsent is a missing optional quantity: no key, or null.
func isAbsent(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || string(raw) == "null"
}

// ParseJSON reads one machine file and validates it. Errors name the field.
func ParseJSON(data []byte) (Machine, error) {
	if len(data) > MaxFileSize {
		return Machine{}, fmt.Errorf("machine file: %d bytes is larger than the %d accepted", len(data), MaxFileSize)
	}
	var f fileMachine
	if err := strictjson.Decode(data, &f, "machine file"); err != nil {
		return Machine{}, err
	}
	m := Machine{ID: f.ID, Name: f.Name, Description: f.Description, Source: f.Source, Spread: f.Spread, Notes: f.Notes}
	var es Errors
	field := func(name string, raw json.RawMessage, parse func(string) (float64, error), dst *float64) {
		v, err := quantity(raw, parse)
		if err != nil {
			es = append(es, FieldError{Field: name, Msg: err.Error()})
			return
		}
		*dst = v
	}
	for _, t := range []struct{ name, v string }{{"id", f.ID}, {"name", f.Name}, {"description", f.Description}, {"source", f.Source}} {
		if i := strings.IndexFunc(t.v, isControl); i >= 0 {
			es = append(es, FieldError{Field: t.name, Msg: fmt.Sprintf("holds the control character %q at byte %d; names and texts are printable", t.v[i:i+1], i)})
		}
	}
	var c, b, mu1 float64
	field("beta1", f.Beta1, units.ParseBandwidth, &m.Beta1)
	field("beta2", f.Beta2, units.ParseBandwidth, &m.Beta2)
	field("mu1", f.Mu1, parseCount, &mu1)
	field("cache", f.C, parseSize, &c)
	field("line", f.B, parseSize, &b)
	field("mispredict", f.M, units.ParseDuration, &m.M)
	if !isAbsent(f.MemLatency) {
		field("mem_latency", f.MemLatency, units.ParseDuration, &m.MemLatency)
	}
	if !isAbsent(f.ComputeRate) {
		field("compute_rate", f.ComputeRate, units.ParseNumber, &m.ComputeRate)
	}
	var streams float64
	if !isAbsent(f.Streams) {
		field("streams", f.Streams, parseCount, &streams)
	}
	if !isAbsent(f.L1Fill) {
		field("l1_fill", f.L1Fill, units.ParseDuration, &m.L1Fill)
	}
	if !isAbsent(f.L1Exposed) {
		field("l1_exposed", f.L1Exposed, units.ParseNumber, &m.L1Exposed)
	}
	if !isAbsent(f.LevelOverlap) {
		field("level_overlap", f.LevelOverlap, units.ParseNumber, &m.LevelOverlap)
	}
	if !isAbsent(f.WalkInFlight) {
		field("walk_in_flight", f.WalkInFlight, units.ParseNumber, &m.WalkInFlight)
	}
	if !isAbsent(f.CrowdedRead) {
		field("crowded_read", f.CrowdedRead, units.ParseDuration, &m.CrowdedRead)
	}
	if len(f.CoreRates) > 0 {
		m.CoreRates = make(map[string]float64, len(f.CoreRates))
		for k, v := range f.CoreRates {
			m.CoreRates[k] = v
		}
	}
	var distSizes, streamBuckets, latSpans, colPlaces []float64
	m.Distribution, distSizes = filePoints[DistPoint](&es, "distribution", "distribution curve", len(f.Distribution), MaxDistPoints)
	for i, p := range f.Distribution[:len(distSizes)] {
		at := fmt.Sprintf("distribution[%d]", i)
		field(at+".size", p.Size, parseSize, &distSizes[i])
		field(at+".count", p.Count, units.ParseDuration, &m.Distribution[i].Count)
		field(at+".scatter", p.Scatter, units.ParseDuration, &m.Distribution[i].Scatter)
		if !isAbsent(p.Walk) {
			field(at+".walk", p.Walk, units.ParseDuration, &m.Distribution[i].Walk)
		}
		if !isAbsent(p.Put) {
			field(at+".put", p.Put, units.ParseDuration, &m.Distribution[i].Put)
		}
	}
	m.StreamCost, streamBuckets = filePoints[StreamPoint](&es, "stream_cost", "stream curve", len(f.StreamCost), MaxStreamPoints)
	for i, p := range f.StreamCost[:len(streamBuckets)] {
		at := fmt.Sprintf("stream_cost[%d]", i)
		field(at+".buckets", p.Buckets, parseCount, &streamBuckets[i])
		field(at+".scatter", p.Scatter, units.ParseDuration, &m.StreamCost[i].Scatter)
	}
	var fewBuckets []float64
	m.FewBuckets, fewBuckets = filePoints[FewPoint](&es, "few_buckets", "few-bucket curve", len(f.FewBuckets), MaxFewPoints)
	for i, p := range f.FewBuckets[:len(fewBuckets)] {
		at := fmt.Sprintf("few_buckets[%d]", i)
		field(at+".buckets", p.Buckets, parseCount, &fewBuckets[i])
		field(at+".count", p.Count, units.ParseDuration, &m.FewBuckets[i].Count)
		field(at+".scatter", p.Scatter, units.ParseDuration, &m.FewBuckets[i].Scatter)
		if !isAbsent(p.Put) {
			field(at+".put", p.Put, units.ParseDuration, &m.FewBuckets[i].Put)
		}
	}
	m.ColumnCurve, colPlaces = filePoints[ColumnPoint](&es, "column_curve", "column curve", len(f.ColumnCurve), MaxColumnPoints)
	colLines := make([]float64, len(colPlaces))
	for i, p := range f.ColumnCurve[:len(colPlaces)] {
		at := fmt.Sprintf("column_curve[%d]", i)
		field(at+".places", p.Places, parseCount, &colPlaces[i])
		field(at+".lines", p.Lines, parseCount, &colLines[i])
		field(at+".read", p.Read, units.ParseDuration, &m.ColumnCurve[i].Read)
	}
	m.MemLatencyCurve, latSpans = filePoints[LatencyPoint](&es, "mem_latency_curve", "memory latency curve", len(f.MemLatencyCurve), MaxLatencyPoints)
	for i, p := range f.MemLatencyCurve[:len(latSpans)] {
		at := fmt.Sprintf("mem_latency_curve[%d]", i)
		field(at+".span", p.Span, parseSize, &latSpans[i])
		field(at+".latency", p.Latency, units.ParseDuration, &m.MemLatencyCurve[i].Latency)
	}
	var gatherSpans []float64
	m.GatherCurve, gatherSpans = filePoints[GatherPoint](&es, "gather_curve", "gather curve", len(f.GatherCurve), MaxGatherPoints)
	for i, p := range f.GatherCurve[:len(gatherSpans)] {
		at := fmt.Sprintf("gather_curve[%d]", i)
		field(at+".span", p.Span, parseSize, &gatherSpans[i])
		field(at+".read", p.Read, units.ParseDuration, &m.GatherCurve[i].Read)
	}
	sizes := make([][2]float64, len(f.Levels))
	if len(f.Levels) > 0 {
		m.Levels = make([]Level, len(f.Levels))
	}
	for i, l := range f.Levels {
		at := fmt.Sprintf("levels[%d]", i)
		m.Levels[i].Name = l.Name
		field(at+".size", l.Size, parseSize, &sizes[i][0])
		field(at+".line", l.Line, parseSize, &sizes[i][1])
		field(at+".beta1", l.Beta1, units.ParseBandwidth, &m.Levels[i].Beta1)
		field(at+".beta2", l.Beta2, units.ParseBandwidth, &m.Levels[i].Beta2)
		if !isAbsent(l.Latency) {
			field(at+".latency", l.Latency, units.ParseDuration, &m.Levels[i].Latency)
		}
	}
	if len(es) > 0 {
		return Machine{}, es
	}
	// wholeBytes stores a size that came out as a number of bytes, or
	// names the field when it is not a whole number up to 1 TiB.
	wholeBytes := func(name string, v float64, dst *int64) {
		if v != math.Trunc(v) || v < 0 || v > MaxCache {
			es = append(es, FieldError{Field: name, Msg: fmt.Sprintf("must be a whole number of bytes up to 1 TiB; got %g", v)})
			return
		}
		*dst = int64(v)
	}
	wholeBytes("cache", c, &m.C)
	wholeBytes("line", b, &m.B)
	if mu1 != math.Trunc(mu1) || mu1 < 0 || mu1 > MaxMu1 {
		es = append(es, FieldError{Field: "mu1", Msg: fmt.Sprintf("concurrent sequential streams must be a whole number from 1 to %d; got %g", MaxMu1, mu1)})
	} else {
		m.Mu1 = int(mu1)
	}
	if streams != math.Trunc(streams) || streams < 0 || streams > MaxStreams {
		es = append(es, FieldError{Field: "streams", Msg: streamsMsg(streams)})
	} else {
		m.Streams = int(streams)
	}
	for i, v := range distSizes {
		wholeBytes(fmt.Sprintf("distribution[%d].size", i), v, &m.Distribution[i].Size)
	}
	for i, v := range streamBuckets {
		if v != math.Trunc(v) || v < MinStreams || v > MaxStreams {
			es = append(es, FieldError{Field: fmt.Sprintf("stream_cost[%d].buckets", i), Msg: fmt.Sprintf("a point's buckets must be a whole number from %d to %d; got %g", MinStreams, MaxStreams, v)})
			continue
		}
		m.StreamCost[i].Buckets = int(v)
	}
	for i, v := range fewBuckets {
		if v != math.Trunc(v) || v < 1 || v >= CurveBuckets {
			es = append(es, FieldError{Field: fmt.Sprintf("few_buckets[%d].buckets", i), Msg: fmt.Sprintf("a point's buckets must be a whole number from 1 to %d; got %g", CurveBuckets-1, v)})
			continue
		}
		m.FewBuckets[i].Buckets = int(v)
	}
	for i := range colPlaces {
		// Whole and in range here; the order and the powers of two are
		// ValidateColumnCurve's.
		if v := colPlaces[i]; v != math.Trunc(v) || v < 1 || v > MaxColumnPlaces {
			es = append(es, FieldError{Field: fmt.Sprintf("column_curve[%d].places", i), Msg: fmt.Sprintf("a point's places must be a power of two from 1 to %d; got %g", MaxColumnPlaces, v)})
		} else {
			m.ColumnCurve[i].Places = int(v)
		}
		if v := colLines[i]; v != math.Trunc(v) || v < 1 || v > MaxColumnLines {
			es = append(es, FieldError{Field: fmt.Sprintf("column_curve[%d].lines", i), Msg: fmt.Sprintf("a point's lines must be a whole number from 1 to %d; got %g", MaxColumnLines, v)})
		} else {
			m.ColumnCurve[i].Lines = int64(v)
		}
	}
	for i, v := range latSpans {
		wholeBytes(fmt.Sprintf("mem_latency_curve[%d].span", i), v, &m.MemLatencyCurve[i].Span)
	}
	for i, v := range gatherSpans {
		wholeBytes(fmt.Sprintf("gather_curve[%d].span", i), v, &m.GatherCurve[i].Span)
	}
	for i := range m.Levels {
		wholeBytes(fmt.Sprintf("levels[%d].size", i), sizes[i][0], &m.Levels[i].Size)
		wholeBytes(fmt.Sprintf("levels[%d].line", i), sizes[i][1], &m.Levels[i].Line)
	}
	if len(es) > 0 {
		return Machine{}, es
	}
	if err := m.Validate(); err != nil {
		return Machine{}, err
	}
	return m, nil
}

// quantity reads a JSON number or a string with a unit.
func quantity(raw json.RawMessage, parse func(string) (float64, error)) (float64, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return 0, errors.New("missing")
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return 0, fmt.Errorf("not a valid string: %v", err)
		}
		return parse(s)
	}
	v, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%s is not a number or a quantity such as \"2.12 GB/s\"", raw)
	}
	return v, nil
}

// JSON writes a machine file in base units, indented, with a trailing newline.
func (m Machine) JSON() []byte {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		// Machine has only plain fields; Marshal cannot fail unless a
		// value is NaN, which Validate rules out for any stored machine.
		return []byte("{}\n")
	}
	return append(b, '\n')
}

// isControl reports a character that would act on a terminal rather than
// show (escape sequences, backspace, carriage return); tab is allowed.
func isControl(r rune) bool { return r != '\t' && (r < 0x20 || (r >= 0x7f && r < 0xa0)) }
