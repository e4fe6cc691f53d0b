package app

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/machine"
	"memwall/engine/units"
)

func (p *machinesPage) onImport(ctx app.Context, e app.Event) {
	readPickedFile(ctx, func(ctx app.Context, name string, data []byte, err error) {
		p.importMsgs, p.importPending, p.notice = nil, nil, ""
		if err != nil {
			p.importMsgs = []string{err.Error()}
			return
		}
		if isKerncraft(name, data) {
			p.importKerncraft(ctx, name, data)
			return
		}
		good, bad := parseMachines(data)
		if len(bad) == 0 {
			p.addImported(ctx, good)
			return
		}
		p.importMsgs = append([]string{name + ":"}, bad...)
		p.importPending = good
	})
}

// isKerncraft says a picked file is a Kerncraft machine file (YAML) rather
// than memwall machines (JSON): by its name, or by not starting as JSON.
func isKerncraft(name string, data []byte) bool {
	n := strings.ToLower(name)
	if strings.HasSuffix(n, ".yml") || strings.HasSuffix(n, ".yaml") {
		return true
	}
	t := bytes.TrimSpace(data)
	return len(t) > 0 && t[0] != '{' && t[0] != '['
}

// importKerncraft opens the editor on what a Kerncraft machine file gives
// (B, C, β1) and asks for the rest: such files have no random-access
// bandwidth or misprediction penalty.
func (p *machinesPage) importKerncraft(ctx app.Context, name string, data []byte) {
	k, err := machine.ParseKerncraft(data)
	if err != nil {
		p.importMsgs = []string{name + ": " + err.Error()}
		return
	}
	m, _ := k.Machine(machine.Machine{})
	p.openEditor(ctx, "", m)
	read := fmt.Sprintf("B = %s and C = %s (%s)", units.FormatSize(k.Line), units.FormatSize(k.Cache), k.CacheLevel)
	if k.Beta1 > 0 {
		read += fmt.Sprintf(", β1 = %s (%s from memory, one core)", units.FormatBandwidth(k.Beta1), k.Beta1Kernel)
	}
	lacks, ask := "", "β2 and m"
	if k.Beta1 == 0 {
		lacks, ask = ", and this one no bandwidth measured from memory", "β1, β2 and m"
	}
	p.notice = fmt.Sprintf("Read %s from the Kerncraft machine file %s. Kerncraft files have no random-access bandwidth or branch misprediction penalty%s: enter %s, then save.",
		read, name, lacks, ask)
	ctx.ScrollTo("editor")
}

// onImportGood imports the good machines of a file that also had bad ones,
// once the user has seen what was wrong and agreed.
func (p *machinesPage) onImportGood(ctx app.Context, e app.Event) {
	good := p.importPending
	p.importMsgs, p.importPending = nil, nil
	p.addImported(ctx, good)
}

func (p *machinesPage) onImportCancel(ctx app.Context, e app.Event) {
	p.importMsgs, p.importPending = nil, nil
}

func (p *machinesPage) addImported(ctx app.Context, ms []machine.Machine) {
	for _, m := range ms {
		p.lib.put(m)
	}
	if err := p.lib.save(ctx); err != nil {
		p.notice = err.Error()
		return
	}
	p.notice = fmt.Sprintf("Imported %d machine(s).", len(ms))
}
