package simstats_test

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/runtime/simstats"
)

// checkHTML parses the page as XML, HTML entities allowed: every tag
// closed in order, and no reference to anything outside the page.
func checkHTML(t *testing.T, page []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(page))
	dec.Entity = xml.HTMLEntity
	var stack []string
	elements := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			stack = append(stack, tok.Name.Local)
			elements++
			for _, a := range tok.Attr {
				if a.Name.Local == "href" || a.Name.Local == "src" {
					t.Errorf("<%s %s=%q>: a reference", tok.Name.Local, a.Name.Local, a.Value)
				}
			}
			if tok.Name.Local == "script" || tok.Name.Local == "link" || tok.Name.Local == "img" {
				t.Errorf("<%s> in a self-contained page", tok.Name.Local)
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1] // the decoder has checked the name
		}
	}
	if len(stack) != 0 || elements < 10 {
		t.Fatalf("unclosed %v, %d elements", stack, elements)
	}
	for _, ref := range []string{"http://", "https://", "url(", "@import", "@font-face"} {
		if bytes.Contains(page, []byte(ref)) {
			t.Errorf("page contains %q", ref)
		}
	}
}

func TestWriteHTML(t *testing.T) {
	evil := `<script>alert("x")</script>&amp`
	recs := handMade()
	recs[0].Queue = evil
	a := simstats.Summarize(handMade(), 4)
	b := simstats.Summarize(recs, 4)
	var out bytes.Buffer
	if err := simstats.WriteHTML(&out, []simstats.Run{{Name: "base", Summary: a}, {Name: "what-if " + evil, Summary: b}}); err != nil {
		t.Fatal(err)
	}
	checkHTML(t, out.Bytes())
	page := out.String()
	if strings.Contains(page, "<script") || strings.Contains(page, `alert("x")`) {
		t.Error("a name is not escaped")
	}
	for _, want := range []string{
		"<!DOCTYPE html>",
		"<style>",
		"<h2>Totals</h2>",
		"<th>base</th>",
		"time since trace start (minutes)",
		"slots busy (%)",
		"wait time (logarithmic scale)",
		"&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&amp;amp",
		"<td>utilisation</td><td>53.3 %</td>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page has no %q", want)
		}
	}
	if n := strings.Count(page, "<polyline"); n != 2 {
		t.Errorf("%d lines in the utilisation chart, want one per run", n)
	}
	// Queues "", normal, short in the first run; the second moves job 1
	// to the evil queue: 4 queues in all, a box per queue and run that has
	// a job that ran, a note for the others.
	if n := strings.Count(page, "<rect"); n != 5 {
		t.Errorf("%d boxes, want 5", n)
	}
}

func TestWriteHTMLEmpty(t *testing.T) {
	for _, runs := range [][]simstats.Run{nil, {{Name: "empty", Summary: simstats.Summarize(nil, 8)}}} {
		var out bytes.Buffer
		if err := simstats.WriteHTML(&out, runs); err != nil {
			t.Fatal(err)
		}
		page := out.Bytes()
		dec := xml.NewDecoder(bytes.NewReader(page))
		dec.Entity = xml.HTMLEntity
		for {
			_, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%d runs: not well-formed: %v\n%s", len(runs), err, page)
			}
		}
	}
}
