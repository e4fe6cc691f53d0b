package app

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/scenario"
)

// The Speedup and Data pages keep their state in the URL fragment as
// key=value pairs, like the Kernels page (docs/readings.md), but their
// state is not a scenario of the MBRAM paper, so they write and read it here.

// maxLinkValue bounds one value of a link: a term list of Chittor's thesis is under
// 100 characters; a longer value is refused before it is parsed.
const maxLinkValue = 1000

// linkEscape writes a value for a fragment. Letters, digits and the
// characters of the term language that a fragment allows as they are
// (* / ( ) , .) stay readable; a space becomes "+", and everything else,
// including the separators & and = and the + sign, is percent-encoded.
func linkEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ':
			b.WriteByte('+')
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', strings.IndexByte("-._~*/(),:!", c) >= 0:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// linkFragment joins the pairs in the given order, leaving out empty values.
func linkFragment(pairs [][2]string) string {
	var parts []string
	for _, kv := range pairs {
		if kv[1] != "" {
			parts = append(parts, kv[0]+"="+linkEscape(kv[1]))
		}
	}
	return strings.Join(parts, "&")
}

// parseLink reads a fragment into values by key. It never fails: every
// pair it cannot use becomes a message, and the rest is returned. Values are
// plain text; the pages show them only through go-app's text nodes and
// attribute setters, so markup in a link is shown as text, never run.
func parseLink(fragment string, allowed []string) (map[string]string, []string) {
	fragment = strings.TrimPrefix(fragment, "#")
	vals := map[string]string{}
	if fragment == "" {
		return vals, nil
	}
	if len(fragment) > scenario.MaxFragment {
		return vals, []string{fmt.Sprintf("the link's part after # is %d characters long; at most %d are read, so it was ignored", len(fragment), scenario.MaxFragment)}
	}
	known := map[string]bool{}
	for _, k := range allowed {
		known[k] = true
	}
	var msgs []string
	for _, part := range strings.Split(fragment, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		key, err := url.QueryUnescape(k)
		if err != nil || !known[key] {
			msgs = append(msgs, fmt.Sprintf("unknown key %s was ignored (known: %s)", quoteShort(k), strings.Join(allowed, ", ")))
			continue
		}
		val, err := url.QueryUnescape(v)
		switch {
		case err != nil:
			msgs = append(msgs, fmt.Sprintf("%s: the value is not properly %%-encoded", key))
		case len(val) > maxLinkValue:
			msgs = append(msgs, fmt.Sprintf("%s: the value is %d characters long; at most %d are accepted", key, len(val), maxLinkValue))
		case !plainText(val):
			msgs = append(msgs, fmt.Sprintf("%s: the value holds control characters or invalid UTF-8", key))
		default:
			if _, dup := vals[key]; dup {
				msgs = append(msgs, fmt.Sprintf("%s appears more than once; the last one was used", key))
			}
			vals[key] = val
		}
	}
	return vals, msgs
}

func plainText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// quoteShort quotes a piece of a link for a message, cut to a readable length.
func quoteShort(s string) string {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return strconv.Quote(s)
}

// pageLink is the current page's address with a new fragment.
// shareURL is a page's share link for a fragment that may have failed to
// encode: the link, or "" and the message to show instead.
func shareURL(ctx app.Context, fragment string, err error) (*url.URL, string) {
	if err != nil {
		return nil, err.Error()
	}
	page := ctx.Page().URL()
	if page == nil {
		return nil, "this page's address could not be read"
	}
	u, err := pageLink(page, fragment)
	if err != nil {
		return nil, err.Error()
	}
	return u, ""
}

func pageLink(cur *url.URL, fragment string) (*url.URL, error) {
	c := *cur
	c.Fragment, c.RawFragment = "", ""
	if fragment == "" {
		return &c, nil
	}
	return url.Parse(c.String() + "#" + fragment)
}

// fmtNum shows a number with six significant digits, whole numbers up to
// a billion, and powers of ten outside [1e-3, 1e9) so table columns stay narrow.
func fmtNum(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "—"
	case v == 0:
		return "0"
	case math.Abs(v) >= 1e-3 && math.Abs(v) < 1e6:
		return strconv.FormatFloat(v, 'g', 6, 64)
	case math.Abs(v) >= 1e6 && math.Abs(v) < 1e9:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	s := strconv.FormatFloat(v, 'e', 4, 64)
	mant, exp, _ := strings.Cut(s, "e")
	if strings.Contains(mant, ".") {
		mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
	}
	e, _ := strconv.Atoi(exp)
	return mant + "e" + strconv.Itoa(e)
}

// fmtPct shows a fraction as a percentage.
func fmtPct(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	return strconv.FormatFloat(100*v, 'f', 2, 64) + " %"
}

// finite reports whether v can go into a chart or a table.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
