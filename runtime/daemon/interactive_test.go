package daemon

import (
	"strings"
	"testing"

	"github.com/lsfc/lsfc/runtime/api"
)

// TestValidSubmitInteractive checks what the daemon accepts of an
// interactive submission's way back to bsub.
func TestValidSubmitInteractive(t *testing.T) {
	token := strings.Repeat("ab", 32)
	ok := api.Interactive{Mode: "Is", Addrs: []string{"192.0.2.7:4242", "[2001:db8::7]:4242"}, Token: token}
	if err := validSubmit(&api.SubmitRequest{Command: "sh", Interactive: &ok}); err != nil {
		t.Errorf("validSubmit(%+v): %v", ok, err)
	}
	for name, in := range map[string]api.Interactive{
		"mode":      {Mode: "IS", Addrs: ok.Addrs, Token: token},
		"no addrs":  {Mode: "I", Token: token},
		"host name": {Mode: "I", Addrs: []string{"submit.example.com:4242"}, Token: token},
		"no port":   {Mode: "I", Addrs: []string{"192.0.2.7"}, Token: token},
		"token":     {Mode: "I", Addrs: ok.Addrs, Token: "secret"},
		"too many":  {Mode: "I", Addrs: strings.Fields(strings.Repeat("192.0.2.7:1 ", 17)), Token: token},
	} {
		if err := validSubmit(&api.SubmitRequest{Command: "sh", Interactive: &in}); err == nil {
			t.Errorf("%s: validSubmit(%+v) accepted it", name, in)
		}
	}
}
