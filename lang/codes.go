package lang

// The syntax codes (LSF1xx) reported by this package.
const (
	CodeBinary          Code = "LSF100" // not text
	CodeBadUTF8         Code = "LSF101" // invalid UTF-8
	CodeTooLarge        Code = "LSF102" // a limit on input size or nesting
	CodeUnclosedQuote   Code = "LSF103" // quote without its closing partner
	CodeUnbalanced      Code = "LSF104" // ( or [ without ) or ] in a table cell
	CodeStrayEnd        Code = "LSF105" // End with no open section
	CodeEndMismatch     Code = "LSF106" // End names another section
	CodeUnclosedSection Code = "LSF107" // Begin without End
	CodeNoSectionName   Code = "LSF108" // Begin or End without a name
	CodeRowArity        Code = "LSF109" // row and header differ in length
	CodeMixedForm       Code = "LSF110" // key = value in a table, or a row among key = value lines
	CodeEmptyValue      Code = "LSF111" // KEY = with nothing after it
	CodeConfLine        Code = "LSF112" // lsf.conf line that is not KEY=value
	CodeConfSpaces      Code = "LSF113" // lsf.conf KEY = value with blanks
	CodeConfValue       Code = "LSF114" // lsf.conf value with unquoted blanks or trailing text
	CodeDirective       Code = "LSF115" // #if/#elif/#else/#endif/#define misuse
	CodeInclude         Code = "LSF116" // #INCLUDE misuse
	CodeOutside         Code = "LSF117" // text outside any section
	CodeHashInQuotes    Code = "LSF118" // # inside quotes in an lsb.* file
	CodeDupColumn       Code = "LSF119" // a column named twice in a header
	CodeContinuation    Code = "LSF120" // a line continuation that does not continue
	CodeExtraWords      Code = "LSF121" // words after the section name

	CodeRRSyntax   Code = "LSF401" // a resource requirement that does not parse
	CodeRRSection  Code = "LSF402" // an unknown section name
	CodeRRRepeat   Code = "LSF403" // a section given twice
	CodeRRTooLarge Code = "LSF404" // a resource requirement beyond the limits

	CodeDepSyntax   Code = "LSF405" // a dependency expression that does not parse
	CodeDepTooLarge Code = "LSF406" // a dependency expression beyond the limits
)

// CodeInfo documents one diagnostic code.
type CodeInfo struct {
	Code Code
	// Name is a short kebab-case name, stable like the code.
	Name string
	// Severity is the severity the code is usually reported with.
	Severity Severity
	// Summary is one line.
	Summary string
	// Doc explains what the check finds, why it matters, an example and
	// the fix, in plain text.
	Doc string
}

