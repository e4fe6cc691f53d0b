package app

// Like measure_device.go, this file imports memwall/measure (see there).

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/machine"
	"memwall/engine/units"
	"memwall/measure"
)

// curvesOption draws both curves against the working set on log axes: the
// dependent chase (latency) and the independent random reads (the
// throughput curve C is read from), with C marked once detected.
func curvesOption(lat []measure.LatencyPoint, tp []measure.ThroughputPoint, cache int64) string {
	latData := make([][2]float64, 0, len(lat))
	for _, p := range lat {
		latData = append(latData, [2]float64{float64(p.Size), p.Latency.Median})
	}
	tpData := make([][2]float64, 0, len(tp))
	for _, p := range tp {
		tpData = append(tpData, [2]float64{float64(p.Size), p.Access.Median})
	}
	tpSeries := map[string]any{"type": "line", "name": "independent random read (throughput)", "showSymbol": true, "symbolSize": 5, "data": tpData}
	if cache > 0 {
		tpSeries["markLine"] = map[string]any{
			"symbol": "none", "silent": true,
			"data":      []any{map[string]any{"xAxis": cache, "name": "C = " + units.FormatSize(cache)}},
			"lineStyle": map[string]any{"color": "#555", "type": "dashed"},
			"label":     map[string]any{"formatter": "{b}", "position": "insideEndTop", "fontSize": 12},
		}
	}
	// The size axis spans whole powers of two around the points, so its
	// labels (every 2^k, as 4Ki, 1Mi) fall on the ends too.
	xAxis := map[string]any{"type": "log", "logBase": 2, "name": "working set (bytes)", "nameLocation": "middle", "nameGap": 28,
		"axisLabel": map[string]any{"formatter": "@count"}}
	if len(lat) > 0 {
		lo, hi := lat[0].Size, lat[len(lat)-1].Size
		if len(tp) > 0 {
			hi = max(hi, tp[len(tp)-1].Size)
		}
		p := int64(1)
		for p*2 <= lo {
			p *= 2
		}
		q := int64(1)
		for q < hi {
			q *= 2
		}
		xAxis["min"], xAxis["max"] = p, q
	}
	return chartJSON(map[string]any{
		"animation": false,
		"legend":    map[string]any{"top": 0, "left": 0},
		"grid":      map[string]any{"left": 8, "right": 32, "top": 48, "bottom": 8, "containLabel": true},
		"tooltip":   map[string]any{"trigger": "axis", "valueFormatter": "@seconds"},
		"xAxis":     xAxis,
		"yAxis":     map[string]any{"type": "log", "name": "time per access", "axisLabel": map[string]any{"formatter": "@seconds"}},
		"series": []any{
			map[string]any{"type": "line", "name": "dependent load (latency)", "showSymbol": true, "symbolSize": 5, "data": latData},
			tpSeries,
		},
	})
}

func (c *measureDevice) Render() app.UI {
	v := c.run
	busy := c.running()
	mode := "standard"
	if c.short {
		mode = "short"
	}
	return app.Section().ID("measure").Class("panel").Body(
		app.H2().Text("Measure this device"),
		app.P().Text("Runs the calibration of memwall calibrate in this browser: the latency curve, the random-read throughput curve C is read from, the line size B, the sequential and random-access bandwidths β1 and β2, and the branch-misprediction penalty m (μ1 stays the MBRAM paper's 2). Keep the tab in front while it runs."),
		app.Div().Class("row actions").Body(
			selectField("measure-mode", "Run", mode, []option{
				{Value: "standard", Label: "standard: 256 MiB, 15 to 30 s"},
				{Value: "short", Label: "short: 64 MiB, a few seconds, rough"},
			}, c.onMode),
			app.Button().Type("button").ID("measure-start").Disabled(busy).Text("Measure this device").OnClick(c.onStart),
			app.Button().Type("button").ID("measure-cancel").Disabled(!busy).Text("Cancel").OnClick(c.onCancel),
		),
		c.renderRun(v),
		c.renderLimits(v),
	)
}

