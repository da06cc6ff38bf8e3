package sessions

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// A truncated YAML file often still parses, so every session.yaml ends
// with a line holding the hash of everything above it.
const checksumPrefix = "checksum: sha256:"

// seal is the body made of parts, in order, with its checksum line.
func seal(parts ...[]byte) []byte {
	h, size := sha256.New(), 0
	for _, p := range parts {
		h.Write(p)
		size += len(p)
	}
	out := make([]byte, 0, size+len(checksumPrefix)+hex.EncodedLen(sha256.Size)+1)
	for _, p := range parts {
		out = append(out, p...)
	}
	out = append(out, checksumPrefix...)
	out = hex.AppendEncode(out, h.Sum(nil))
	return append(out, '\n')
}

// unseal checks the checksum line and returns the body it covers.
func unseal(file []byte) ([]byte, error) {
	if len(file) == 0 {
		return nil, fmt.Errorf("the file is empty")
	}
	if file[len(file)-1] != '\n' {
		return nil, damaged("it does not end with a checksum line")
	}
	start := bytes.LastIndexByte(file[:len(file)-1], '\n') + 1
	body, last := file[:start], file[start:len(file)-1]
	want, ok := bytes.CutPrefix(last, []byte(checksumPrefix))
	if !ok {
		return nil, damaged(fmt.Sprintf("its last line is %q, not the checksum", clip(last, 48)))
	}
	sum := sha256.Sum256(body)
	if got := hex.EncodeToString(sum[:]); string(want) != got {
		return nil, damaged(fmt.Sprintf("checksum sha256:%s does not match the content, sha256:%s", clip(want, 12), got[:12]))
	}
	return body, nil
}

func damaged(what string) error {
	return fmt.Errorf("the file is incomplete or damaged: %s", what)
}

// clip shortens b for a message; %q then shows any control characters.
func clip(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "…"
}
