package app

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/machine"
)

// rig is a measured machine that gives its hierarchy, core rates, spreads
// and notes: everything the editor must keep.
func rig() machine.Machine {
	m := machine.Machine{Name: "Rig", Beta1: 12e9, Beta2: 1.5e9, Mu1: 2, M: 5e-9, MemLatency: 90e-9, ComputeRate: 4e9, LevelOverlap: 0.5, WalkInFlight: 2.18, CrowdedRead: 1.9e-9,
		MemLatencyCurve: []machine.LatencyPoint{{Span: 64 << 20, Latency: 120e-9}, {Span: 1 << 30, Latency: 220e-9}},
		CoreRates:       map[string]float64{"quicksort": 3e9}, Spread: map[string]float64{"beta1": 0.02}, Notes: map[string]string{"cpu": "test"},
		ColumnCurve: []machine.ColumnPoint{{Places: 1, Lines: 512, Read: 2.1e-9}, {Places: 64, Lines: 512, Read: 0.5e-9}},
		GatherCurve: []machine.GatherPoint{{Span: 64 << 20, Read: 5.4e-9}, {Span: 512 << 20, Read: 10.2e-9}}}
	return m.WithLevels([]machine.Level{
		{Name: "L1", Size: 48 << 10, Line: 64, Beta1: 200e9, Beta2: 100e9, Latency: 1.2e-9},
		{Name: "L2", Size: 2 << 20, Line: 64, Beta1: 80e9, Beta2: 40e9, Latency: 4e-9},
		{Name: "L3", Size: 32 << 20, Line: 64, Beta1: 30e9, Beta2: 10e9, Latency: 15e-9},
	})
}