func (c *measureDevice) renderRun(v *measureRun) app.UI {
	if v == nil {
		return app.Div().ID("measure-run").DataSet("state", "idle")
	}
	pc := v.percent()
	var status string
	switch v.state {
	case stateRunning:
		status = fmt.Sprintf("Measuring… %d %%: %s.", pc, v.progress.Step)
	case stateDone:
		status = "Measured in " + units.FormatSecondsPrec(v.wall.Seconds(), 3) + "."
	case stateCancelled:
		status = fmt.Sprintf("Cancelled at %d %% (%s); nothing was saved.", pc, v.progress.Step)
	case stateFailed:
		status = "Stopped: " + v.err
	}
	body := []app.UI{
		app.P().ID("measure-status").Aria("live", "polite").Text(status),
		progressBar("measure-progress", "Measurement progress", pc, v.state == stateRunning),
	}
	if v.bufferNote != "" {
		body = append(body, app.P().Class("callout warn").Text(v.bufferNote))
	}
	if v.hidden {
		body = append(body, app.P().Class("callout warn").Text("The tab was in the background during the run: the browser slows a hidden tab's timers, so the run took longer, and samples taken then may be slower. Measure again with the tab in front."))
	}
	if len(v.lat)+len(v.tp) > 0 {
		body = append(body, &chart{ID: "measure-chart", Label: "Time per access against working-set size: dependent loads (latency) and independent random reads (throughput), measured in this browser", Option: v.chart, Height: 340})
	}
	if len(v.latSizes) > 0 && len(v.tpSizes) > 0 {
		body = append(body, c.renderSizes(v))
	}
	if v.state == stateDone && v.res != nil {
		body = append(body, c.renderResult(v))
	}
	return app.Div().ID("measure-run").DataSet("state", stateName(v.state)).Body(body...)
}

func (c *measureDevice) renderSizes(v *measureRun) app.UI {
	span := func(s []int64, per int, rounds int) string {
		return fmt.Sprintf("%d working sets from %s to %s (%d per doubling), %s each", len(s), units.FormatSize(s[0]), units.FormatSize(s[len(s)-1]), per, plural(int64(rounds), "round", "rounds"))
	}
	return app.P().ID("measure-sizes").Class("note").Text(fmt.Sprintf("Buffer %s. Latency curve: %s. Throughput curve: %s. Every timed run lasts at least %s; this browser's clock advances in steps of %s%s.",
		units.FormatSize(v.buffer), span(v.latSizes, 2, v.latRounds), span(v.tpSizes, 3, v.tpRounds),
		map[bool]string{true: "5 ms", false: "20 ms"}[v.short], units.FormatSeconds(v.env.tick),
		map[bool]string{true: " (cross-origin isolated)", false: ""}[v.env.isolated]))
}

