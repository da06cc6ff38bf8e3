package engine

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestCrisisDebug(t *testing.T) {
	text := os.Getenv("CRISIS_DEBUG")
	if text == "" {
		t.Skip()
	}
	for _, l := range strings.Split(text, "\n") {
		r := readIntention(l)
		fmt.Printf("%q -> %q\n", l, screenCrisis(l))
		var ws []string
		for _, tk := range r.toks {
			ws = append(ws, tk.word+"/"+tk.stem)
		}
		fmt.Println("  ", strings.Join(ws, " "))
		for _, c := range r.lx.order {
			for _, m := range r.byC[c] {
				fmt.Printf("   %s[%d:%d]%v %q", c, m.from, m.to, m.alone, joinWords(r, m))
			}
		}
		fmt.Println()
	}
}

func joinWords(r *reading, m mention) string {
	var ws []string
	for _, tk := range r.toks[m.from:m.to] {
		ws = append(ws, tk.word)
	}
	return strings.Join(ws, " ")
}
