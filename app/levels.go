package app

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/hier"
	"memwall/engine/machine"
	"memwall/engine/units"
)

// hasHierarchy says a machine gives more than the MBRAM paper's six
// numbers: cache levels, a memory latency or its curve, a compute rate, core rates, a
// distribution curve, a stream bound or curve or the first level's overlap.
func hasHierarchy(m machine.Machine) bool {
	return len(m.Levels) > 0 || m.MemLatency > 0 || len(m.MemLatencyCurve) > 0 || m.ComputeRate > 0 || len(m.CoreRates) > 0 || len(m.Distribution) > 0 || m.Streams > 0 || len(m.StreamCost) > 0 || len(m.FewBuckets) > 0 || m.L1Fill > 0
}

// levelsView shows the hierarchy of a machine that gives one: a table of
// its cache levels and the memory latency, compute rate and core rates it
// gives. The Kernels and Machines pages both show it, so a machine's
// levels read the same on each. id prefixes the element ids; nothing is
// shown for a machine of six numbers.
func levelsView(id string, m machine.Machine) app.UI {
	if !hasHierarchy(m) {
		return nil
	}
	var extra []app.UI
	for _, x := range []struct {
		given              bool
		name, value, means string
	}{
		{m.MemLatency > 0, "Memory latency ", units.FormatSeconds(m.MemLatency), memLatencyMeans(m)},
		{len(m.MemLatencyCurve) > 0, "Memory latency by span ", latencyCurveText(m.MemLatencyCurve), "a dependent load's wait when the data span that much, its translation included: the hierarchy model charges a kernel's dependent lines from memory the latency at its data's size, and heapsort's at each heap's size as the sort shrinks it"},
		{reachBelow(m), "A chase's reach ", reachText(m), "how much of the last cache a chain of dependent reads finds, where the latency curve has risen halfway to memory's (a share of a cache that other cores or tenants fill keeps less of a chase than of a scan): the hierarchy model's heapsort walks find the level only this far"},
		{m.ComputeRate > 0, "Compute rate ", formatOpRate(m.ComputeRate), "simple operations per second of the core"},
		{len(m.CoreRates) > 0, "Core rates ", coreRatesText(m.CoreRates), "each kernel's own loop with its data in the first level, operations per second"},
		{len(m.Distribution) > 0, "Distribution curve ", distributionText(m.Distribution), "the counting sorts' count and scatter loops (and the simple sorts' scatter, when measured) by the size of their arrays, per line of keys, and the page walk of reads one to a page across that size: the hierarchy model prices the distribution sorts' passes and the matrix product's page walks from it"},
		{len(m.FewBuckets) > 0, "Few buckets ", fewBucketsText(m.FewBuckets), "the same loops into fewer buckets, in the caches, per line of keys: a key's counter is then often the one the key before bumped, and its load waits for that store; the hierarchy model charges a radix sort's digit of fewer bits at least this"},
		{m.Streams > 0, "Streams ", strconv.Itoa(m.Streams), "sequential streams at once the core keeps beyond the caches: a distribution pass into b buckets streams when b + 1 is at most this"},
		{len(m.StreamCost) > 0, "Stream curve ", streamCostText(m), "the scatter loop beyond the caches by the buckets it fills at once, per line of keys: the hierarchy model charges a kernel's lines through many streams at once (the two-pass product's blocks) the curve's excess over its fastest point"},
		{m.LevelOverlap > 0, "Levels' transfers overlap ", "ω = " + strconv.FormatFloat(m.LevelOverlap, 'g', 3, 64), "a line's steps through the levels it passes hide this share behind its largest (the ECM model's overlapping transfers, as on AMD Zen cores); lines that stop at different levels add"},
		{m.WalkInFlight > 0, "A heap walk's lines in flight ", strconv.FormatFloat(m.WalkInFlight, 'g', 3, 64), "lines of a walk down a heap the core fetches at once, running ahead on its guesses of the way: heapsort's walks wait in full for their first line past each cache and for this share of the latency step for each line below it"},
		{m.CrowdedRead > 0, "A crowded read ", units.FormatSeconds(m.CrowdedRead), crowdedMeans(m)},
		{len(m.ColumnCurve) > 0, "Column curve ", columnCurveText(m.ColumnCurve), "the matrix product's own loop, a row against a column, by how many line places of their pages the column's lines take and how many lines it has, a step's time: the hierarchy model charges the product at least this at its column's shape"},
		{len(m.GatherCurve) > 0, "Gather curve ", gatherCurveText(m.GatherCurve), "independent reads at random places by indices read in order (s += a[idx[i]]) by the span they fall over, a read's time, its translation and the levels' hits included: the hierarchy model charges the permutation product at least this a read of Y at Y's size"},
		{m.L1Fill > 0, "First level's fills ", units.FormatSeconds(m.L1Fill) + " a line, κ = " + strconv.FormatFloat(m.L1Exposed, 'g', 3, 64), "they run beside the core's work: the two together take the longer plus κ times the shorter"},
	} {
		if x.given {
			extra = append(extra, app.Li().Body(app.Strong().Text(x.name), app.Text(x.value), app.Small().Class("meaning").Text(x.means)))
		}
	}
	// One line size for all levels (the common case) goes in the caption,
	// which keeps the table narrow enough for the Kernels page's column
	// and a phone.
	oneLine := len(m.Levels) > 0
	for _, l := range m.Levels {
		oneLine = oneLine && l.Line == m.Levels[0].Line
	}
	caption := "Cache levels, from the core out"
	heads := []string{"Level", "Size", "Line", "β1", "β2", "Latency"}
	if oneLine {
		caption += ", lines of " + strings.ReplaceAll(units.FormatSize(m.Levels[0].Line), " ", "\u00a0")
		heads = slices.Delete(heads, 2, 3)
	}
	rows := make([]app.UI, len(m.Levels))
	for i, l := range m.Levels {
		lat := "—"
		if l.Latency > 0 {
			lat = units.FormatSeconds(l.Latency)
		}
		cells := []string{units.FormatSize(l.Size), units.FormatSize(l.Line), units.FormatBandwidth(l.Beta1), units.FormatBandwidth(l.Beta2), lat}
		if oneLine {
			cells = slices.Delete(cells, 1, 2)
		}
		rows[i] = app.Tr().Body(append([]app.UI{app.Th().Scope("row").Text(l.Name)}, numCells(cells...)...)...)
	}
	return app.Div().ID(id).Class("levels").Body(
		app.If(len(m.Levels) > 0,
			app.Div().Class("table-wrap").Body(app.Table().ID(id+"-table").Class("levels-table").Body(
				app.Caption().Text(caption), colHeads(heads...), app.TBody().Body(rows...),
			)),
			app.Small().Class("meaning").Text("β1, β2: the bandwidths of filling the level from the one below it, for a line that continues a stream and for one from a random place. Latency: of a load that hits the level."),
		),
		app.If(len(extra) > 0, app.Ul().Class("hierarchy-extra").Body(extra...)),
	)
}

