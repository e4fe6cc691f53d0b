package app

import (
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The pages show names from the papers (a rule number, a cost function, a
// program's name, a simulator's unit). Each is explained in plain words
// where it appears, as visible text: a reader on a phone cannot hover.

// glossaryEntry explains one name.
type glossaryEntry struct {
	Name, Text string
}

// glossary holds the names in the order they are listed.
var glossary = []glossaryEntry{
	{"Model Rule 8", "the model's rule for many streams at once: when a loop walks through more arrays than the cache has lines (μ2 = C/B), the lines evict each other, so every access costs a random memory access (B/β2) instead of a streamed one."},
	{"HrHwM-c", "a superstep's cost as L + g·(words read and written, split into those that hit the cache and those that miss) + g_M·M, M the local memory operations: the Good family's cost function."},
	{"HrHwM", "a superstep's cost as L + g_hr·(words read) + g_hw·(words written) + g_M·M, M the local memory operations: the Bad family's cost function."},
	{"HrHw", "L + g_hr·(words read) + g_hw·(words written): the HrHwM cost without memory operations."},
	{"HM", "L + g_h·h + g_M·M: h the most words a processor sends or receives, M its local memory operations; H is L + g_h·h alone."},
	{"R0", "the region of supersteps whose h is at most the cache size C (the data fit in the cache); R1 those with h above C. The Good family is fitted on each apart."},
	{"Multi simulation time units", "the clock of Multi, the multiprocessor simulator Chittor's thesis ran its sorts on: simulated ticks, not seconds. Only ratios (speedups) compare with real machines."},
	{"bmergesort_ngtp", "bitonic merge sort for N greater than P (more elements than processors, each processor holding N/P of them): the program whose running times this table holds."},
}

// glossaryFor lists the entries whose names occur in any of the texts.
// HrHwM's entry is left out when only HrHwM-c occurs.
func glossaryFor(texts ...string) []glossaryEntry {
	all := strings.Join(texts, "\n")
	var out []glossaryEntry
	for _, e := range glossary {
		n := strings.Count(all, e.Name)
		if e.Name == "HrHwM" || e.Name == "HrHw" {
			n -= strings.Count(all, e.Name+"-c")
			if e.Name == "HrHw" {
				n -= strings.Count(all, "HrHwM")
			}
		}
		if n > 0 {
			out = append(out, e)
		}
	}
	return out
}

// renderGlossary shows the entries as a definition list, or nothing.
func renderGlossary(id string, es []glossaryEntry) app.UI {
	if len(es) == 0 {
		return app.Text("")
	}
	return app.Dl().ID(id).Class("glossary note").Body(
		app.Range(es).Slice(func(i int) app.UI {
			return app.Div().Body(app.Dt().Body(app.Code().Text(es[i].Name)), app.Dd().Text(es[i].Text))
		}),
	)
}
