package superstep

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

const table2p8 = `{"name": "SGI Power Challenge, p = 8", "p": 8, "cache_words": "2^19",
 "good":    {"L": 140, "g_hrc": 0.0184, "g_hrm": 0, "g_hwc": 0.0087, "g_hwm": 0, "g_M": 0.00005},
 "good_r1": {"L": 0, "g_hrc": 0.0202, "g_hrm": 0.0492, "g_hwc": 0.0082, "g_hwm": 0.0444, "g_M": 0.00027},
 "bad":     {"L": 16566, "g_hr": 0.4612, "g_hw": 0.7708, "g_M": 0.1113}}`

// TestReadSet reads Tables 2 and 4 for p = 8 written by hand and must get
// the embedded set; bad files are refused with the field named.
func TestReadSet(t *testing.T) {
	got, err := ReadSet(strings.NewReader(table2p8))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := SGIPowerChallenge(8)
	if !SameSet(got, want) {
		t.Errorf("read %+v, want %+v", got, want)
	}
	// Round trip through WriteSet.
	var buf bytes.Buffer
	if err := WriteSet(&buf, want); err != nil {
		t.Fatal(err)
	}
	back, err := ReadSet(&buf)
	if err != nil || !SameSet(back, want) {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	// One Good function for all h, C as a number.
	one, err := ReadSet(strings.NewReader(`{"p": 3, "cache_words": 1024, "good": {"L": 1, "g_hrc": 2, "g_hrm": 3, "g_hwc": 4, "g_hwm": 5, "g_M": 6}, "bad": {"L": 1, "g_hr": 2, "g_hw": 3, "g_M": 4}}`))
	if err != nil || one.GoodR1 != nil || one.CacheWords != 1024 || one.GoodR0.Ghwm != 5 {
		t.Errorf("single Good set: %+v, %v", one, err)
	}

	bad := []struct {
		name, text, wantErr string
	}{
		{"empty", ``, "ends before"},
		{"truncated", `{"p": 8, "good": {`, "ends before"},
		{"syntax", `{"p": 8,, }`, "not valid JSON at byte"},
		{"no p", `{"good": {}, "bad": {}}`, `"p"`},
		{"p type", `{"p": "eight"}`, `field "p" has the wrong type`},
		{"p range", strings.Replace(table2p8, `"p": 8`, `"p": 0`, 1), "p = 0"},
		{"unknown field", `{"p": 8, "colour": 1}`, "colour"},
		{"missing good", `{"p": 8, "bad": {"L": 1, "g_hr": 2, "g_hw": 3, "g_M": 4}}`, `"good"`},
		{"missing coefficient", strings.Replace(table2p8, `"g_hwm": 0, `, ``, 1), "good.g_hwm is missing"},
		{"foreign coefficient", strings.Replace(table2p8, `"g_hr": 0.4612`, `"g_h": 0.4612`, 1), "bad.g_h is not a coefficient of HrHwM"},
		{"not a number", strings.Replace(table2p8, `"g_hr": 0.4612`, `"g_hr": "fast"`, 1), "bad.g_hr"},
		{"cache words", strings.Replace(table2p8, `"2^19"`, `"lots"`, 1), "cache_words"},
		{"cache fraction", strings.Replace(table2p8, `"2^19"`, `1.5`, 1), "cache_words"},
		{"negative cache", strings.Replace(table2p8, `"2^19"`, `-4`, 1), "cache size C"},
		{"trailing", table2p8 + `{}`, "text after"},
		{"huge number", strings.Replace(table2p8, `"L": 140`, `"L": 1e999`, 1), "good.L"},
		{"too large", `{"name": "` + strings.Repeat("x", MaxSetFileSize) + `"}`, "larger than"},
	}
	for _, tc := range bad {
		_, err := ReadSet(strings.NewReader(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("%s: err = %v, want one containing %q", tc.name, err, tc.wantErr)
		}
	}
}

// FuzzReadSet: any input is either refused with an error or gives a valid
// set whose intervals are finite.
func FuzzReadSet(f *testing.F) {
	f.Add(table2p8)
	f.Add(`{"p": 3, "cache_words": 1024, "good": {"L": 1, "g_hrc": 2, "g_hrm": 3, "g_hwc": 4, "g_hwm": 5, "g_M": 6}, "bad": {"L": 1, "g_hr": 2, "g_hw": 3, "g_M": 4}}`)
	f.Add(`{"p": 8, "good": {"L": 1e308, "g_hrc": 1e308, "g_hrm": 0, "g_hwc": 0, "g_hwm": 0, "g_M": 0}, "bad": {"L": 1, "g_hr": 2, "g_hw": 3, "g_M": 4}}`)
	f.Add(`{"p": -1}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ReadSet(strings.NewReader(text))
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("accepted an invalid set: %v", err)
		}
		iv, err := s.Interval(Counts{Hr: 1 << 20, Hw: 3, M: 1 << 22})
		if err == nil && (math.IsNaN(iv.Good) || math.IsInf(iv.Good, 0) || math.IsNaN(iv.Bad) || math.IsInf(iv.Bad, 0)) {
			t.Fatalf("interval %+v is not finite", iv)
		}
	})
}

func TestParseCoefficients(t *testing.T) {
	// Table 4, p = 8, as a user types it.
	c, err := ParseCoefficients(HrHwM, "L=16566, g_hr=0.4612, g_hw: 0.7708 , g_M=0.1113")
	if err != nil || c != (Coefficients{L: 16566, Ghr: 0.4612, Ghw: 0.7708, GM: 0.1113}) {
		t.Errorf("%+v, %v", c, err)
	}
	set, _ := SGIPowerChallenge(12)
	text := FormatCoefficients(HrHwMc, *set.GoodR1)
	if text != "L=0, g_hrc=0.0191, g_hrm=0.0491, g_hwc=0.0081, g_hwm=0.0444, g_M=0.00035" {
		t.Errorf("formatted %q", text)
	}
	if back, err := ParseCoefficients(HrHwMc, text); err != nil || back != *set.GoodR1 {
		t.Errorf("round trip %+v, %v", back, err)
	}
	for _, tc := range []struct{ text, want string }{
		{"L=1, g_hr=2, g_hw=3", "g_M missing"},
		{"L=1, g_hr=2, g_hw=3, g_M=4, g_h=5", `"g_h" is not a coefficient of HrHwM`},
		{"L=1, L=2, g_hr=2, g_hw=3, g_M=4", "L is given twice"},
		{"L 1, g_hr=2, g_hw=3, g_M=4", `"L 1": write name=value`},
		{"L=fast, g_hr=2, g_hw=3, g_M=4", "L:"},
		{"L=1e999, g_hr=2, g_hw=3, g_M=4", "L:"},
		{strings.Repeat(" ", 1001), "at most 1000"},
	} {
		if _, err := ParseCoefficients(HrHwM, tc.text); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.text, err, tc.want)
		}
	}
}

// FuzzParseCoefficients: a typed list is refused with a message or read
// into finite coefficients that format and read back to the same values.
func FuzzParseCoefficients(f *testing.F) {
	f.Add("L=140, g_hrc=0.0184, g_hrm=0, g_hwc=0.0087, g_hwm=0, g_M=0.00005")
	f.Add("L:0,g_hrc:2^-3,g_hrm:1e-300,g_hwc:-5,g_hwm:0,g_M:7")
	f.Add("g_M=1,,,L=")
	f.Fuzz(func(t *testing.T, text string) {
		c, err := ParseCoefficients(HrHwMc, text)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		if err := c.Validate(HrHwMc); err != nil {
			t.Fatal(err)
		}
		back, err := ParseCoefficients(HrHwMc, FormatCoefficients(HrHwMc, c))
		if err != nil || back != c {
			t.Fatalf("%q: round trip %+v → %+v, %v", text, c, back, err)
		}
	})
}
