package lang_test

import (
	"testing"

	"github.com/lsfc/lsfc/internal/testkit"
	"golang.org/x/tools/txtar"
)

func corpusDir(t testing.TB, sub string) string { t.Helper(); return testkit.CorpusDir(t, sub) }

func checkWant(t *testing.T, path string, ar *txtar.Archive, got string) {
	t.Helper()
	testkit.CheckWant(t, path, ar, got)
}
