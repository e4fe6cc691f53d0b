package link

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"memwall/engine/field"
)

// Limits. A share link is kept under about 2 KB so it survives mail and chat;
// a fragment longer than MaxFragment is refused before it is parsed, so a
// pasted megabyte cannot stall a page; one value longer than MaxValue is
// refused (a term list is under 100 characters).
const (
	MaxLink     = 2048
	MaxFragment = 4096
	MaxValue    = 1000
)

// Field is the field name of problems with the link as a whole.
const Field = "link"

// Escape writes a value for a fragment. Letters, digits and the characters
// of memwall's field and term syntax that a fragment allows as they are stay
// readable; a space becomes "+", and everything else, including the
// separators & and = and the + sign, is percent-encoded. So is ^: a URL
// parser (Go's net/url, and browsers' copy of a link) re-escapes a
// fragment that holds it, decoding %26 to & on the way.
func Escape(s string) string {
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

// Builder writes pairs in the order they are added.
type Builder struct{ b strings.Builder }

// Add writes key=value; an empty value is left out.
func (w *Builder) Add(key, value string) {
	if value == "" {
		return
	}
	w.AddEmpty(key, value)
}

// AddEmpty writes key=value even when value is empty (an empty list, say,
// which differs from the default).
func (w *Builder) AddEmpty(key, value string) {
	if w.b.Len() > 0 {
		w.b.WriteByte('&')
	}
	w.b.WriteString(key)
	w.b.WriteByte('=')
	w.b.WriteString(Escape(value))
}

// Len is the length of the fragment so far.
func (w *Builder) Len() int { return w.b.Len() }

// String is the fragment, without the "#".
func (w *Builder) String() string { return w.b.String() }

// Fragment is the fragment, or an error when it is longer than MaxLink.
func (w *Builder) Fragment() (string, error) {
	if w.b.Len() > MaxLink {
		return "", fmt.Errorf("these inputs need a %d-byte link, more than the %d a link may carry; export them as a file instead", w.b.Len(), MaxLink)
	}
	return w.b.String(), nil
}

// FromArg returns the fragment of what a user pasted: a whole URL, a
// "#fragment" or the bare pairs.
func FromArg(s string) string {
	s = strings.TrimSpace(s)
	if _, frag, ok := strings.Cut(s, "#"); ok {
		return frag
	}
	return s
}

// Each reads a fragment's key=value pairs, unescaped and trimmed, in order,
// and hands each to use, which returns a problem for a pair it cannot use.
// A fragment over MaxFragment, a pair that does not unescape, a value that
// is too long or holds control characters, and a key given twice are
// problems too (the last value is the one used).
func Each(fragment string, use func(key, val string) *field.Error) field.Errors {
	return Limits{MaxFragment, MaxValue}.Each(fragment, use)
}

// Limits bound what a reader accepts. A scenario that carries more than
// numbers (the language's compressed program) reads with larger limits.
type Limits struct {
	Fragment int // bytes of the whole fragment
	Value    int // bytes of one value
}

// Each is the package's Each with these limits.
func (l Limits) Each(fragment string, use func(key, val string) *field.Error) field.Errors {
	fragment = FromArg(fragment)
	if len(fragment) > l.Fragment {
		return field.Errors{{Field: Field, Msg: fmt.Sprintf("the link's inputs are %d bytes long, more than the %d accepted; nothing was read from them", len(fragment), l.Fragment)}}
	}
	var es field.Errors
	seen := map[string]bool{}
	for _, pair := range strings.Split(fragment, "&") {
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		key, err1 := url.QueryUnescape(k)
		val, err2 := url.QueryUnescape(v)
		switch {
		case err1 != nil || err2 != nil:
			es = append(es, field.Error{Field: Field, Msg: fmt.Sprintf("%s is not a properly %%-encoded key=value pair", Quote(pair))})
			continue
		case len(val) > l.Value:
			es = append(es, field.Error{Field: key, Msg: fmt.Sprintf("the value is %d characters long; at most %d are accepted", len(val), l.Value)})
			continue
		case !plainText(key) || !plainText(val):
			es = append(es, field.Error{Field: Field, Msg: fmt.Sprintf("%s holds control characters or invalid UTF-8", Quote(pair))})
			continue
		}
		if seen[key] {
			es = append(es, field.Error{Field: key, Msg: "given more than once; the last value was used"})
		}
		seen[key] = true
		if e := use(key, strings.TrimSpace(val)); e != nil {
			es = append(es, *e)
		}
	}
	return es
}

// Read reads a fragment into values by key, accepting only the known keys;
// every other key is a problem naming the known ones.
func Read(fragment string, known []string) (map[string]string, field.Errors) {
	ok := make(map[string]bool, len(known))
	for _, k := range known {
		ok[k] = true
	}
	vals := map[string]string{}
	es := Each(fragment, func(key, val string) *field.Error {
		if !ok[key] {
			return Unknown(key, known)
		}
		vals[key] = val
		return nil
	})
	return vals, es
}

// Unknown is the problem of a key no scenario reads.
func Unknown(key string, known []string) *field.Error {
	return &field.Error{Field: Field, Msg: fmt.Sprintf("unknown key %s was ignored (known: %s)", Quote(key), strings.Join(known, ", "))}
}

// Quote quotes untrusted text for a message, cut to a readable length.
func Quote(s string) string {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return strconv.Quote(s)
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
