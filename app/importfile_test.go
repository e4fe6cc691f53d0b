package app

import (
	"errors"
	"strings"
	"testing"
)

// A file with bad rows is listed and held; its good rows come once asked
// for, and the file is forgotten.
func TestFileImport(t *testing.T) {
	var f fileImport
	good := []byte("N,P,T\n1,1,2\n2,1,3\n")
	if tbl, ok := f.readTable("good.csv", good, nil); !ok || tbl.Len() != 2 || f.err != "" || len(f.msgs) > 0 {
		t.Fatalf("a good file: %v %v %+v", tbl, ok, f)
	}
	mixed := []byte("N,P,T\n1,1,2\n2,1,slow\n3,1,4\n")
	if _, ok := f.readTable("mixed.csv", mixed, nil); ok || f.held == nil || len(f.msgs) != 2 || !strings.Contains(f.msgs[1], "line 3") {
		t.Fatalf("a file with a bad row: %v %+v", ok, f)
	}
	g, ok := f.goodRows()
	if !ok || g.name != "mixed.csv" || g.table.Len() != 2 || g.skipped != 1 || f.held != nil || f.msgs != nil {
		t.Fatalf("its good rows: %+v %v, then %+v", g, ok, f)
	}
	if _, ok := f.readTable("bad.csv", []byte("N,T\n1,x\ny,2\n3,z\nq,4\n"), nil); ok || f.held != nil || len(f.msgs) == 0 {
		t.Errorf("a file without a good row is listed, not held: %+v", f)
	}
	f.cancel()
	if f.msgs != nil || f.held != nil {
		t.Errorf("after cancel: %+v", f)
	}
	if _, ok := f.readTable("big.csv", nil, errors.New("too big")); ok || f.err != "too big" {
		t.Errorf("a read error: %+v", f)
	}
	// readGood takes the good rows at once and names the bad cells.
	tbl, cells, ok := f.readGood("mixed.csv", mixed, nil)
	if !ok || tbl.Len() != 2 || len(cells) != 1 || f.err != "" {
		t.Fatalf("readGood: %v %v %v %+v", tbl, cells, ok, f)
	}
	f.hold("mixed.csv", mixed, cells, []string{"mixed.csv: 1 row(s) can be compared"})
	if g, ok := f.goodRows(); !ok || len(g.cells) != 1 || g.table.Len() != 2 {
		t.Errorf("held after readGood: %+v %v", g, ok)
	}
	if _, _, ok := f.readGood("bad.csv", []byte("N,T\n1,x\ny,2\n3,z\nq,4\n"), nil); ok || !strings.HasPrefix(f.msgs[len(f.msgs)-1], "No row of the file") {
		t.Errorf("readGood of a file without a good row: %+v", f)
	}
	msgs := cellMessages("x.csv", nil)
	if len(msgs) != 1 || msgs[0] != "x.csv has bad rows:" {
		t.Errorf("cellMessages: %q", msgs)
	}
	if got := limit([]string{"a", "b", "c"}, 2); len(got) != 3 || got[2] != "… and 1 more" {
		t.Errorf("limit: %q", got)
	}
}
