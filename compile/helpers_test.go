package compile_test

import (
	"testing"

	"github.com/lsfc/lsfc/internal/testkit"
)

func corpusDir(t testing.TB, sub string) string { t.Helper(); return testkit.CorpusDir(t, sub) }
