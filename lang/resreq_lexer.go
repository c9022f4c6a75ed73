package lang

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Token types of the resource requirement language.
const (
	rtIdent lexer.TokenType = iota + 1
	rtNumber
	rtString
	rtPunct
)

var resreqSymbols = map[string]lexer.TokenType{
	"EOF":    lexer.EOF,
	"Ident":  rtIdent,
	"Number": rtNumber,
	"String": rtString,
	"Punct":  rtPunct,
}

// ResReqLimits bound the resource requirement strings the parser accepts,
// so that hostile input gives a clear error instead of exhausting the stack
// or memory. A zero field means the default.
type ResReqLimits struct {
	// MaxLen is the longest string, in bytes (default 16384; openlava
	// accepts 512).
	MaxLen int
	// MaxTokens is the most tokens (default 4096).
	MaxTokens int
	// MaxDepth is the deepest nesting of ( [ { (default 32).
	MaxDepth int
}

// The default resource requirement limits.
const (
	DefaultResReqMaxLen    = 16384
	DefaultResReqMaxTokens = 4096
	DefaultResReqMaxDepth  = 32
)

func (l ResReqLimits) withDefaults() ResReqLimits {
	if l.MaxLen <= 0 {
		l.MaxLen = DefaultResReqMaxLen
	}
	if l.MaxTokens <= 0 {
		l.MaxTokens = DefaultResReqMaxTokens
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultResReqMaxDepth
	}
	return l
}

// rrLexError is a lexical error at a byte offset.
type rrLexError struct {
	code     Code
	off, end int
	msg      string
}

// scanOperator reads the two-character operator at text[i] of the -R and
// bsub -w languages (== != <= >= && ||) and returns its length, or 0 when
// none starts there; a lone & or |, which is none of them, is an error
// with code.
func scanOperator(text string, i int, code Code) (int, *rrLexError) {
	if i+1 < len(text) {
		switch text[i : i+2] {
		case "==", "!=", "<=", ">=", "&&", "||":
			return 2, nil
		}
	}
	if c := text[i]; c == '&' || c == '|' {
		return 0, &rrLexError{code, i, i + 1, fmt.Sprintf("single %q is not an operator: write %q", string(c), string([]byte{c, c}))}
	}
	return 0, nil
}

// errorToken returns the index of the token at which a participle error
// arose (the last token, end of input, when it is past them all), and
// whether err is one.
func errorToken(toks []lexer.Token, err error) (int, bool) {
	var perr participle.Error
	if !errors.As(err, &perr) {
		return 0, false
	}
	off := perr.Position().Offset
	i := 0
	for i < len(toks)-1 && toks[i].Pos.Offset < off {
		i++
	}
	return i, true
}

