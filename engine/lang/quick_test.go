package lang

import (
	"context"
	"testing"

	"memwall/engine/kernels"
	"memwall/engine/mbram"
	"memwall/engine/machine"
	"memwall/engine/sim"
	"memwall/presets"
)

func TestQuickPerm(t *testing.T) {
	src := `param N = 2^16
int X[N] = perm(), Y[N] = perm(), Z[N];
for (i = 0; i < N; i++) Z[i] = Y[X[i]];
`
	p, err := Compile(src)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := presets.Machine("p4-2.66-ddr266")
	r, err := p.Run(context.Background(), m, sim.Majority, Options{Seed: 1, Branches: DataBranches})
	if err != nil {
		t.Fatal(err)
	}
	k, err := kernels.Simulate(context.Background(), m, sim.Majority, "perm", mbram.DefaultParams(1<<16), kernels.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v\n%+v", r.Counts, k.Counts)
	t.Logf("%+v", r.Lines)
	_ = machine.Machine{}
}