func TestMachineEditorLevels(t *testing.T) {
	p := &machinesPage{}
	open(t, p, "https://memwall.test/machines")
	want := rig()
	p.openEditor(nil, "my-rig", want)
	got, ok := p.readEditor()
	if !ok {
		t.Fatalf("a good machine refused: %v", p.editErrs)
	}
	// Through the editor untouched, nothing is lost (a time moves by less
	// than a millionth, as units.FieldSeconds says).
	if !near(got, want) || !slices.Equal(got.MemLatencyCurve, want.MemLatencyCurve) || !slices.Equal(got.ColumnCurve, want.ColumnCurve) || !slices.Equal(got.GatherCurve, want.GatherCurve) || got.Levels[2].Name != "L3" || got.Spread["beta1"] != 0.02 || got.Notes["cpu"] != "test" || got.ID != "my-rig" {
		t.Errorf("through the editor:\n got %+v\nwant %+v", got, want)
	}
	for _, c := range []struct{ key, text, msg string }{
		{"l1-size", "16 KiB", "levels[1].size: a level must be larger than the level above it"},
		{"l1-size", "big", "levels[1].size:"},
		{"l0-line", "96 B", "levels[0].line: line size must be a power of two"},
		{"l2-beta2", "40 GB/s", "levels[2].beta2: random fill bandwidth (40 GB/s) must not exceed"},
		{"l1-name", "L1", `levels[1].name: "L1" already names levels[0]`},
		{"l0-latency", "1 s", "levels[0].latency: a level's latency must be 0 (not given) or up to 10 µs"},
		{"mem_latency", "1 ms", "memory latency must be 0 (not given) or up to 10 µs"},
		{"compute_rate", "fast", "compute_rate:"},
		{"level_overlap", "most", "level_overlap:"},
		{"level_overlap", "2", "the levels' overlap must be from 0"},
		{"walk_in_flight", "many", "walk_in_flight:"},
		{"walk_in_flight", "0.5", "a heap walk's lines in flight must be 0 (not measured) or from 1"},
		{"crowded_read", "soon", "crowded_read:"},
		{"crowded_read", "5 us", "a crowded read's time must be 0 (not measured) or above 0 and up to 1 µs"},
	} {
		saved := p.edit.text[c.key]
		p.edit.typed(c.key, c.text)
		if _, ok := p.readEditor(); ok || !strings.Contains(p.editErrs[c.key], c.msg) {
			t.Errorf("%s=%q: errors %v; want one under %s containing %q", c.key, c.text, p.editErrs, c.key, c.msg)
		}
		p.edit.typed(c.key, saved)
	}
	if _, ok := p.readEditor(); !ok {
		t.Fatalf("restored fields refused: %v", p.editErrs)
	}

	// An empty latency is "not given".
	p.edit.typed("l1-latency", "")
	if m, ok := p.readEditor(); !ok || m.Levels[1].Latency != 0 {
		t.Errorf("empty latency: %v %v", m.Levels, p.editErrs)
	}

	// Insert a level above L2, then remove it: the rows shift and come back.
	p.onInsertLevel(1)(nil, app.Event{})
	if p.editLevels != 4 || p.edit.text["l2-name"] != "L2" || p.edit.text["l3-name"] != "L3" {
		t.Fatalf("after inserting: %d rows, %v", p.editLevels, p.edit.text)
	}
	if m, ok := p.readEditor(); !ok || len(m.Levels) != 4 || m.Levels[1].Size <= m.Levels[0].Size || m.Levels[1].Size >= m.Levels[2].Size {
		t.Errorf("the inserted level does not fit between its neighbours: %+v %v", m.Levels, p.editErrs)
	}
	p.onRemoveLevel(1)(nil, app.Event{})
	noL2Latency := want.WithLevels(want.Levels)
	noL2Latency.Levels[1].Latency = 0
	if m, ok := p.readEditor(); !ok || !near(m, noL2Latency) {
		t.Errorf("after removing it again: %+v %v", m, p.editErrs)
	}
	// A level added below the last becomes the machine's cache.
	p.onInsertLevel(3)(nil, app.Event{})
	if m, ok := p.readEditor(); !ok || m.C != 128<<20 || m.Levels[3].Name != "L4" {
		t.Errorf("a level added below: C = %d, %+v %v", m.C, m.Levels, p.editErrs)
	}
	// Removing every level gives the six-number machine back, its C and B
	// the last level's.
	for p.editLevels > 0 {
		p.onRemoveLevel(0)(nil, app.Event{})
	}
	m, ok := p.readEditor()
	if !ok || len(m.Levels) != 0 || m.C != 128<<20 || m.B != 64 || p.edit.text["cache"] != "128 MiB" {
		t.Errorf("no levels left: %+v %v", m, p.editErrs)
	}
	// And a six-number machine takes levels: one, its own cache.
	p.onAddLevels(nil, app.Event{})
	if m, ok := p.readEditor(); !ok || len(m.Levels) != 1 || m.Levels[0].Size != m.C || m.Levels[0].Name != machine.SingleLevelName {
		t.Errorf("levels added: %+v %v", m, p.editErrs)
	}
}

// near compares two machines' numbers to a millionth.
func near(a, b machine.Machine) bool {
	close := func(x, y float64) bool { return math.Abs(x-y) <= 1e-6*math.Abs(y) }
	if len(a.Levels) != len(b.Levels) || a.C != b.C || a.B != b.B || a.Mu1 != b.Mu1 || !close(a.Beta1, b.Beta1) || !close(a.Beta2, b.Beta2) ||
		!close(a.M, b.M) || !close(a.MemLatency, b.MemLatency) || !close(a.ComputeRate, b.ComputeRate) || len(a.CoreRates) != len(b.CoreRates) ||
		a.LevelOverlap != b.LevelOverlap || a.WalkInFlight != b.WalkInFlight || !close(a.CrowdedRead, b.CrowdedRead) {
		return false
	}
	for i, l := range a.Levels {
		o := b.Levels[i]
		if l.Name != o.Name || l.Size != o.Size || l.Line != o.Line || !close(l.Beta1, o.Beta1) || !close(l.Beta2, o.Beta2) || !close(l.Latency, o.Latency) {
			return false
		}
	}
	return true
}

// A machine file with levels reads, writes and reads back the same.
func TestMachinesFileLevels(t *testing.T) {
	ms := []machine.Machine{rig()}
	ms[0].ID = "my-rig"
	back, errs := parseMachines(machinesFile(ms))
	if len(errs) > 0 || len(back) != 1 || !back[0].SameParameters(ms[0]) || back[0].Notes["cpu"] != "test" || back[0].Levels[1].Name != "L2" {
		t.Errorf("export and import: %+v %v", back, errs)
	}
}