func (c *measureDevice) renderResult(v *measureRun) app.UI {
	r := v.res
	m := r.Machine
	spread := func(k string) string {
		if s, ok := m.Spread[k]; ok && s > 0 {
			return fmt.Sprintf("%.0f %%", 100*s)
		}
		return ""
	}
	lineHow := "the step of the line-offset test"
	if r.Detected.Line == 0 {
		lineHow = "no clear step in the line-offset test: assumed"
	}
	cacheHow := fmt.Sprintf("the drop of the throughput curve (%s per read in cache, %s beyond)", units.FormatSeconds(r.Detected.InCache), units.FormatSeconds(r.Detected.Beyond))
	if r.Detected.Cache == 0 {
		cacheHow = "no drop on the throughput curve: assumed"
	}
	row := func(id, sym, val, how, sp string, num float64) app.UI {
		return app.Tr().Body(
			app.Th().Scope("row").Text(sym),
			app.Td().ID("measured-"+id).Class("num").DataSet("value", strconv.FormatFloat(num, 'g', -1, 64)).Text(val),
			app.Td().Class("num").Text(sp),
			app.Td().Text(how),
		)
	}
	return app.Div().ID("measure-result").Body(
		app.Div().Class("table-wrap").Body(app.Table().ID("measure-table").Body(
			app.Caption().Text("Measured in this browser"),
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text("Parameter"), app.Th().Scope("col").Text("Value"),
				app.Th().Scope("col").Text("Spread (IQR)"), app.Th().Scope("col").Text("From"),
			)),
			app.TBody().Body(
				row("beta1", "β1", units.FormatBandwidth(m.Beta1), "copy loop, one stream read and one written (read 1 stream "+m.Notes["beta1_read_1"]+", 2 streams "+m.Notes["beta1_read_2"]+")", spread("beta1"), m.Beta1),
				row("beta2", "β2", units.FormatBandwidth(m.Beta2), "B / time per independent random read over the whole buffer ("+m.Notes["random_access"]+")", spread("beta2"), m.Beta2),
				row("mu1", "μ1", strconv.Itoa(m.Mu1), "not measured: the MBRAM paper's value", "", float64(m.Mu1)),
				row("cache", "C", units.FormatSize(m.C), cacheHow, spread("cache"), float64(m.C)),
				row("line", "B", units.FormatSize(m.B), lineHow, "", float64(m.B)),
				row("mispredict", "m", units.FormatSeconds(m.M), "random against sorted branch loop", spread("mispredict"), m.M),
			),
		)),
		app.If(len(m.Levels) > 0, renderMeasuredLevels(m, spread, row)),
		app.If(len(r.Warnings) > 0,
			app.Ul().Class("warnings").Body(app.Range(r.Warnings).Slice(func(i int) app.UI { return app.Li().Text(r.Warnings[i]) })),
		),
		app.If(v.err != "", app.P().ID("measure-error").Class("error").Aria("live", "assertive").Text(v.err)),
		app.Form().ID("measure-save-form").OnSubmit(c.onSave).Body(
			app.Div().Class("row actions").Body(
				textField{ID: "measure-name", Label: "Save as", Value: c.form.shown["name"], OnInput: c.onName, Size: 30}.UI(),
				app.Button().Type("submit").ID("measure-save").Disabled(v.saved != "").Text("Save to my machines"),
				app.Button().Type("button").ID("measure-edit").Text("Edit before saving").OnClick(c.onEdit),
			),
		),
		app.If(v.saved != "", app.P().ID("measure-saved").Class("notice").Aria("live", "polite").Text("Saved in My machines.")),
	)
}

