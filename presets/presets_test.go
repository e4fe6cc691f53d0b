package presets_test

import (
	"math"
	"strings"
	"testing"

	"memwall/engine/hier"
	"memwall/engine/mbram"
	"memwall/presets"
)

func TestPresetsLoad(t *testing.T) {
	if err := presets.Err(); err != nil {
		t.Fatal(err)
	}
	ids := []string{"p4-2.66-ddr266", "p4-1.7-pc133", "p3-0.6-pc100", "p2-0.35-pc66"}
	ms := presets.Machines()
	if len(ms) < len(ids) {
		t.Fatalf("%d presets", len(ms))
	}
	for i, id := range ids {
		if ms[i].ID != id {
			t.Errorf("preset %d is %q, want %q (the MBRAM paper's Fig. 2 order)", i, ms[i].ID, id)
		}
		if ms[i].Source == "" {
			t.Errorf("%s has no source", id)
		}
	}
	// The MBRAM paper's Fig. 2, 1.7 GHz Pentium 4: 1.06 GB/s, 0.85 GB/s, 11.76 ns, 128 B / 256 KB.
	m, _ := presets.Machine("p4-1.7-pc133")
	if m.Beta1 != 1.06e9 || m.Beta2 != 0.85e9 || m.M != 11.76e-9 || m.B != 128 || m.C != 256<<10 || m.Mu1 != 2 {
		t.Errorf("p4-1.7-pc133 = %+v", m)
	}
}

// TestReplication: rows without a reason must match the printed value to
// the printed precision; rows with one must not (else the reason is stale).
func TestReplication(t *testing.T) {
	rows, err := presets.MBRAMReplication()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 19 {
		t.Fatalf("%d rows, want 8 + 4 + 7", len(rows))
	}
	for _, r := range rows {
		if r.Matches == (r.Reason != "") {
			t.Errorf("%s %s %s: engine %.4f printed %.4f matches=%v reason=%q", r.Figure, r.Machine, r.Kernel, r.Engine, r.Printed, r.Matches, r.Reason)
		}
		if math.IsNaN(r.RelDiff) {
			t.Errorf("NaN difference")
		}
	}
}

// TestValidationSets: every shipped table names a preset machine, and its
// predicted column is what the engine gives for the row on that machine
// today, by the paper's model and, where the table has it, by the
// hierarchy model (so a change of reading or of the preset shows up here).
func TestValidationSets(t *testing.T) {
	sets, err := presets.ValidationSets()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sets {
		m, _ := presets.Machine(s.Machine)
		for _, r := range s.Rows {
			got, err := mbram.Seconds(m, r.Kernel, r.Workload())
			if err != nil {
				t.Fatalf("%s %s: %v", s.ID, r.Kernel, err)
			}
			if math.Abs(got-r.Predicted) > 1e-9*r.Predicted {
				t.Errorf("%s %s %s: file says %g, engine gives %g", s.ID, r.Kernel, r.Params, r.Predicted, got)
			}
			if r.Hier == 0 {
				continue
			}
			e, err := hier.Model(m, r.Kernel, r.Workload())
			if err != nil {
				t.Fatalf("%s %s: %v", s.ID, r.Kernel, err)
			}
			if math.Abs(e.Seconds-r.Hier) > 1e-9*r.Hier {
				t.Errorf("%s %s %s: file says %g by the hierarchy model, engine gives %g", s.ID, r.Kernel, r.Params, r.Hier, e.Seconds)
			}
		}
	}
}

// TestOldIDs: the ids Chittor's tables and fits had before they were named
// after the thesis still find them, so old links and commands keep working.
func TestOldIDs(t *testing.T) {
	for old, cur := range map[string]string{"seed002-table6": "chittor-table6", "seed002-eq14": "chittor-eq14", "chittor-table3": "chittor-table3", "numl-devbox": "numl-devbox"} {
		if got := presets.CurrentID(old); got != cur {
			t.Errorf("CurrentID(%q) = %q, want %q", old, got, cur)
		}
	}
	a, err := presets.Dataset("seed002-table6")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := presets.Dataset("chittor-table6")
	if a.Len() != b.Len() || a.Len() == 0 {
		t.Errorf("old id: %d rows, new id: %d rows", a.Len(), b.Len())
	}
	if m, ok := presets.FittedModelByID("seed002-eq14"); !ok || m.ID != "chittor-eq14" {
		t.Errorf("FittedModelByID(seed002-eq14) = %q, %v", m.ID, ok)
	}
	for _, d := range presets.Datasets() {
		if strings.HasPrefix(d.ID, "seed") || strings.Contains(d.Source, "seed") {
			t.Errorf("data set %s: %q", d.ID, d.Source)
		}
	}
}
