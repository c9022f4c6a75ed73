module github.com/lsfc/lsfc

go 1.26.0

require (
	github.com/alecthomas/participle/v2 v2.1.4
	golang.org/x/tools v0.52.0
)