// SyntaxCodes returns the documentation of every LSF1xx code, in code
// order. The slice is new on every call.
func SyntaxCodes() []CodeInfo {
	return []CodeInfo{
		{CodeBinary, "not-text", Error, "the file is not text",
			`What it finds: a file that holds NUL bytes or is mostly not UTF-8.

Why it matters: LSF reads its configuration as lines of text; a binary file
(a compressed archive, an editor swap file) named like a configuration file
is never what the administrator meant to deploy.

Example: lsb.queues saved by a tool as UTF-16.

Fix: save the file as plain ASCII or UTF-8 text.`},
		{CodeBadUTF8, "invalid-utf8", Error, "the text holds bytes that are not valid UTF-8",
			`What it finds: a byte sequence that is not valid UTF-8, reported at the
first byte of each bad sequence.

Why it matters: LSF compares names byte by byte; a Latin-1 character pasted
into a queue or host name makes a name that no command line can type.

Example: DESCRIPTION = Fran\xe7ois's queue (a Latin-1 byte).

Fix: re-encode the file as UTF-8 or use ASCII.`},
		{CodeTooLarge, "input-too-large", Error, "the input is larger or deeper than lsfc accepts",
			`What it finds: a file, line, table row or nesting that exceeds lsfc's
limits (see lang.Limits).

Why it matters: limits keep a hostile or corrupt input from exhausting memory
or time; real LSF configuration stays far below them.

Example: a 2 MB single logical line made of continued lines.

Fix: split the value, or check that the right file was given.`},
		{CodeUnclosedQuote, "unclosed-quote", Error, "a quoted string has no closing quote",
			`What it finds: a double (or, in lsf.conf, single) quote that the line
never closes.

Why it matters: in lsf.conf the value is read as a shell word and the line
is rejected; in lsf.shared and lsf.cluster an open quote makes the rest of
the line, comments included, part of the value.

Example: LSF_SERVER_HOSTS="hostA hostB

Fix: add the closing quote.`},
		{CodeUnbalanced, "unbalanced-bracket", Error, "a table cell opens ( or [ and does not close it",
			`What it finds: a cell of a table row whose parentheses or brackets do not
balance on its line.

Why it matters: LSF groups a cell from "(" to ")"; when the ")" is missing
the rest of the row becomes one value and every later column is empty.

Example: hostA  !  ()  (fs cs

Fix: close the group.`},
		{CodeStrayEnd, "stray-end", Warning, "End with no open section",
			`What it finds: an "End" line when no section is open.

Why it matters: LSF ignores text between sections, so a stray End is
harmless to LSF, but it usually shows a section was closed twice or a Begin
was commented out.

Example: a second "End Queue" after a queue.

Fix: delete the line, or restore the missing Begin.`},
		{CodeEndMismatch, "end-name-mismatch", Error, "End names a different section than its Begin",
			`What it finds: "End X" closing a section opened by "Begin Y".

Why it matters: LSF closes the section anyway but logs an error; a reader
of the file can no longer tell where the section was meant to end.

Example: Begin Host ... End Hosts

Fix: use the same name in Begin and End (lsfc fmt and --fix do this).`},
		{CodeUnclosedSection, "unclosed-section", Error, "a section has no End",
			`What it finds: a "Begin X" with no "End" before the next Begin or the end
of the file.

Why it matters: LSF reads every following line into the open section until
it meets an End, so the next section's lines are read as the wrong thing.

Example: Begin Queue / QUEUE_NAME = short / Begin Queue ...

Fix: add "End X" where the section ends.`},
		{CodeNoSectionName, "missing-section-name", Error, "Begin or End has no section name",
			`What it finds: a "Begin" or "End" line with no name after it.

Why it matters: LSF cannot tell which section starts and skips it; an End
without a name is reported and ignored.

Example: Begin

Fix: write the section name: "Begin Queue", "End Queue".`},
		{CodeRowArity, "row-arity", Error, "a table row has more or fewer values than the header has columns",
			`What it finds: a row of a table section whose number of values differs
from the number of column names in the header.

Why it matters: LSF matches values to columns by position and ignores a row
whose count differs, so the host, user or group on that row silently gets
no settings at all. Empty values must be written as "()" or "-"; they cannot
be left out.

Example: header "HOST_NAME MXJ JL/U", row "hostA 4".

Fix: give every column a value, using "()" or "-" for "not set".`},
		{CodeMixedForm, "mixed-section-form", Error, "a section mixes KEY = value lines and table rows",
			`What it finds: a table row inside a section of KEY = value lines, or a
KEY = value line inside a table.

Why it matters: LSF decides a section's form from its first line and
ignores lines of the other form.

Example: Begin Queue / QUEUE_NAME = normal / PRIORITY 30 / End Queue

Fix: write the line in the section's form (here "PRIORITY = 30").`},
		{CodeEmptyValue, "empty-value", Warning, "KEY = has no value",
			`What it finds: a KEY = line with nothing after the "=".

Why it matters: LSF reports "null value after keyword" and ignores the line,
so the key keeps its default, which may not be what an empty value suggests.

Example: RES_REQ =

Fix: give a value, or delete the line to use the default.`},
		{CodeConfLine, "conf-not-assignment", Error, "an lsf.conf line is not KEY=value",
			`What it finds: a line of lsf.conf that is not a comment and not of the
form KEY=value.

Why it matters: LSF's lsf.conf reader rejects the file at the first such
line, and shells that source lsf.conf run the line as a command.

Example: Begin Parameters (in lsf.conf)

Fix: write KEY=value, or comment the line out.`},
		{CodeConfSpaces, "conf-spaces-around-equals", Error, "lsf.conf does not allow blanks around =",
			`What it finds: "KEY = value" or "KEY =value" in lsf.conf.

Why it matters: lsf.conf is read as shell-style assignments; LSF rejects the
line as a syntax error and a shell runs KEY as a command instead of setting
it.

Example: LSB_DEFAULTQUEUE = normal

Fix: LSB_DEFAULTQUEUE=normal (lsfc fmt and --fix do this).`},
		{CodeConfValue, "conf-unquoted-value", Error, "an lsf.conf value has blanks outside quotes or text after its closing quote",
			`What it finds: an lsf.conf value made of several words without quotes, or
with text after the closing quote.

Why it matters: LSF takes one word (or one quoted string) as the value and
rejects the rest as a syntax error.

Example: LSF_SERVER_HOSTS=hostA hostB

Fix: LSF_SERVER_HOSTS="hostA hostB"`},
		{CodeDirective, "bad-directive", Error, "a preprocessor line (#if, #elif, #else, #endif, #define) is misplaced or incomplete",
			`What it finds: #elif, #else or #endif without an open #if; #if or #elif
without a condition; a second #else; an #if never closed; #define without a
name and a condition.

Why it matters: mbatchd treats these as fatal: it refuses to read the file.

Example: #if time(8:00-18:00) ... (no #endif)

Fix: balance every #if with #endif and give each #if a condition.`},
		{CodeInclude, "bad-include", Error, "an #INCLUDE line is malformed or misplaced",
			`What it finds: #INCLUDE without a double-quoted path, or, in lsf.shared,
an #INCLUDE after the first section.

Why it matters: LSF reports an error and does not include the file, so every
definition it holds is missing.

Example: #INCLUDE /shared/lsb.queues.common

Fix: #INCLUDE "/shared/lsb.queues.common", at the top of lsf.shared.`},
		{CodeOutside, "text-outside-section", Warning, "text outside any section is ignored",
			`What it finds: a line that is neither a comment nor inside a
Begin/End section.

Why it matters: LSF silently ignores everything between sections, so a
setting written there has no effect.

Example: PRIORITY = 30 written after "End Queue".

Fix: move the line into its section, or make it a comment.`},
		{CodeHashInQuotes, "hash-in-quotes", Warning, "# inside quotes starts a comment in lsb.* files",
			`What it finds: a "#" after an unclosed double quote in an lsb.* file.

Why it matters: the batch files have no quoting: LSF cuts the line at the
"#", so the value loses its end.

Example: PRE_EXEC = echo "job #1"

Fix: avoid "#" in lsb.* values (put the command in a script).`},
		{CodeDupColumn, "duplicate-column", Error, "a table header names a column twice",
			`What it finds: a column name repeated in the header line of a table.

Why it matters: LSF rejects the header ("keyword line format error") and
ignores the whole section.

Example: HOST_NAME MXJ MXJ

Fix: remove the repeated column and its values.`},
		{CodeContinuation, "dangling-continuation", Warning, "a line continuation does not continue",
			`What it finds: a backslash at the end of the last line, or, in lsf.shared,
lsf.cluster and lsf.conf, a backslash followed by blanks (these files only
continue a line when the backslash is the last character).

Why it matters: the next line is read on its own instead of as part of the
value.

Example: "HOSTS = hostA \ " with a trailing blank.

Fix: delete the trailing blanks, or the backslash.`},
		{CodeExtraWords, "extra-words", Warning, "words after the section name are ignored",
			`What it finds: a Begin or End line with more than one word after the
keyword.

Why it matters: LSF reads only the first word as the section name; the rest
is ignored and often shows a missing comment sign.

Example: Begin Queue normal

Fix: remove the extra words or make them a comment.`},
		{CodeRRSyntax, "resreq-syntax", Error, "a resource requirement string does not parse",
			`What it finds: a -R string, or a RES_REQ, STOP_COND or RESUME_COND value,
that breaks the grammar of resource requirements: a missing operand, an
unclosed bracket or quote, a single "&" or "|", a character LSF does not
accept, a compound term whose count is not a whole number.

Why it matters: bsub rejects the job ("Bad resource requirement syntax");
a queue with a bad RES_REQ runs without it.

Example: select[mem > && type == X86_64]

Fix: complete the expression; operators are && || ! == != < <= > >= + - * /.`},
		{CodeRRSection, "resreq-unknown-section", Error, "a resource requirement names an unknown section",
			`What it finds: a word followed by "[" that is not one of select, order,
rusage, span, same, cu, affinity.

Why it matters: LSF rejects the string; a misspelt section never applies.

Example: select[mem > 100] ordr[r15s]

Fix: use the section's name; lsfc suggests the closest one.`},
		{CodeRRRepeat, "resreq-repeated-section", Error, "a section appears twice in one simple requirement",
			`What it finds: two select[] (or two order[], rusage[] ...) sections in one
simple resource requirement.

Why it matters: LSF 10.1 rejects the string; openlava silently uses the
first and ignores the rest.

Example: select[mem > 100] select[swp > 50]

Fix: join them (select[mem > 100 && swp > 50]) or pass several -R options,
which bsub merges.`},
		{CodeRRTooLarge, "resreq-too-large", Error, "a resource requirement exceeds lsfc's limits",
			`What it finds: a resource requirement longer, with more tokens, or nested
deeper than lsfc accepts (see lang.ResReqLimits).

Why it matters: the limits keep hostile input from exhausting memory or the
stack; real requirements stay far below them.

Example: forty nested parentheses.

Fix: simplify the expression.`},
		{CodeDepSyntax, "depend-syntax", Error, "a job dependency expression does not parse",
			`What it finds: a bsub -w expression that breaks the grammar of job
dependencies: an unknown condition, a missing job, an argument the
condition does not take, an unquoted job name that begins with a digit,
a single "&" or "|", an unclosed parenthesis or quote.

Why it matters: bsub rejects the job; a dependency that is not what was
meant starts the job too early or never.

Example: done(123) & exited(124)

Fix: conditions are done, ended, exit, started, post_done, post_err,
external and numdone, numended, numexit, numhold, numpend, numrun,
numstart; join them with && and ||, negate with !, and quote job names:
done(123) && exit("prep", > 0).`},
		{CodeDepTooLarge, "depend-too-large", Error, "a job dependency expression exceeds lsfc's limits",
			`What it finds: a dependency expression longer, with more tokens, or
nested deeper than lsfc accepts (lang.DepMaxLen, DepMaxTokens,
DepMaxDepth).

Why it matters: the limits keep hostile input from exhausting memory or the
stack; real expressions stay far below them.

Example: a hundred nested parentheses.

Fix: simplify the expression, or depend on fewer jobs through a job name
with a wildcard: done("step*").`},
	}
}
