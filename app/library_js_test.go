//go:build js

package app

import (
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/machine"
)

// TestLibraryInLocalStorage saves machines in the browser's localStorage
// and reads them back, and skips a stored machine that no longer validates.
func TestLibraryInLocalStorage(t *testing.T) {
	d := app.NewClientTester(app.Div())
	defer d.Close()
	ctx := d.Context()
	ctx.LocalStorage().Del(storageKey)

	lib := loadLibrary(ctx)
	if len(lib.User) != 0 || len(lib.Problems) != 0 || len(lib.Presets) == 0 {
		t.Fatalf("empty storage: %d user machines, problems %v, %d presets", len(lib.User), lib.Problems, len(lib.Presets))
	}
	m := lib.put(machine.Machine{Name: "Stored", Beta1: 5e9, Beta2: 1e9, Mu1: 2, C: 4 << 20, B: 64, M: 3e-9})
	if err := lib.save(ctx); err != nil {
		t.Fatal(err)
	}
	back := loadLibrary(ctx)
	if len(back.User) != 1 || back.User[0].ID != m.ID || back.User[0].Beta1 != 5e9 {
		t.Fatalf("read back %+v", back.User)
	}

	// Storage edited by hand (or by an older version) into a bad machine.
	raw := app.Window().Get("localStorage").Call("getItem", storageKey).String()
	app.Window().Get("localStorage").Call("setItem", storageKey, raw[:len(raw)-1]+`,{"name":"bad","beta1":0,"beta2":1,"mu1":2,"cache":64,"line":64,"mispredict":0}]`)
	back = loadLibrary(ctx)
	if len(back.User) != 1 || len(back.Problems) != 1 {
		t.Errorf("bad stored machine: %d kept, problems %v", len(back.User), back.Problems)
	}
	app.Window().Get("localStorage").Call("setItem", storageKey, "not json")
	if back = loadLibrary(ctx); len(back.Problems) != 1 || len(back.Presets) == 0 {
		t.Errorf("garbage in storage: problems %v", back.Problems)
	}
	ctx.LocalStorage().Del(storageKey)
}
