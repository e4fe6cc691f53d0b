// Package scenario is the serialisable state of one calculation: a machine,
// a kernel of the MBRAM paper with its workload, and what the sweep chart compares.
// The web app edits a Scenario, the URL fragment of a share link encodes one,
// and Predict evaluates one, so every door leads to the same engine call.
//
// The share-link form is a list of readable key=value pairs joined by "&",
// as in "machine=p4-1.7-pc133&kernel=quicksort&n=8Mi&w=4&b=64". A preset
// machine is named by its id; any other machine is written inline
// (machine=custom&name=...&beta1=2.12GB/s&...), with its cache levels,
// memory latency, compute rate and core rates in keys of their own when it
// gives them (link_levels.go). Numbers are written with
// units where that is exact and in base units otherwise, so that opening a
// link reproduces the same numbers bit for bit. docs/readings.md asks for
// the fragment rather than the query string: go-app's service worker matches
// cached pages exactly, so "/?x=1" does not open offline while "/#x=1" does.
package scenario
