package lang

var debugFit = false
