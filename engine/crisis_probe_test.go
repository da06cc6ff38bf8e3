package engine

import (
	"os"
	"strings"
	"testing"
)

func TestCrisisProbe(t *testing.T) {
	dir := os.Getenv("CRISIS_PROBE")
	if dir == "" {
		t.Skip()
	}
	for _, side := range []string{"crisis", "ordinary"} {
		b, _ := os.ReadFile(dir + "/" + side + ".txt")
		n, bad := 0, 0
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			n++
			got := screenCrisis(l)
			if (got != "") != (side == "crisis") {
				bad++
				t.Logf("%s wrong: %q (%s)", side, l, got)
			}
		}
		t.Logf("%s: %d/%d wrong", side, bad, n)
	}
}