// coreRatesText lists per-kernel rates by kernel id; the simple bucket
// sort's calls are a rate of calls (hier.BucketCallsRate).
func coreRatesText(rates map[string]float64) string {
	ids := make([]string, 0, len(rates))
	for id := range rates {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	parts := make([]string, len(ids))
	for i, id := range ids {
		if id == hier.BucketCallsRate {
			parts[i] = id + " " + formatPerSecond(rates[id], "calls")
			continue
		}
		parts[i] = id + " " + formatOpRate(rates[id])
	}
	return strings.Join(parts, ", ")
}

// formatOpRate writes operations per second with a decimal prefix: 4e9 is
// "4 Gop/s".
func formatOpRate(v float64) string { return formatPerSecond(v, "op") }

// formatPerSecond writes v things a second with a decimal prefix:
// 8.68e7 calls is "86.8 Mcalls/s".
func formatPerSecond(v float64, things string) string {
	return strings.TrimSuffix(units.FormatFrequency(v), "Hz") + things + "/s"
}

// fieldRate is a rate for a form field, in the form units.ParseNumber reads
// ("4 G"), with the fewest digits that read back to the value itself.
func fieldRate(v float64) string {
	if v == 0 {
		return ""
	}
	for _, p := range []struct {
		f      float64
		prefix string
	}{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if v < p.f {
			continue
		}
		for prec := 4; prec <= 8; prec++ {
			s := strconv.FormatFloat(v/p.f, 'g', prec, 64) + " " + p.prefix
			if got, err := units.ParseNumber(s); err == nil && got == v && !strings.Contains(s, "e") {
				return s
			}
		}
		break
	}
	return units.FieldNumber(v)
}

// memLatencyMeans says what the one memory latency is for: on a machine
// with the curve by span, only what a copy of it without the curve is
// charged.
func memLatencyMeans(m machine.Machine) string {
	if len(m.MemLatencyCurve) >= 2 {
		return "what a dependent load waits for a line from memory, one number; the model reads the curve below instead"
	}
	return "what a dependent load waits for a line from memory"
}

// reachBelow says m's latency curve puts a chase's reach below its last
// level's size (machine.Machine.DependentReach).
func reachBelow(m machine.Machine) bool {
	return len(m.Levels) > 0 && m.DependentReach() < float64(m.Levels[len(m.Levels)-1].Size)
}

// reachText is a chase's reach into m's last level, beside the level's size.
func reachText(m machine.Machine) string {
	if len(m.Levels) == 0 {
		return ""
	}
	l := m.Levels[len(m.Levels)-1]
	return units.FormatSize(int64(m.DependentReach())) + " of " + l.Name + "'s " + units.FormatSize(l.Size)
}

// latencyCurveText sums up a memory latency curve by its ends.
func latencyCurveText(ps []machine.LatencyPoint) string {
	return spanCurveText(ps, func(p machine.LatencyPoint) (int64, float64) { return p.Span, p.Latency })
}

// gatherCurveText sums up a gather curve by its ends.
func gatherCurveText(ps []machine.GatherPoint) string {
	return spanCurveText(ps, func(p machine.GatherPoint) (int64, float64) { return p.Span, p.Read })
}

// spanCurveText sums up a curve of times by span by its ends: "150 ns at
// 16 MiB → 300 ns at 1 GiB (9 points)".
func spanCurveText[P any](ps []P, at func(P) (span int64, secs float64)) string {
	if len(ps) == 0 {
		return ""
	}
	as, av := at(ps[0])
	zs, zv := at(ps[len(ps)-1])
	return units.FormatSeconds(av) + " at " + units.FormatSize(as) + " → " + units.FormatSeconds(zv) + " at " + units.FormatSize(zs) +
		" (" + strconv.Itoa(len(ps)) + " points)"
}

// columnCurveText sums up a column curve by each place count's median
// step and the range of lines.
func columnCurveText(ps []machine.ColumnPoint) string {
	if len(ps) == 0 {
		return ""
	}
	lo, hi := ps[0].Lines, ps[0].Lines
	for _, p := range ps {
		lo, hi = min(lo, p.Lines), max(hi, p.Lines)
	}
	var parts []string
	for _, p := range columnMedians(ps) {
		parts = append(parts, strconv.Itoa(p.Places)+": "+units.FormatSeconds(p.Read))
	}
	return "a step by places, the median over " + units.FormatCount(lo) + " to " + units.FormatCount(hi) + " lines: " + strings.Join(parts, ", ") + " (" + strconv.Itoa(len(ps)) + " points)"
}

// crowdedMeans says what the crowded read is and whether the model uses
// it: a machine with a column curve prices the product by the curve.
func crowdedMeans(m machine.Machine) string {
	const what = "what a read takes beyond a first-level hit when its line sits at the same place in its page as the lines read around it: "
	if len(m.ColumnCurve) > 0 {
		return what + "the hierarchy model prices the matrix product by this machine's column curve instead"
	}
	return what + "the hierarchy model charges a matrix column with rows a multiple of 4 KiB at least this a read"
}

// columnCurveEnds is a column curve's fewest and most places by their
// median steps, short enough for a cell that does not wrap.
func columnCurveEnds(ps []machine.ColumnPoint) string {
	med := columnMedians(ps)
	if len(med) == 0 {
		return ""
	}
	a, z := med[0], med[len(med)-1]
	return units.FormatSeconds(a.Read) + " at " + placesWord(a.Places) + " to " + units.FormatSeconds(z.Read) + " at " + placesWord(z.Places)
}

// placesWord is "1 place" or "n places".
func placesWord(n int) string {
	if n == 1 {
		return "1 place"
	}
	return strconv.Itoa(n) + " places"
}

// columnMedians is each place count of a column curve with its median
// step, fewest places first.
func columnMedians(ps []machine.ColumnPoint) []machine.ColumnPoint {
	var out []machine.ColumnPoint
	for g := range machine.ColumnGroups(ps) {
		reads := make([]float64, len(g))
		for i, p := range g {
			reads[i] = p.Read
		}
		slices.Sort(reads)
		out = append(out, machine.ColumnPoint{Places: g[0].Places, Read: reads[len(reads)/2]})
	}
	return out
}

// streamCostText sums up m's stream curve by its fastest and slowest
// points and its range of buckets.
func streamCostText(m machine.Machine) string {
	ps := m.StreamCost
	if len(ps) == 0 {
		return ""
	}
	fast, slow := m.StreamEnds()
	return "fastest " + units.FormatSeconds(fast.Scatter) + " a line into " + strconv.Itoa(fast.Buckets) + " buckets, slowest " + units.FormatSeconds(slow.Scatter) +
		" into " + strconv.Itoa(slow.Buckets) + ", from " + strconv.Itoa(ps[0].Buckets) + " to " + strconv.Itoa(ps[len(ps)-1].Buckets) + " buckets (" + strconv.Itoa(len(ps)) + " points)"
}

// fewBucketsText sums up a few-bucket curve by its ends: the loops'
// time per line of keys into its fewest and most buckets.
func fewBucketsText(ps []machine.FewPoint) string {
	if len(ps) == 0 {
		return ""
	}
	a, z := ps[0], ps[len(ps)-1]
	put := ""
	if a.Put > 0 && z.Put > 0 {
		put = ", put " + units.FormatSeconds(a.Put) + " → " + units.FormatSeconds(z.Put)
	}
	return "count " + units.FormatSeconds(a.Count) + " → " + units.FormatSeconds(z.Count) +
		", scatter " + units.FormatSeconds(a.Scatter) + " → " + units.FormatSeconds(z.Scatter) + put +
		" a line of keys, into " + strconv.Itoa(a.Buckets) + " to " + strconv.Itoa(z.Buckets) + " buckets (" + strconv.Itoa(len(ps)) + " points)"
}

// distributionText sums up a distribution curve by its ends: the count and
// scatter loops' time per line of keys at its smallest and largest
// arrays, and the page walk's time per read when measured.
func distributionText(ps []machine.DistPoint) string {
	if len(ps) == 0 {
		return ""
	}
	a, z := ps[0], ps[len(ps)-1]
	walk := ""
	if z.Walk > 0 {
		walk = ", page walk " + units.FormatSeconds(a.Walk) + " → " + units.FormatSeconds(z.Walk) + " a read"
	}
	put := ""
	if z.Put > 0 {
		put = ", the simple sorts' scatter " + units.FormatSeconds(a.Put) + " → " + units.FormatSeconds(z.Put)
	}
	return "count " + units.FormatSeconds(a.Count) + " → " + units.FormatSeconds(z.Count) +
		", scatter " + units.FormatSeconds(a.Scatter) + " → " + units.FormatSeconds(z.Scatter) + put +
		" a line of keys" + walk + ", from arrays of " + units.FormatSize(a.Size) + " to " + units.FormatSize(z.Size) +
		" (" + strconv.Itoa(len(ps)) + " points)"
}