// renderMeasuredLevels is the hierarchy the curves showed: per level its
// size, fill bandwidths and latency, then memory's latency, the core's
// rate and the distribution curve's end.
func renderMeasuredLevels(m machine.Machine, spread func(string) string, row func(id, sym, val, how, sp string, num float64) app.UI) app.UI {
	var rows []app.UI
	for i, l := range m.Levels {
		k := fmt.Sprintf("levels[%d].", i)
		id := fmt.Sprintf("level%d-", i)
		name := l.Name + " (" + units.FormatSize(l.Size) + ")"
		sizeHow := "a step of the latency curve"
		if i == len(m.Levels)-1 {
			sizeHow = "C, the last cache"
		}
		rows = append(rows,
			row(id+"size", l.Name+" size", units.FormatSize(l.Size), sizeHow, spread(m.SizeSpreadKey(i)), float64(l.Size)),
			row(id+"beta1", name+" β1", units.FormatBandwidth(l.Beta1), "B over the step of the sequential-line curve to the next level", spread(k+"beta1"), l.Beta1),
			row(id+"beta2", name+" β2", units.FormatBandwidth(l.Beta2), "B over the step of the random-read curve to the next level", spread(k+"beta2"), l.Beta2),
		)
		if l.Latency > 0 {
			rows = append(rows, row(id+"latency", name+" latency", units.FormatSeconds(l.Latency), "the latency curve's plateau", spread(k+"latency"), l.Latency))
		}
	}
	if m.MemLatency > 0 {
		rows = append(rows, row("mem-latency", "Memory latency", units.FormatSeconds(m.MemLatency), "the latency curve beyond the last cache", spread("mem_latency"), m.MemLatency))
	}
	if m.ComputeRate > 0 {
		rows = append(rows, row("compute-rate", "Compute rate", fmt.Sprintf("%.3g ops/s", m.ComputeRate), "median of the reference kernels' rates on data in L1", "", m.ComputeRate))
	}
	if n := len(m.Distribution); n > 0 {
		last := m.Distribution[n-1]
		at := " at " + units.FormatSize(last.Size)
		rows = append(rows,
			row("dist-count", "Count loop"+at, units.FormatSeconds(last.Count)+" a line", "the distribution curve's largest arrays", spread("distribution.count"), last.Count),
			row("dist-scatter", "Scatter loop"+at, units.FormatSeconds(last.Scatter)+" a line", "the distribution curve's largest arrays", spread("distribution.scatter"), last.Scatter),
		)
		if last.Put > 0 {
			rows = append(rows, row("dist-put", "Simple sorts' scatter"+at, units.FormatSeconds(last.Put)+" a line", "the simple sorts' own loop into 64 buckets of fixed capacity", spread("distribution.put"), last.Put))
		}
		if last.Walk > 0 {
			rows = append(rows, row("dist-walk", "Page walk"+at, units.FormatSeconds(last.Walk)+" a read", "reads one to a 4 KiB page, less the same reads side by side", spread("distribution.walk"), last.Walk))
		}
	}
	if len(m.FewBuckets) > 0 {
		f := m.FewBuckets[0]
		rows = append(rows, row("few-buckets", "Count loop into "+strconv.Itoa(f.Buckets)+" buckets", units.FormatSeconds(f.Count)+" a line",
			"the distribution loops into 2 to 32 buckets in L2, where a key waits for the counter the key before bumped: they price a radix sort's digit of fewer bits",
			spread("few_buckets.count"), f.Count))
	}
	if m.Streams > 0 {
		rows = append(rows, row("streams", "Streams", strconv.Itoa(m.Streams), "the scatter loop into 8 to 256 buckets: one read stream and the most buckets within 1.5× the fastest", "", float64(m.Streams)))
	}
	if n := len(m.StreamCost); n > 0 {
		fast, slow := m.StreamEnds()
		rows = append(rows, row("stream-cost", "Stream curve", units.FormatSeconds(fast.Scatter)+" to "+units.FormatSeconds(slow.Scatter)+" a line",
			"the same loop's median time a line at each bucket count, fastest into "+strconv.Itoa(fast.Buckets)+" buckets and slowest into "+strconv.Itoa(slow.Buckets)+" of "+strconv.Itoa(m.StreamCost[0].Buckets)+" to "+strconv.Itoa(m.StreamCost[n-1].Buckets)+": it prices the two-pass product's blocks",
			spread("stream_cost.slowest"), slow.Scatter))
	}
	if m.L1Fill > 0 {
		rows = append(rows,
			row("l1-fill", "L1 fill beside the work", units.FormatSeconds(m.L1Fill)+" a line", "the plateaus of the two curves in L1 and L2", spread("l1_fill"), m.L1Fill),
			row("l1-exposed", "L1 fill's exposed share κ", strconv.FormatFloat(m.L1Exposed, 'g', 3, 64), "the plateaus of the two curves in L1 and L2", spread("l1_exposed"), m.L1Exposed))
	}
	if len(m.Levels) >= 2 {
		// Not measured anywhere (measure.LevelOverlapOf); a browser does
		// not even say which processor it runs on.
		rows = append(rows, row("level-overlap", "Levels' transfers overlap ω", strconv.FormatFloat(m.LevelOverlap, 'g', 3, 64),
			"not measured: a browser does not say which processor it runs on; on an AMD Zen core set it to 1 on the Machines page (memwall calibrate sets it from the processor)", "", m.LevelOverlap))
		// The page's heap is at most 64 MiB and half the buffer, and
		// walked only when four times the last cache (measure's
		// browserWalkMax, browserWalkReach).
		walk, means := "as many as a line's keys allow", "not measured: this buffer holds no heap four times the last cache (at most 64 MiB, half the buffer); the model lets heapsort's walks keep log2(B/w) lines in flight (memwall calibrate walks a heap eight times the cache)"
		if m.WalkInFlight > 0 {
			walk, means = strconv.FormatFloat(m.WalkInFlight, 'g', 3, 64), "walks down a heap past the last cache, against a chase over as many bytes: "+m.Notes["walk_in_flight"]
		}
		rows = append(rows, row("walk-in-flight", "A heap walk's lines in flight", walk, means, spread("walk_in_flight"), m.WalkInFlight))
	}
	if m.CrowdedRead > 0 {
		rows = append(rows, row("crowded-read", "A crowded read", units.FormatSeconds(m.CrowdedRead),
			m.Notes["crowded_read"]+": it prices a matrix column whose rows are a multiple of 4 KiB", spread("crowded_read"), m.CrowdedRead))
	}
	if len(m.ColumnCurve) > 0 {
		// The cell keeps to the ends (its column does not wrap); the
		// place counts' medians go with the method.
		rows = append(rows, row("column-curve", "Column curve", columnCurveEnds(m.ColumnCurve),
			columnCurveText(m.ColumnCurve)+"; "+m.Notes["column_curve"]+": it prices the matrix product's steps at its column's shape", spread("column_curve"), float64(len(m.ColumnCurve))))
	}
	if len(m.GatherCurve) > 0 {
		// The cell keeps to the times (as the column curve's does); the
		// spans go with the method.
		a, z := m.GatherCurve[0], m.GatherCurve[len(m.GatherCurve)-1]
		rows = append(rows, row("gather-curve", "Gather curve", units.FormatSeconds(a.Read)+" to "+units.FormatSeconds(z.Read)+" a read",
			m.Notes["gather_curve"]+": the permutation product takes at least this a read of Y at Y's span", spread("gather_curve"), float64(len(m.GatherCurve))))
	}
	return app.Div().Class("table-wrap").Body(app.Table().ID("measure-levels").Body(
		app.Caption().Text("Cache levels (the hierarchy model)"),
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("Parameter"), app.Th().Scope("col").Text("Value"),
			app.Th().Scope("col").Text("Spread (IQR)"), app.Th().Scope("col").Text("From"),
		)),
		app.TBody().Body(rows...),
	))
}

