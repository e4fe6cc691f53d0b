//go:build !js

package jsonx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// The benchmarks compare the two codecs on JSON of the size memwall
// writes and reads in earnest, 100 000 rows: encoding/json called
// directly, goccy/go-json through jsonx (this file is for native builds,
// where jsonx is goccy). Run with
//
//	go test ./internal/jsonx -run '^$' -bench Codec -benchmem -benchtime 1s
//
// doc.go has the numbers.

const benchRows = 100_000

// fitOutput is the shape of 'memwall fit --json' with its predictions.
type fitOutput struct {
	Terms        []string           `json:"terms"`
	Coefficients map[string]float64 `json:"coefficients"`
	Weighting    string             `json:"weighting"`
	Train        fitStats           `json:"train"`
}

type fitStats struct {
	N           int             `json:"n"`
	SE          float64         `json:"s_e"`
	MeanRel     float64         `json:"mean_rel_error"`
	Predictions []fitPrediction `json:"predictions"`
}

type fitPrediction struct {
	Line      int                `json:"line"`
	Values    map[string]float64 `json:"values"`
	Measured  float64            `json:"measured"`
	Predicted float64            `json:"predicted"`
	RelError  float64            `json:"rel_error"`
}

// dataSet is the object form of a data set (presets/datasets, 'memwall
// numl measure --json'), its rows numbers.
type dataSet struct {
	Title   string `json:"title"`
	Source  string `json:"source"`
	Columns []struct {
		Name        string `json:"name"`
		Unit        string `json:"unit,omitempty"`
		Description string `json:"description,omitempty"`
	} `json:"columns"`
	Rows [][]float64 `json:"rows"`
}

func benchFit(rows int) *fitOutput {
	f := &fitOutput{Terms: []string{"1", "N", "P"}, Coefficients: map[string]float64{"1": 583.3765385788412, "N": 238.78874842217448, "P": -1.25e-3}, Weighting: "rel"}
	f.Train = fitStats{N: rows, SE: 0.0123, MeanRel: 0.0456}
	for i := range rows {
		n, p := float64(1000+i%9000), float64(1+i%64)
		t := 1.5 + n*0.25 + p*0.125
		f.Train.Predictions = append(f.Train.Predictions, fitPrediction{Line: i + 2, Values: map[string]float64{"N": n, "P": p, "T": t},
			Measured: t, Predicted: t * (1 + float64(i%17-8)*1e-3), RelError: float64(i%17-8) * 1e-3})
	}
	return f
}

func benchDataSet(rows int) *dataSet {
	d := &dataSet{Title: "Gathers of rows and columns on this machine", Source: "measured by memwall numl measure on this machine"}
	for _, c := range []string{"W", "k", "time"} {
		d.Columns = append(d.Columns, struct {
			Name        string `json:"name"`
			Unit        string `json:"unit,omitempty"`
			Description string `json:"description,omitempty"`
		}{Name: c, Unit: "B", Description: "the " + c + " of a point"})
	}
	for i := range rows {
		d.Rows = append(d.Rows, []float64{float64(int64(64) << (i % 14)), float64(1 + i%32), 1.5 + float64(i%9000)*0.25 + float64(i%7)/3})
	}
	return d
}

type codec struct {
	name          string
	marshalIndent func(any) ([]byte, error)
	unmarshal     func([]byte, any) error
	newDecoder    func([]byte) tokenReader
}

// tokenReader is what strictjson.Check uses of a Decoder.
type tokenReader interface {
	Token() (Token, error)
	UseNumber()
}

var codecs = []codec{
	{"encoding-json", func(v any) ([]byte, error) {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		err := enc.Encode(v)
		return buf.Bytes(), err
	}, json.Unmarshal, func(b []byte) tokenReader {
		return json.NewDecoder(bytes.NewReader(b))
	}},
	{"goccy", MarshalIndent, Unmarshal, func(b []byte) tokenReader {
		return NewDecoder(bytes.NewReader(b))
	}},
}

// BenchmarkCodec: encode (MarshalIndent, as the CLI writes) and decode
// (Unmarshal into the Go types) a fit --json output with 100 000
// predictions and a data set of 100 000 rows, and read the data set's
// tokens as strictjson.Check does.
func BenchmarkCodec(b *testing.B) {
	for _, in := range []struct {
		name string
		v    any
		into func() any
	}{
		{"fit-output", benchFit(benchRows), func() any { return new(fitOutput) }},
		{"dataset", benchDataSet(benchRows), func() any { return new(dataSet) }},
	} {
		data, err := MarshalIndent(in.v)
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range codecs {
			b.Run(fmt.Sprintf("%s/encode/%s", in.name, c.name), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := c.marshalIndent(in.v); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		for _, c := range codecs {
			b.Run(fmt.Sprintf("%s/decode/%s", in.name, c.name), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					if err := c.unmarshal(data, in.into()); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		if in.name != "dataset" {
			continue
		}
		for _, c := range codecs {
			b.Run(fmt.Sprintf("%s/tokens/%s", in.name, c.name), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					dec := c.newDecoder(data)
					dec.UseNumber()
					for {
						if _, err := dec.Token(); err != nil {
							break
						}
					}
				}
			})
		}
	}
}

// TestCodecsAgree: on the benchmarks' data the two codecs write the same
// bytes and read back the same values.
func TestCodecsAgree(t *testing.T) {
	for _, v := range []any{benchFit(2000), benchDataSet(2000)} {
		a, err := MarshalIndent(v)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := codecs[0].marshalIndent(v)
		if !bytes.Equal(append(a, '\n'), s) {
			t.Fatalf("%T: goccy and encoding/json write different bytes", v)
		}
		into := reflect.New(reflect.TypeOf(v).Elem()).Interface
		x, y := into(), into()
		if err := Unmarshal(a, x); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(a, y); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(x, y) || !reflect.DeepEqual(x, v) {
			t.Fatalf("%T: the codecs read different values", v)
		}
	}
}
