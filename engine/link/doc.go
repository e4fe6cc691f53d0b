// Package link reads and writes the key=value pairs that every memwall share
// link carries after its "#", and cuts a link's fragment out of whatever a
// user pastes (a whole URL or just "#...").
//
// A link holds no data, only inputs: each model's scenario type decides which
// keys it writes and what they mean, and reads them back through Each or
// Read, so the pages, the CLI's --link flag and the tests all read a link the
// same way. Values are plain text; nothing in a link is ever run.
package link
