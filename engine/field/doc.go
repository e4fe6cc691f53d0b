// Package field is memwall's one way of saying that an input is wrong: the
// input's name, as the form, link key, scenario-file field or CLI flag calls
// it, and what is accepted, in words a user can act on.
//
// Every engine package that validates input returns *Error for one bad input
// or Errors for several, so a page can mark each field at once and the CLI
// can print "memwall predict: n: ..." without knowing which model spoke.
package field
