package sessions

import (
	"bytes"
	"slices"
	"testing"

	"github.com/lull-dev/lull/internal/engine"
)

// Each stored response keeps the server that holds it, so that it is
// deleted there; a file written before lull kept the server still reads,
// its ids at the server set up now.
func TestStoredResponsesKeepTheirServer(t *testing.T) {
	st := fullState(t, "2026-11-24-0700-st01")
	st.Stored = []engine.Stored{{ID: "resp_1", Server: "http://gpu-box:8000/v1"}, {ID: "resp_2", Server: "https://api.openai.com/v1"}}
	file, err := encode(st)
	if err != nil {
		t.Fatal(err)
	}
	back, err := decode(file, st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Stored, st.Stored) {
		t.Fatalf("read back %+v, wrote %+v", back.Stored, st.Stored)
	}

	body, err := unseal(file)
	if err != nil {
		t.Fatal(err)
	}
	old := bytes.Replace(body, []byte("  - id: resp_1\n    server: http://gpu-box:8000/v1\n  - id: resp_2\n    server: https://api.openai.com/v1\n"),
		[]byte("  - resp_1\n  - resp_2\n"), 1)
	if bytes.Equal(old, body) {
		t.Fatalf("the stored responses are not written as this test expects:\n%s", body)
	}
	back, err = decode(seal(old), st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := []engine.Stored{{ID: "resp_1"}, {ID: "resp_2"}}; !slices.Equal(back.Stored, want) {
		t.Errorf("an older file's ids read as %+v, want %+v", back.Stored, want)
	}
}
