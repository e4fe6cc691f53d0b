package app

import (
	"net/url"
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"memwall/engine/link"
)

// The Speedup and Data pages keep their state in the URL fragment as
// key=value pairs, like the Kernels page (docs/readings.md), but their
// state is not a scenario of the MBRAM paper, so they write and read it here.

// maxLinkValue bounds one value of a link: a term list of Chittor's thesis is under
// 100 characters; a longer value is refused before it is parsed.
const maxLinkValue = 1000

// linkEscape writes a value for a fragment (package link).
func linkEscape(s string) string { return link.Escape(s) }

// linkFragment joins the pairs in the given order, leaving out empty values.
func linkFragment(pairs [][2]string) string {
	var b link.Builder
	for _, kv := range pairs {
		b.Add(kv[0], kv[1])
	}
	return b.String()
}

// parseLink reads a fragment into values by key. It never fails: every
// pair it cannot use becomes a message, and the rest is returned. Values are
// plain text; the pages show them only through go-app's text nodes and
// attribute setters, so markup in a link is shown as text, never run.
func parseLink(fragment string, allowed []string) (map[string]string, []string) {
	vals, es := link.Read(fragment, allowed)
	return vals, messages(es)
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
