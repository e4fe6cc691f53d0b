// Package app is memwall's web user interface: go-app components and pages
// that turn what the user types into engine calls and the engine's
// breakdowns into tables and charts. It computes no model term itself.
//
// Each page is a handful of small files named after it, one responsibility
// each: its state, link and OnPreRender/OnNav calling one init (kernels.go,
// simulate.go, program.go, speedup.go, communication.go, supersteps.go,
// data.go, paper.go, machines.go with measure_device.go, about.go), its
// event handlers, its imports, its background job, its charts and its
// rendering (the _view and _results files). What the pages share is
// written once: the layout in shell.go, the chart component in chart.go,
// form fields in field.go, the user's machine library and the machine menu
// in library.go, the kernel menu in kernel_menu.go, background jobs with
// progress, Cancel and turns given to the browser in job.go, the import of
// a data file with bad rows in importfile.go, browser file transfer in
// files.go, share links in share.go, number formatting in format.go and
// common tables in tables.go.
//
// The page state that matters is in the URL fragment (package scenario), so
// every result can be shared as a link and reopened offline.
package app
