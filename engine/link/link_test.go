package link_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"memwall/engine/link"
)

// TestEscapeRoundTrips checks Escape against the standard library's
// decoder: whatever a value holds, url.QueryUnescape gives it back.
func TestEscapeRoundTrips(t *testing.T) {
	for _, v := range []string{"", "N*log2(N)^2", "a b&c=d+e", "100%", "β1 = 2.1 GB/s", "#x", "N<=512 && P<=16"} {
		got, err := url.QueryUnescape(link.Escape(v))
		if err != nil || got != v {
			t.Errorf("QueryUnescape(Escape(%q)) = %q, %v", v, got, err)
		}
		if strings.ContainsAny(link.Escape(v), "&=# ") {
			t.Errorf("Escape(%q) = %q keeps a separator", v, link.Escape(v))
		}
	}
}

func TestReadProblems(t *testing.T) {
	known := []string{"n", "terms"}
	tests := []struct {
		frag      string
		want      map[string]string
		wantField []string
	}{
		{"#n=8Mi&terms=1,N", map[string]string{"n": "8Mi", "terms": "1,N"}, nil},
		{"https://example.org/speedup#n=2^20", map[string]string{"n": "2^20"}, nil},
		{"n=1&n=2", map[string]string{"n": "2"}, []string{"n"}},
		{"x=1&n=3", map[string]string{"n": "3"}, []string{"link"}},
		{"n=%zz", map[string]string{}, []string{"link"}},
		{"n=%01", map[string]string{}, []string{"link"}},
		{"terms=" + strings.Repeat("N", link.MaxValue+1), map[string]string{}, []string{"terms"}},
		{strings.Repeat("a", link.MaxFragment+1), map[string]string{}, []string{"link"}},
	}
	for _, tt := range tests {
		vals, es := link.Read(tt.frag, known)
		if fmt.Sprint(vals) != fmt.Sprint(tt.want) {
			t.Errorf("Read(%.40q) values = %v, want %v", tt.frag, vals, tt.want)
		}
		var fields []string
		for _, e := range es {
			fields = append(fields, e.Field)
		}
		if fmt.Sprint(fields) != fmt.Sprint(tt.wantField) {
			t.Errorf("Read(%.40q) problems = %v, want fields %v", tt.frag, es, tt.wantField)
		}
	}
}

func TestBuilderRefusesLongLinks(t *testing.T) {
	var b link.Builder
	b.Add("terms", strings.Repeat("N", link.MaxLink))
	if _, err := b.Fragment(); err == nil {
		t.Fatal("a link over MaxLink was accepted")
	}
	var c link.Builder
	c.Add("n", "8Mi")
	c.Add("skip", "")
	c.AddEmpty("cmp", "")
	if got, err := c.Fragment(); err != nil || got != "n=8Mi&cmp=" {
		t.Errorf("Fragment() = %q, %v; want n=8Mi&cmp=", got, err)
	}
}

func FuzzRead(f *testing.F) {
	f.Add("n=8Mi&terms=1,N/P")
	f.Add("%zz=&&=")
	f.Fuzz(func(t *testing.T, frag string) {
		vals, _ := link.Read(frag, []string{"n", "terms"})
		for k, v := range vals {
			if k != "n" && k != "terms" || len(v) > link.MaxValue {
				t.Fatalf("Read gave %q=%q", k, v)
			}
		}
	})
}

func ExampleRead() {
	vals, problems := link.Read("https://memwall.example/speedup#data=chittor-table6&terms=1,N/P", []string{"data", "terms"})
	fmt.Println(vals["terms"], len(problems))
	// Output: 1,N/P 0
}

// TestEscapedLinkSurvivesURLParsing checks a written fragment against Go's
// URL parser, which re-escapes a fragment it finds invalid: the link a page
// shows is parsed and printed by net/url, and must still read back the same.
func TestEscapedLinkSurvivesURLParsing(t *testing.T) {
	var b link.Builder
	b.Add("region", "N <= 2^9 && P <= 2^4")
	b.Add("terms", "1, N/P*log2(P)^2")
	u, err := url.Parse("https://memwall.example/speedup#" + b.String())
	if err != nil {
		t.Fatal(err)
	}
	vals, es := link.Read(u.String(), []string{"region", "terms"})
	if len(es) > 0 || vals["region"] != "N <= 2^9 && P <= 2^4" || vals["terms"] != "1, N/P*log2(P)^2" {
		t.Errorf("after net/url: %v %v (link %s)", vals, es, u)
	}
}
