package app

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/machine"
	"memwall/measure"
)

// fakeRun is a finished measurement with round numbers.
func fakeRun() *measureRun {
	res := &measure.Result{
		Machine: machine.Machine{Name: "this device", Source: "measured in a browser by memwall", Beta1: 8e9, Beta2: 2e9, Mu1: 2, C: 4 << 20, B: 64, M: 12e-9,
			Spread: map[string]float64{"beta1": 0.02}, Notes: map[string]string{"mode": "browser, short", "date": "2026-11-22"}},
		Latency:    []measure.LatencyPoint{{Size: 4 << 10, Latency: measure.Stat{Median: 5e-9}}, {Size: 64 << 20, Latency: measure.Stat{Median: 200e-9}}},
		Throughput: []measure.ThroughputPoint{{Size: 256 << 10, Access: measure.Stat{Median: 3e-9}}, {Size: 64 << 20, Access: measure.Stat{Median: 25e-9}}},
	}
	res.Detected.Cache, res.Detected.Line = 4<<20, 64
	return &measureRun{state: stateDone, short: true, buffer: 64 << 20, res: res, lat: res.Latency, tp: res.Throughput,
		latSizes: []int64{4 << 10, 64 << 20}, tpSizes: []int64{256 << 10, 64 << 20}, latRounds: 1, tpRounds: 1,
		env: browserEnv{tick: 100e-6, agent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36"}}
}

// The chart option is JSON with both curves, and marks C once known.
func TestMeasureCurvesOption(t *testing.T) {
	v := fakeRun()
	var opt struct {
		Series []struct {
			Name     string       `json:"name"`
			Data     [][2]float64 `json:"data"`
			MarkLine *struct {
				Data []struct {
					XAxis float64 `json:"xAxis"`
				} `json:"data"`
			} `json:"markLine"`
		} `json:"series"`
	}
	if err := json.Unmarshal([]byte(curvesOption(v.lat, v.tp, 4<<20)), &opt); err != nil {
		t.Fatal(err)
	}
	if len(opt.Series) != 2 || len(opt.Series[0].Data) != 2 || opt.Series[1].Data[1] != [2]float64{64 << 20, 25e-9} {
		t.Fatalf("series %+v", opt.Series)
	}
	if m := opt.Series[1].MarkLine; m == nil || m.Data[0].XAxis != 4<<20 {
		t.Errorf("C mark %+v", m)
	}
	// While running (no C yet, maybe no points) it is still a chart.
	opt.Series = nil
	if err := json.Unmarshal([]byte(curvesOption(nil, nil, 0)), &opt); err != nil || opt.Series[1].MarkLine != nil {
		t.Errorf("empty option: %v %+v", err, opt.Series)
	}
}

// The saved machine carries the user's name, a browser source and what
// the browser said about itself, and still validates.
func TestMeasureMachineFor(t *testing.T) {
	c := &measureDevice{form: formText{prefix: "measure-"}}
	c.form.typed("name", "  Laptop  ")
	v := fakeRun()
	m := c.machineFor(v)
	if m.Name != "Laptop" || m.Source != "measured in a browser by memwall (browser, short)" {
		t.Errorf("name %q, source %q", m.Name, m.Source)
	}
	if m.Notes["timer_step"] != "100 µs" || m.Notes["browser"] == "" || !strings.Contains(m.Description, "Headless Chrome 156") {
		t.Errorf("notes %v, description %q", m.Notes, m.Description)
	}
	if err := m.Validate(); err != nil {
		t.Error(err)
	}
	if v.res.Machine.Notes["browser"] != "" {
		t.Error("machineFor changed the measured result's notes")
	}
	c.form.typed("name", "")
	if c.machineFor(v).Name == "" {
		t.Error("an empty name is saved as is")
	}
}

// The panel renders idle and finished, with the parameters by id (the
// browser tests read them there) and the limits of a browser.
func TestMeasurePanelRender(t *testing.T) {
	c := &measureDevice{}
	idle := app.HTMLString(c.Render())
	for _, want := range []string{`id="measure-start"`, `id="measure-limits"`, "huge pages", "performance.now()", `data-state="idle"`} {
		if !strings.Contains(idle, want) {
			t.Errorf("idle panel lacks %s", want)
		}
	}
	c.run = fakeRun()
	c.form = formText{prefix: "measure-"}
	done := app.HTMLString(c.Render())
	for _, want := range []string{`id="measured-beta1"`, `data-value="8e+09"`, `id="measured-mispredict"`, `id="measure-save"`, "4 MiB", `data-state="done"`, "2 working sets from 4 KiB to 64 MiB"} {
		if !strings.Contains(done, want) {
			t.Errorf("finished panel lacks %s", want)
		}
	}
}

func TestBrowserName(t *testing.T) {
	for agent, want := range map[string]string{
		"Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0":                                             "Firefox 128",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15": "Safari 17",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36":    "Chrome 126",
		"": "this browser",
	} {
		if got := browserName(agent); got != want {
			t.Errorf("browserName(%q) = %q, want %q", agent, got, want)
		}
	}
}

// A measurement with levels shows a row per level parameter, each with
// the value the machine holds (data-value) and its spread.
func TestMeasurePanelLevels(t *testing.T) {
	c := &measureDevice{form: formText{prefix: "measure-"}}
	c.run = fakeRun()
	m := &c.run.res.Machine
	*m = m.WithLevels([]machine.Level{
		{Name: "L1", Size: 32 << 10, Line: 64, Beta1: 200e9, Beta2: 100e9, Latency: 1.2e-9},
		{Name: "L2", Size: 4 << 20, Line: 64, Beta1: 30e9, Beta2: 6e9, Latency: 5e-9},
	})
	m.MemLatency, m.ComputeRate = 90e-9, 5e9
	m.Spread["levels[1].beta2"] = 0.07
	html := app.HTMLString(c.Render())
	for _, want := range []string{`id="measure-levels"`, `id="measured-level0-beta1"`, `data-value="2e+11"`, `id="measured-level1-beta2"`, "7 %",
		`id="measured-level1-latency"`, `id="measured-mem-latency"`, `data-value="9e-08"`, `id="measured-compute-rate"`, "5e+09 ops/s"} {
		if !strings.Contains(html, want) {
			t.Errorf("panel lacks %s", want)
		}
	}
	if strings.Contains(app.HTMLString((&measureDevice{run: fakeRun(), form: formText{prefix: "measure-"}}).Render()), `id="measure-levels"`) {
		t.Error("a machine without levels shows a levels table")
	}
}
