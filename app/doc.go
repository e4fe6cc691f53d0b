// Package app is memwall's web user interface: go-app components and pages
// that turn what the user types into engine calls and the engine's
// breakdowns into tables and charts. It computes no model term itself.
//
// One file per page (kernels.go, simulate.go, speedup.go, data.go,
// paper.go, machines.go with measure_device.go, about.go), each with
// OnPreRender and OnNav calling one init; the shared layout is in shell.go,
// the chart component in chart.go, form fields in field.go, the user's
// machine library in library.go and browser file transfer in files.go.
//
// The page state that matters is in the URL fragment (package scenario), so
// every result can be shared as a link and reopened offline.
package app
