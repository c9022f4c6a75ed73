package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/lang"
)

// TestVSCodeExtension checks that editors/vscode's files are valid JSON
// and that the extension gives the lsf language to the files lsfc reads
// and runs lsfc lsp.
func TestVSCodeExtension(t *testing.T) {
	dir := filepath.Join("..", "editors", "vscode")
	for _, name := range []string{"language-configuration.json", filepath.Join("syntaxes", "lsf.tmLanguage.json")} {
		var v map[string]any
		if err := json.Unmarshal([]byte(readFile(t, filepath.Join(dir, name))), &v); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	var pkg struct {
		Contributes struct {
			Languages []struct {
				ID               string   `json:"id"`
				Filenames        []string `json:"filenames"`
				FilenamePatterns []string `json:"filenamePatterns"`
			} `json:"languages"`
		} `json:"contributes"`
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(dir, "package.json"))), &pkg); err != nil {
		t.Fatalf("package.json: %v", err)
	}
	if len(pkg.Contributes.Languages) != 1 || pkg.Contributes.Languages[0].ID != "lsf" {
		t.Fatalf("package.json languages = %+v, want lsf", pkg.Contributes.Languages)
	}
	l := pkg.Contributes.Languages[0]
	for _, name := range []string{"lsf.conf", "lsf.shared", "lsf.cluster.demo", "lsb.queues", "lsb.hosts", "lsb.params", "lsb.users", "lsb.resources", "lsb.applications", "lsb.serviceclasses"} {
		if lang.KindOf(name) == lang.KindUnknown {
			t.Errorf("lsfc does not read %s", name)
		}
		matched := false
		for _, f := range l.Filenames {
			matched = matched || f == name
		}
		for _, p := range l.FilenamePatterns {
			ok, _ := filepath.Match(p, name)
			matched = matched || ok
		}
		if !matched {
			t.Errorf("the extension does not give %s the lsf language", name)
		}
	}
	js, err := os.ReadFile(filepath.Join(dir, "extension.js"))
	if err != nil || !strings.Contains(string(js), "'lsp'") {
		t.Errorf("extension.js does not start lsfc lsp (err %v)", err)
	}
}
