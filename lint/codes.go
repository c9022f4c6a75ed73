package lint

import (
	"slices"
	"strings"

	"github.com/lsfc/lsfc/lang"
)

// The codes of lint itself: its suppression comments and its
// configuration file.
const (
	CodeBadSuppression    lang.Code = "LSF590" // a malformed # lsfc:ignore comment
	CodeUnusedSuppression lang.Code = "LSF591" // a # lsfc:ignore that suppresses nothing
	CodeBadConfig         lang.Code = "LSF592" // a mistake in .lsfc.yaml
)

func sortCodes(codes []lang.CodeInfo) {
	slices.SortFunc(codes, func(a, b lang.CodeInfo) int { return strings.Compare(string(a.Code), string(b.Code)) })
}

// metaCodes documents the codes of suppressions and the configuration
// file.
func metaCodes() []lang.CodeInfo {
	return []lang.CodeInfo{
		{Code: CodeBadSuppression, Name: "bad-suppression", Severity: lang.Error,
			Summary: "a # lsfc:ignore comment that cannot be applied",
			Doc: `What it finds: a suppression comment without a code, with a code lsfc
does not report, without a reason, or with no line after it.

Why it matters: a suppression that does not apply leaves the finding in
place, and one without a reason tells the next reader nothing.

Example: # lsfc:ignore LSF512 (no reason).

Fix: write # lsfc:ignore CODE[,CODE...] reason on the line above the line
or section it is for.`},
		{Code: CodeUnusedSuppression, Name: "unused-suppression", Severity: lang.Warning,
			Summary: "a # lsfc:ignore comment that suppresses nothing",
			Doc: `What it finds: a suppression comment whose code is not reported on the
line or section it covers.

Why it matters: the mistake it was written for has been fixed, or the
comment sits above the wrong line; either way it would hide a future
finding for no reason.

Example: # lsfc:ignore LSF503 cycle accepted, above a queue that no longer
preempts anything.

Fix: remove the comment, or move it above the line it is meant for.`},
		{Code: CodeBadConfig, Name: "bad-config", Severity: lang.Error,
			Summary: "a mistake in .lsfc.yaml",
			Doc: `What it finds: a .lsfc.yaml that is not YAML, has unknown keys, names codes
lsfc does not report, gives a severity other than off, error, warning or
info, or a path entry without a pattern.

Why it matters: the rule settings the file means to apply are not applied.

Example: rules: {LSF512: of}.

Fix: correct the line the message points at.`},
	}
}
