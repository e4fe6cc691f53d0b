package jsonx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// samples are texts the readers of data sets and strictjson see: valid
// ones, ones with duplicate keys or trailing text (which strictjson.Check
// finds from the tokens and offsets) and syntax errors (whose message and
// offset a data-set error repeats).
var samples = []string{
	`{"title": "t", "columns": [{"name": "N"}, {"name": "T", "unit": "ms"}],` + "\n" + ` "rows": [` + "\n  [8, 4.161],\n  [16, \"2ms\"],\n  [32, null, true]\n ]}\n",
	"[\n {\"N\": 8, \"P\": 1, \"T\": \"4.161ms\"},\n {\"N\": 8, \"P\": 2, \"T\": null}\n]",
	"\t[ {\"a\" :\r\n1.5e3 , \"b\":[-0, \"\\u00e9\\n\"], \"c\": {\"d\": {}}} ]  ",
	`{"a": 1, "a": [1, 2, {"b": null}]}`,
	`{"a": 1} x`,
	`[1, 2] [3]`,
	`{"a": 1}}`,
	`[1, 2,]`,
	`{"a" 1}`,
	`[1 2]`,
	`{"a": 1,}`,
	`[{"x": tru}]`,
	`[1, 2`,
	`{"a": "b`,
	"[\"a\x01\"]",
	`[01]`,
	`[1.]`,
	`[-]`,
	`{"a": 1e}`,
	`[{"N": 8, "T": "4ms"}, {"N": 9}, 7, "x"]`,
	``,
	`   `,
}

type step struct {
	More bool
	Tok  Token
	Off  int64
	Err  string
	ErrO int64
}

func errText(err error) (string, int64) {
	if err == nil {
		return "", 0
	}
	var se *SyntaxError
	if errors.As(err, &se) {
		return err.Error(), se.Offset
	}
	var sse *json.SyntaxError
	if errors.As(err, &sse) {
		return err.Error(), sse.Offset
	}
	return err.Error(), -1
}

// walk reads s as the data-set reader does: tokens, and at every value
// after a key, a Decode into any; it records what it sees.
type decoder interface {
	More() bool
	Token() (Token, error)
	InputOffset() int64
	Decode(any) error
}

func walk(dec decoder) []step {
	var out []step
	afterKey := false
	for {
		st := step{More: dec.More()}
		if afterKey {
			var v any
			err := dec.Decode(&v)
			st.Tok = fmt.Sprintf("%T %v", v, v)
			st.Err, st.ErrO = errText(err)
			afterKey = false
		} else {
			tok, err := dec.Token()
			st.Tok = tok
			st.Err, st.ErrO = errText(err)
			_, afterKey = tok.(string)
		}
		st.Off = dec.InputOffset()
		out = append(out, st)
		if st.Err != "" {
			break
		}
	}
	return out
}

// TestDecoderAsStd: the native codec's Decoder gives encoding/json's
// tokens, offsets and errors, which strictjson.Check and the data-set
// reader depend on.
func TestDecoderAsStd(t *testing.T) {
	// Longer than the decoders' first buffers, to read across refills.
	var long strings.Builder
	long.WriteString(`{"columns": ["N", "T"], "rows": [`)
	for i := range 3000 {
		fmt.Fprintf(&long, "\n  [%d, \"%d.5us\"],", i, i)
	}
	long.WriteString("\n  [1, 2]\n]}")
	for _, s := range append(samples, long.String(), long.String()[:40000]) {
		for _, useNumber := range []bool{false, true} {
			d := NewDecoder(strings.NewReader(s))
			sd := json.NewDecoder(strings.NewReader(s))
			if useNumber {
				d.UseNumber()
				sd.UseNumber()
			}
			got, want := walk(d), walk(sd)
			if fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", want) {
				t.Errorf("%q (UseNumber %v):\n got %#v\nwant %#v", s, useNumber, got, want)
			}
		}
		var a, b any
		ga, oa := errText(Unmarshal([]byte(s), &a))
		gb, ob := errText(json.Unmarshal([]byte(s), &b))
		// On an error the value is not compared: goccy/go-json fills it
		// before it finds text after the top-level value, encoding/json
		// checks the whole text first.
		if ga != gb || oa != ob || (gb == "" && fmt.Sprint(a) != fmt.Sprint(b)) {
			t.Errorf("Unmarshal %q: %v %q (%d), want %v %q (%d)", s, a, ga, oa, b, gb, ob)
		}
	}
}

// TestMarshalIndent: the same bytes as encoding/json with two-space
// indentation and < > & left as they are.
func TestMarshalIndent(t *testing.T) {
	v := map[string]any{"b": []float64{1, 0.1, 1e21, 1e-7, 123456789}, "a": "x < y && z > \u2028 é", "c": nil, "d": struct {
		N int `json:"n"`
		S []string
	}{3, nil}}
	got, err := MarshalIndent(v)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	enc.Encode(v)
	if string(got)+"\n" != want.String() {
		t.Errorf("got\n%s\nwant\n%s", got, want.String())
	}
	if c, _ := Marshal(v); !bytes.Contains(c, []byte(`\u003c`)) {
		t.Errorf("Marshal does not escape <: %s", c)
	}
}
