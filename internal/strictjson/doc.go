// Package strictjson is the one place a JSON file a user gave is checked
// and decoded: a UTF-8 byte order mark is dropped, a key given twice in one
// object and text after the top-level value are refused, unknown fields
// are refused, and errors say what a person can act on (where the syntax
// breaks, which field has the wrong type, which key is repeated), so that
// every file reader of the engine reports bad files the same way.
package strictjson