// lexResReq splits a resource requirement string into tokens. Names are
// letters, digits, "_", "~", "#" and "." after a first letter or "_";
// numbers may carry a unit suffix ("8G", "2h", "1.5e3"); strings are in
// single or double quotes; the rest are operators and brackets. It checks
// the limits, the nesting of brackets and the characters LSF rejects.
func lexResReq(text string, lim ResReqLimits) ([]lexer.Token, *rrLexError) {
	if len(text) > lim.MaxLen {
		return nil, &rrLexError{CodeRRTooLarge, 0, 0, fmt.Sprintf("resource requirement is %d bytes, more than the %d lsfc accepts", len(text), lim.MaxLen)}
	}
	toks := make([]lexer.Token, 0, len(text)/3+1)
	var stack []int // offsets of open brackets
	tok := func(typ lexer.TokenType, start, end int) {
		toks = append(toks, lexer.Token{Type: typ, Value: text[start:end], Pos: lexer.Position{Offset: start, Line: 1, Column: start + 1}})
	}
	closers := map[byte]byte{')': '(', ']': '[', '}': '{'}
	i := 0
	for i < len(text) {
		c := text[i]
		if len(toks) >= lim.MaxTokens {
			return nil, &rrLexError{CodeRRTooLarge, i, i, fmt.Sprintf("resource requirement has more than %d tokens", lim.MaxTokens)}
		}
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case isIdentStart(c):
			j := i + 1
			for j < len(text) && isIdentChar(text[j]) {
				j++
			}
			tok(rtIdent, i, j)
			i = j
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(text) && text[i+1] >= '0' && text[i+1] <= '9':
			j := scanNumber(text, i)
			tok(rtNumber, i, j)
			i = j
		case c == '\'' || c == '"':
			j := strings.IndexByte(text[i+1:], c)
			if j < 0 {
				return nil, &rrLexError{CodeRRSyntax, i, i + 1, fmt.Sprintf("string starting with %c is not closed", c)}
			}
			tok(rtString, i, i+j+2)
			i += j + 2
		default:
			n, lerr := scanOperator(text, i, CodeRRSyntax)
			if lerr != nil {
				return nil, lerr
			}
			if n > 0 {
				tok(rtPunct, i, i+n)
				i += n
				continue
			}
			switch c {
			case '(', '[', '{':
				if len(stack) >= lim.MaxDepth {
					return nil, &rrLexError{CodeRRTooLarge, i, i + 1, fmt.Sprintf("brackets nest deeper than %d", lim.MaxDepth)}
				}
				stack = append(stack, i)
			case ')', ']', '}':
				if len(stack) == 0 {
					return nil, &rrLexError{CodeRRSyntax, i, i + 1, fmt.Sprintf("%q has no matching %q", string(c), string(closers[c]))}
				}
				if top := stack[len(stack)-1]; text[top] != closers[c] {
					return nil, &rrLexError{CodeRRSyntax, top, top + 1, fmt.Sprintf("%q is not closed before %q", string(text[top]), string(c))}
				}
				stack = stack[:len(stack)-1]
			case '<', '>', '=', '!', '+', '-', '*', '/', ',', ':', '@':
			default:
				r, size := utf8.DecodeRuneInString(text[i:])
				if r == utf8.RuneError && size == 1 {
					return nil, &rrLexError{CodeRRSyntax, i, i + 1, fmt.Sprintf("invalid UTF-8 byte 0x%02x", text[i])}
				}
				return nil, &rrLexError{CodeRRSyntax, i, i + size, fmt.Sprintf("unexpected character %q", r)}
			}
			tok(rtPunct, i, i+1)
			i++
		}
	}
	if n := len(stack); n > 0 {
		open := stack[n-1]
		want := map[byte]string{'(': ")", '[': "]", '{': "}"}[text[open]]
		return nil, &rrLexError{CodeRRSyntax, open, open + 1, fmt.Sprintf("%q is not closed (missing %q)", string(text[open]), want)}
	}
	toks = append(toks, lexer.Token{Type: lexer.EOF, Pos: lexer.Position{Offset: len(text), Line: 1, Column: len(text) + 1}})
	return toks, nil
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentChar(c byte) bool {
	return isIdentStart(c) || c >= '0' && c <= '9' || c == '~' || c == '#' || c == '.'
}

// scanNumber returns the end of the number starting at i: digits, an
// optional fraction, an optional exponent and an optional unit suffix of
// letters.
func scanNumber(s string, i int) int {
	digits := func() {
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	digits()
	if i < len(s) && s[i] == '.' {
		i++
		digits()
	}
	if i+1 < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if s[j] == '+' || s[j] == '-' {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			i = j
			digits()
		}
	}
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	return i
}

// resreqLexerDef is the participle lexer definition of the language; the
// tokens come from lexResReq, so Lex only reports misuse.
type resreqLexerDef struct{}

func (resreqLexerDef) Symbols() map[string]lexer.TokenType { return resreqSymbols }

func (resreqLexerDef) Lex(filename string, _ io.Reader) (lexer.Lexer, error) {
	return nil, fmt.Errorf("%s: resource requirements are tokenised by lang.ParseResReq", filename)
}
