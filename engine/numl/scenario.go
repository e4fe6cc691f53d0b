package numl

import (
	"errors"
	"fmt"
	"strings"

	"memwall/engine/field"
	"memwall/engine/link"
	"memwall/engine/units"
)

// The built-in data set the Communication page fits by default: message
// times measured by memwall numl measure, with the rows of W = 4000 held
// out so the fit is judged on rows it never saw.
const (
	DefaultData  = "numl-devbox"
	DefaultTrain = "W != 4000"
)

// Form is the communication model's inputs: a row or column transfer (kind,
// W, k, w, r, L, o), the measured data fitted (data, y, train), and the
// uniform convolution compared under two coefficient sets (N, px, pr, pc,
// bmax, std, m1). The Communication page, its link, its scenario file and
// memwall numl lines|conv --link|--scenario all read them through it.
var Form = link.Form{
	Model:    "communication",
	Keys:     []string{"kind", "W", "k", "w", "r", "L", "o", "data", "y", "train", "N", "px", "pr", "pc", "bmax", "std", "m1"},
	Defaults: defaultInputs,
	// A row transfer has no element size or row count.
	Skip: func(in link.Inputs, k string) bool {
		return (k == "w" || k == "r") && strings.TrimSpace(in["kind"]) == "rows"
	},
}

// defaultInputs: three 4-byte columns of a 1000×1000 integer array (W =
// 4000 bytes, gcd(W, 64) = 32, so row starts repeat every 2 rows), and the
// convolution of a 1024×1024 image on an 8×32 mesh (blocks of 128 rows of
// 32 pixels, where a column message touches a line per row and the example
// coefficients predict different crossovers).
func defaultInputs() link.Inputs {
	std, m1 := ExampleCoefficients()
	return link.Inputs{
		"kind": "columns", "W": "4000", "k": "3", "w": "4", "r": "1000", "L": "64", "o": "5",
		"data": DefaultData, "y": "time", "train": DefaultTrain,
		"N": "1024", "px": "4", "pr": "8", "pc": "32", "bmax": "10",
		"std": std.String(), "m1": m1.String(),
	}
}

// Scenario is the communication model's inputs, parsed. ShapeOK and ConvOK
// say which half read: a bad convolution field leaves the transfer's line
// count standing, and the other way round.
type Scenario struct {
	Shape   Shape
	Conv    Conv
	BMax    int64
	Std, M1 Coef
	// Data, Y and Train name the fitted data; they are read where the data
	// is (a data set needs the presets).
	Data, Y, Train string

	ShapeOK, ConvOK bool
}

// labels name each key in messages as the page's fields do.
var labels = map[string]string{
	"kind": "What is sent", "W": "Row width W", "k": "k", "w": "Element size w", "r": "Rows r",
	"L": "Line size L", "o": "Offset o", "N": "Image side N", "px": "Bytes per pixel",
	"pr": "Mesh rows", "pc": "Mesh columns", "bmax": "Largest box size",
	"std": "Standard-model coefficients", "m1": "M1 coefficients",
}

// ParseScenario reads every input, naming each one that does not read by
// its key. It returns what did read: see ShapeOK and ConvOK.
func ParseScenario(in link.Inputs) (Scenario, field.Errors) {
	var es field.Errors
	bad := map[string]bool{}
	add := func(key, msg string) {
		if !bad[key] {
			es = append(es, field.Error{Field: key, Msg: labels[key] + ": " + msg})
			bad[key] = true
		}
	}
	num := func(key string, count bool) int64 {
		v := strings.TrimSpace(in[key])
		var n int64
		var err error
		if count {
			n, err = units.ParseCount(v)
		} else {
			n, err = units.ParseSize(v)
		}
		if err != nil {
			add(key, err.Error())
		}
		return n
	}
	anyBad := func(keys ...string) bool {
		for _, k := range keys {
			if bad[k] {
				return true
			}
		}
		return false
	}
	// engineErr puts a validation error under the key it names; rename maps
	// the engine's field to the key (a convolution's pixel size is the
	// engine's w and the key px).
	engineErr := func(err error, rename map[string]string) {
		var fe *FieldError
		if !errors.As(err, &fe) {
			add("W", err.Error())
			return
		}
		k := fe.Field
		if r, ok := rename[k]; ok {
			k = r
		}
		add(k, fe.Msg)
	}

	var sc Scenario
	kind, err := ParseKind(strings.TrimSpace(in["kind"]))
	if err != nil {
		add("kind", "rows or columns")
	}
	s := Shape{Kind: kind, W: num("W", false), K: num("k", true), Line: num("L", false), Offset: num("o", false)}
	if kind == Columns {
		s.Elem = num("w", false)
		s.R = num("r", true)
	}
	if !anyBad("kind", "W", "k", "w", "r", "L", "o") {
		if err := s.Validate(); err != nil {
			engineErr(err, nil)
		} else {
			sc.ShapeOK = true
		}
	}
	sc.Shape = s

	c := Conv{N: num("N", true), Elem: num("px", false), Pr: num("pr", true), Pc: num("pc", true), Line: s.Line}
	sc.BMax = num("bmax", true)
	var e1, e2 error
	sc.Std, e1 = ParseCoef("", in["std"])
	if e1 == nil && (sc.Std.Gamma != 0 || sc.Std.GammaMem != 0) {
		e1 = fmt.Errorf("the standard model has no lines-touched terms: leave out gamma and gamma_mem")
	}
	if e1 != nil {
		add("std", e1.Error())
	}
	sc.M1, e2 = ParseCoef("", in["m1"])
	if e2 != nil {
		add("m1", e2.Error())
	}
	if !anyBad("N", "px", "pr", "pc", "bmax", "L") {
		if err := c.Validate(); err != nil {
			engineErr(err, map[string]string{"w": "px"})
		} else if hi := min(c.MaxBlock(), 4096); sc.BMax < 1 || sc.BMax > hi {
			add("bmax", fmt.Sprintf("between 1 and %d (the smaller side of a processor's %d×%d block)", hi, (c.N+c.Pr-1)/c.Pr, (c.N+c.Pc-1)/c.Pc))
		} else {
			sc.ConvOK = e1 == nil && e2 == nil
		}
	}
	sc.Conv = c
	sc.Data, sc.Y, sc.Train = strings.TrimSpace(in["data"]), strings.TrimSpace(in["y"]), strings.TrimSpace(in["train"])
	return sc, es
}
