package field_test

import (
	"errors"
	"fmt"
	"testing"

	"memwall/engine/field"
)

func TestFrom(t *testing.T) {
	one := field.New("n", "must be at least %d; got %d", 2, 1)
	list := field.Errors{{Field: "beta1", Msg: "too small"}, {Field: "line", Msg: "not a power of two"}}
	tests := []struct {
		name string
		err  error
		want field.Errors
	}{
		{"nil", nil, nil},
		{"one", one, field.Errors{{Field: "n", Msg: "must be at least 2; got 1"}}},
		{"wrapped one", fmt.Errorf("kernel: %w", one), field.Errors{{Field: "n", Msg: "must be at least 2; got 1"}}},
		{"list", list, list},
		{"plain", errors.New("disk full"), field.Errors{{Field: "file", Msg: "disk full"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := field.From(tt.err, "file")
			if fmt.Sprint(got) != fmt.Sprint(tt.want) || len(got) != len(tt.want) {
				t.Errorf("From = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestErrorsFieldAndText(t *testing.T) {
	es := field.Errors{{Field: "w", Msg: "word size must be from 1 to 64 bytes; got 0"}, {Field: "b", Msg: "buckets must be from 2 to 65536"}}
	if got := es.Field("b"); got != "buckets must be from 2 to 65536" {
		t.Errorf("Field(b) = %q", got)
	}
	if got := es.Field("n"); got != "" {
		t.Errorf("Field(n) = %q, want empty", got)
	}
	if got, want := es.Error(), "w: word size must be from 1 to 64 bytes; got 0; b: buckets must be from 2 to 65536"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if (field.Errors{}).Err() != nil {
		t.Error("empty Errors.Err() is not nil")
	}
}

func ExampleErrors() {
	var es field.Errors
	es = append(es, *field.New("n", "must be a whole number from 2 to 2^26; got %d", 1))
	fmt.Println(es.Err())
	// Output: n: must be a whole number from 2 to 2^26; got 1
}

func TestAdd(t *testing.T) {
	var es field.Errors
	add := es.Add
	add("beta1", "must be positive; got %g", -1.5)
	add("levels[0].size", "too small")
	if len(es) != 2 || es.Field("beta1") != "must be positive; got -1.5" || es.Field("levels[0].size") != "too small" {
		t.Errorf("errors %v", es)
	}
}
