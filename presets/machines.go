package presets

import (
	"embed"
	"fmt"
	"path"
	"sort"
	"sync"

	"memwall/engine/machine"
)

//go:embed machines/*.json
var machineFiles embed.FS

// paperOrder keeps the MBRAM paper's machines first, newest to oldest as in
// its Fig. 2; other presets follow by id.
var paperOrder = map[string]int{"p4-2.66-ddr266": 0, "p4-1.7-pc133": 1, "p3-0.6-pc100": 2, "p2-0.35-pc66": 3}

var (
	loadOnce sync.Once
	machines []machine.Machine
	loadErr  error
)

func load() {
	entries, err := machineFiles.ReadDir("machines")
	if err != nil {
		loadErr = err
		return
	}
	for _, e := range entries {
		data, err := machineFiles.ReadFile(path.Join("machines", e.Name()))
		if err != nil {
			loadErr = err
			return
		}
		m, err := machine.ParseJSON(data)
		if err != nil {
			loadErr = fmt.Errorf("preset %s: %w", e.Name(), err)
			return
		}
		if want := e.Name()[:len(e.Name())-len(".json")]; m.ID != want {
			loadErr = fmt.Errorf("preset %s: id %q does not match the file name", e.Name(), m.ID)
			return
		}
		machines = append(machines, m)
	}
	sort.SliceStable(machines, func(i, j int) bool {
		oi, iok := paperOrder[machines[i].ID]
		oj, jok := paperOrder[machines[j].ID]
		switch {
		case iok && jok:
			return oi < oj
		case iok != jok:
			return iok
		}
		return machines[i].ID < machines[j].ID
	})
}

// Machines returns every preset machine, the MBRAM paper's four first.
func Machines() []machine.Machine {
	loadOnce.Do(load)
	return append([]machine.Machine(nil), machines...)
}

// Machine returns the preset with the given id.
func Machine(id string) (machine.Machine, bool) {
	for _, m := range Machines() {
		if m.ID == id {
			return m, true
		}
	}
	return machine.Machine{}, false
}

// Err reports a broken embedded file; tests call it so a bad preset fails
// the build's tests rather than vanishing from the list.
func Err() error {
	loadOnce.Do(load)
	return loadErr
}
