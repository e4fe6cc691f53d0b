// Package strictjson decodes one JSON object from a file a user gave,
// refusing unknown fields and trailing text, with errors a person can act
// on (where the syntax breaks, which field has the wrong type), so that
// every file reader of the engine reports bad files the same way
// (DESIGN.md section 7).
package strictjson
