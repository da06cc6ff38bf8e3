package engine

import (
	"fmt"
	"testing"
)

func TestDbgPace(t *testing.T) {
	spk, st := runProse(t, 5, false)
	fmt.Println(st.Elapsed)
	for _, r := range st.Phases {
		fmt.Printf("  %-10s spoken %2d budget %+v elapsed %v\n", r.Phase, r.Spoken, r.Budget, r.Elapsed)
	}
	for i, l := range spk.lines {
		fmt.Println(l.Phase, spk.starts[i], spk.ds[i])
	}
}
