package sessions

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/lull-dev/lull/internal/engine"
)

// File names inside a session folder.
const (
	primaryName    = "session.yaml"
	backupName     = "session.yaml.bak"
	tempName       = "session.yaml.tmp"
	transcriptName = "transcript.md"
	lockName       = "lock"
)

// maxFileSize is far above any real session (an hour is ~200 KiB) and
// keeps a hostile file from filling memory.
const maxFileSize = 4 << 20

// encode is the complete session.yaml for st, checksum included: the
// definition a session's saves (encoder) keep to byte for byte.
func encode(st engine.State) ([]byte, error) {
	body, err := marshal(toDocument(st))
	if err != nil {
		return nil, err
	}
	return seal(body), nil
}

// marshal is v as session.yaml writes YAML.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encoding the session: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("encoding the session: %w", err)
	}
	return buf.Bytes(), nil
}

// decode reads a whole session.yaml strictly: checksum, one document of
// known fields, the schema version, the id its folder gives it, and the
// State's own invariants.
func decode(file []byte, folder string) (st engine.State, err error) {
	defer func() {
		if p := recover(); p != nil {
			st, err = engine.State{}, panicked(p)
		}
	}()
	if len(file) > maxFileSize {
		return engine.State{}, tooBig()
	}
	body, err := unseal(file)
	if err != nil {
		return engine.State{}, err
	}
	if err := peekVersion(body); err != nil {
		return engine.State{}, err
	}
	var d document
	if err := decodeStrict(body, &d); err != nil {
		return engine.State{}, err
	}
	if err := d.check(folder); err != nil {
		return engine.State{}, err
	}
	st, err = fromDocument(d)
	if err != nil {
		return st, err
	}
	if err := st.Validate(); err != nil {
		return st, fmt.Errorf("the session does not hold together: %w", err)
	}
	return st, nil
}

// check is what every decoded header must satisfy, in full or in a prefix.
func (h header) check(folder string) error {
	if h.Version > schemaVersion {
		return &NewerError{ID: folder, Version: h.Version}
	}
	if h.Version != schemaVersion {
		return versionError(strconv.Itoa(h.Version))
	}
	if h.ID != folder {
		return fmt.Errorf("the file says it is session %q but its folder is %q", h.ID, folder)
	}
	return nil
}

// peekVersion names an unknown version before strict decoding can trip
// over the fields a newer lull added.
func peekVersion(body []byte) error {
	first, _, _ := bytes.Cut(body, []byte("\n"))
	v, ok := bytes.CutPrefix(first, []byte("version: "))
	if !ok || string(v) == strconv.Itoa(schemaVersion) {
		return nil // a missing version is caught after decoding
	}
	if n := newerVersion(string(v)); n > 0 {
		return &NewerError{Version: n}
	}
	return versionError(string(v))
}

func versionError(found string) error {
	if found == "0" {
		return fmt.Errorf("the file has no schema version")
	}
	return fmt.Errorf("schema version %s is not one this lull knows (it reads version %d); was it written by a newer lull?",
		clip([]byte(found), 20), schemaVersion)
}

func tooBig() error {
	return fmt.Errorf("the file is larger than %d MiB; lull never writes one that big", maxFileSize>>20)
}

// errPanic is wrapped by the error a reader's panic becomes: a bug to
// fix, not a file to blame. The fuzz test looks for it.
var errPanic = errors.New("lull failed while reading it")

func panicked(p any) error {
	return fmt.Errorf("%w (%v)", errPanic, p)
}

// decodeStrict decodes exactly one YAML document of known fields into v.
func decodeStrict(body []byte, v any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the YAML decoder failed: %w", panicked(p))
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(body))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("the file holds no YAML document")
		}
		return yamlError(err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return fmt.Errorf("the file holds more than one YAML document")
	}
	return nil
}

var unknownField = regexp.MustCompile(`field (\S+) not found in type \S+`)

// yamlError puts yaml.v3's errors on one line, in the schema's terms.
func yamlError(err error) error {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		var msgs []string
		for _, m := range te.Errors[:min(len(te.Errors), 3)] {
			msgs = append(msgs, unknownField.ReplaceAllString(m, "unknown field $1"))
		}
		if more := len(te.Errors) - len(msgs); more > 0 {
			msgs = append(msgs, fmt.Sprintf("and %d more", more))
		}
		return fmt.Errorf("unexpected content: %s", strings.Join(msgs, "; "))
	}
	return fmt.Errorf("not valid YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
}