// renderLimits says what a measurement in a browser can and cannot see,
// with this browser's own facts once a run has probed them.
func (c *measureDevice) renderLimits(v *measureRun) app.UI {
	clock := "performance.now(), the only clock a page has, is coarsened against timing attacks: to 100 µs in Chrome (5 µs when the page is cross-origin isolated), to 1 ms or more elsewhere. Every timed run is therefore made to last 20 ms or more."
	if v != nil {
		iso := "not cross-origin isolated"
		if v.env.isolated {
			iso = "cross-origin isolated"
		}
		clock = fmt.Sprintf("performance.now(), the only clock a page has, is coarsened against timing attacks; here it advances in steps of %s (this page is %s). Every timed run is therefore made to last %s or more.", units.FormatSeconds(v.env.tick), iso, map[bool]string{true: "5 ms", false: "20 ms"}[v.short])
	}
	items := []string{
		clock,
		"No cache query: a page cannot read the CPU's cache sizes or line size (no CPUID, no /sys). C comes from the random-read throughput curve alone, B from the step in the line-offset test (when there is none, 64 B is assumed), the smaller levels from the steps of the latency curve.",
		"Levels: the latency curve stops at 32 MiB here, so memory's latency is measured only when the last cache is 4 MiB or less. The core rates time each kernel back to back for 20 ms and take out the time of preparing its input, since one run on data in L1 is shorter than the clock's step.",
		"Memory: WebAssembly has a 32-bit address space (4 GiB at most, shared with the app), so the buffer is at most 256 MiB, and smaller when the browser refuses; a curve that must pass the last cache by a margin cannot see a cache of more than about 32 MiB. The page keeps the memory until it is reloaded.",
		"No huge pages: WebAssembly cannot ask for them, so random reads over a large buffer also pay TLB misses on ordinary pages.",
		"Memory's random fill: memwall calibrate also times random reads by index (s += a[idx[i]], a kernel's own shape), which keep more reads in flight than the curve's generated addresses, and takes the last level's β2 from them; this page keeps the curve's.",
		"A heap walk's lines in flight: the walk needs a heap four times the last cache in half the buffer (64 MiB at most), so on a last cache over 16 MiB it is not measured here; its step in L1 is taken at heapsort's core rate, as the clock cannot time a batch of such walks.",
		"Overhead: Go compiled to WebAssembly runs on one thread, without SIMD, with its bounds checks, through the browser's JIT; loops that compute (address generation, the branch loop) cost more than natively.",
		"A tab in the background has its timers slowed to once a second or less: the run then takes far longer, and the browser may slow the tab further.",
		"So the numbers are lower bounds on what the hardware can do (and m can come out higher than the pipeline alone would give); memwall calibrate on the command line sees more.",
	}
	return app.Details().ID("measure-limits").Body(
		app.Summary().Text("What a browser measurement can and cannot see"),
		app.Ul().Body(app.Range(items).Slice(func(i int) app.UI { return app.Li().Text(items[i]) })),
	)
}