// The Machines page shows a machine's levels in its table.
func TestMachineTableLevels(t *testing.T) {
	p := &machinesPage{}
	open(t, p, "https://memwall.test/machines")
	ui := app.Div().Body(p.machineRows([]machine.Machine{rig()}, true)...)
	d := app.NewServerTester(ui)
	defer d.Close()
	var html strings.Builder
	app.PrintHTML(&html, ui)
	for _, w := range []string{"L1", "48 KiB", "32 MiB", "200 GB/s", "1.2 ns", "90 ns", "4 Gop/s", "quicksort 3 Gop/s"} {
		if !strings.Contains(html.String(), w) {
			t.Errorf("the machine's rows lack %q", w)
		}
	}
}

// TestColumnCurveText: a curve's place counts by their median steps,
// worked by hand: one place has 1, 3 and 2 ns (median 2 ns), 64 places
// 0.5 ns.
func TestColumnCurveText(t *testing.T) {
	ps := []machine.ColumnPoint{{Places: 1, Lines: 16, Read: 1e-9}, {Places: 1, Lines: 32, Read: 3e-9}, {Places: 1, Lines: 64, Read: 2e-9}, {Places: 64, Lines: 2048, Read: 0.5e-9}}
	if got, want := columnCurveEnds(ps), "2 ns at 1 place to 500 ps at 64 places"; got != want {
		t.Errorf("ends %q, want %q", got, want)
	}
	if got, want := columnCurveText(ps), "a step by places, the median over 16 to 2Ki lines: 1: 2 ns, 64: 500 ps (4 points)"; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	if columnCurveEnds(nil) != "" || columnCurveText(nil) != "" {
		t.Error("no curve gave a text")
	}
	// The crowded read says the curve replaces it.
	if got := crowdedMeans(machine.Machine{CrowdedRead: 1e-9, ColumnCurve: ps}); !strings.HasSuffix(got, "by this machine's column curve instead") {
		t.Errorf("with a curve: %q", got)
	}
	if got := crowdedMeans(machine.Machine{CrowdedRead: 1e-9}); !strings.HasSuffix(got, "at least this a read") {
		t.Errorf("without a curve: %q", got)
	}
}

// TestGatherCurveText: a gather curve by its ends and points, as the
// latency curve's.
func TestGatherCurveText(t *testing.T) {
	ps := []machine.GatherPoint{{Span: 32 << 20, Read: 3.8e-9}, {Span: 64 << 20, Read: 5.4e-9}, {Span: 512 << 20, Read: 10.2e-9}}
	if got, want := gatherCurveText(ps), "3.8 ns at 32 MiB → 10.2 ns at 512 MiB (3 points)"; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	if gatherCurveText(nil) != "" {
		t.Error("no curve gave a text")
	}
}

// TestFewBucketsText: a few-bucket curve by its ends, put only where both
// ends timed it.
func TestFewBucketsText(t *testing.T) {
	ps := []machine.FewPoint{{Buckets: 2, Count: 17e-9, Scatter: 19e-9, Put: 21e-9}, {Buckets: 4, Count: 10e-9, Scatter: 12.7e-9, Put: 18e-9}, {Buckets: 32, Count: 8.4e-9, Scatter: 10.6e-9, Put: 15e-9}}
	if got, want := fewBucketsText(ps), "count 17 ns → 8.4 ns, scatter 19 ns → 10.6 ns, put 21 ns → 15 ns a line of keys, into 2 to 32 buckets (3 points)"; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	ps[2].Put = 0
	if got := fewBucketsText(ps); strings.Contains(got, "put") {
		t.Errorf("without put at an end: %q", got)
	}
	if fewBucketsText(nil) != "" {
		t.Error("no curve gave a text")
	}
}

// TestCoreRatesText: kernels' rates are operations a second, and the
// simple bucket sort's calls a rate of calls (8.68e7: 86.8 M a second).
func TestCoreRatesText(t *testing.T) {
	got := coreRatesText(map[string]float64{"quicksort": 3e9, "bucket-calls": 8.68e7})
	if want := "bucket-calls 86.8 Mcalls/s, quicksort 3 Gop/s"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
