package scenario

import (
	"strings"
	"testing"

	"memwall/engine/machine"
)

func fig2(id string) (machine.Machine, bool) {
	if id != DefaultMachine {
		return machine.Machine{}, false
	}
	return Default(nil).Machine, true
}

// The sweep compares a sort with the other six (the MBRAM paper's Fig. 5) unless the
// link says otherwise; the link carries cmp only when it differs.
func TestDefaultCompare(t *testing.T) {
	for _, c := range []struct {
		fragment string
		want     string // Compare joined
	}{
		{"", "mergesort,heapsort,bucket,bucket-count,radix,radix-count"},
		{"kernel=heapsort", "quicksort,mergesort,bucket,bucket-count,radix,radix-count"},
		{"kernel=perm&n=1Mi", "perm-twopass"},
		{"kernel=matmul&n=500", ""},
		{"kernel=quicksort&cmp=", ""},
		{"kernel=quicksort&cmp=radix", "radix"},
	} {
		s, ps := ParseFragment(c.fragment, Default(fig2), fig2)
		if len(ps) != 0 {
			t.Fatalf("%q: %v", c.fragment, ps)
		}
		if got := strings.Join(s.Compare, ","); got != c.want {
			t.Errorf("%q: compare %q, want %q", c.fragment, got, c.want)
		}
		link, err := s.Fragment(fig2)
		if err != nil {
			t.Fatal(err)
		}
		back, _ := ParseFragment(link, Default(fig2), fig2)
		if got := strings.Join(back.Compare, ","); got != c.want {
			t.Errorf("%q -> %q -> compare %q, want %q", c.fragment, link, got, c.want)
		}
		if c.want == strings.Join(DefaultCompare(s.Kernel), ",") && strings.Contains(link, "cmp=") {
			t.Errorf("%q: link %q carries the default comparison", c.fragment, link)
		}
	}
}
