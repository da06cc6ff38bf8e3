package safety

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"sort"
	"sync"
)

// The classifier: one logistic regression per category, over the features
// of features.go, trained from the corpora in prompts/safety/corpus/ by
// `go generate ./safety` (train.go, internal/train) and embedded here. It
// is read in place: the weights stay in the binary's read-only data, and
// screening a sentence allocates nothing they hold.

//go:generate go run ./internal/train

//go:embed model.bin
var embeddedModel []byte

// modelMagic starts a model file; modelVersion is its layout.
const (
	modelMagic   = "LULLSAFE"
	modelVersion = 3
)

// model is a trained classifier, read from its file.
type model struct {
	// Corpus is the digest of what it was trained from (corpora, the
	// vocabulary, the training's settings): a test compares it with the
	// files, so a model is never older than its corpus.
	corpus  [32]byte
	classes []class
	hashes  []byte // n features' hashes, uint32 little-endian, ascending
	weights []byte // n × len(classes) int8, by feature
	// known is guidance's vocabulary as the model was trained with it
	// (vocabulary.go), sorted words one a line: made once, when the model
	// is, so that no session pays for it at its start.
	known string
	// own holds the built-in material's lines (ownKey of each, uint64
	// little-endian, ascending): reviewed guidance the classifier does not
	// second-guess.
	own []byte
}

// class is one category's regression and its thresholds.
type class struct {
	category Category
	bias     float32
	scale    float32 // a stored weight times scale is the weight
	// threshold is the score above which a sentence is dropped; strict is
	// the lower one used when a second opinion was wanted and could not
	// be had (Screen.Strict).
	threshold, strict float32
}

// defaultModel is the embedded model, read once.
var defaultModel = sync.OnceValues(func() (*model, error) { return readModel(embeddedModel) })

// readModel reads a model file. The returned model refers to data.
func readModel(data []byte) (*model, error) {
	r := &byteReader{b: data}
	if string(r.take(len(modelMagic))) != modelMagic {
		return nil, errors.New("safety model: not a model file")
	}
	if v := r.u32(); v != modelVersion {
		return nil, fmt.Errorf("safety model: version %d, want %d", v, modelVersion)
	}
	m := &model{}
	copy(m.corpus[:], r.take(32))
	n := int(r.u32())
	for range n {
		var c class
		c.category = Category(r.take(int(r.u8())))
		c.bias, c.scale, c.threshold, c.strict = r.f32(), r.f32(), r.f32(), r.f32()
		m.classes = append(m.classes, c)
	}
	features := int(r.u32())
	m.hashes = r.take(4 * features)
	m.weights = r.take(features * len(m.classes))
	m.known = string(r.take(int(r.u32())))
	m.own = r.take(8 * int(r.u32()))
	if r.err != nil || len(r.b) != 0 {
		return nil, errors.New("safety model: truncated or overlong")
	}
	return m, nil
}

// score fills scores (one per class) for a sentence's features: the
// probability, as the regression sees it, that the sentence is of each
// class's category.
func (m *model) score(hashes []uint32, scores []float32) {
	k := len(m.classes)
	sums := make([]float64, k) // small: one per category
	n := len(m.hashes) / 4
	w := weight(len(hashes))
	for _, h := range hashes {
		i := sort.Search(n, func(i int) bool { return binary.LittleEndian.Uint32(m.hashes[4*i:]) >= h })
		if i == n || binary.LittleEndian.Uint32(m.hashes[4*i:]) != h {
			continue
		}
		row := m.weights[k*i:]
		for c := range k {
			sums[c] += float64(int8(row[c])) * w
		}
	}
	for c, cl := range m.classes {
		scores[c] = float32(sigmoid(float64(cl.bias) + sums[c]*float64(cl.scale)))
	}
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// byteReader reads a model file front to back; the first short read sets
// err and every later read returns zeros.
type byteReader struct {
	b   []byte
	err error
}

func (r *byteReader) take(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b) {
		r.err = errors.New("short")
		return nil
	}
	out := r.b[:n:n]
	r.b = r.b[n:]
	return out
}

func (r *byteReader) u8() uint8 {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}

func (r *byteReader) u32() uint32 {
	if b := r.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *byteReader) f32() float32 { return math.Float32frombits(r.u32()) }

// encode writes m in the layout readModel reads.
func (m *model) encode() []byte {
	out := []byte(modelMagic)
	out = binary.LittleEndian.AppendUint32(out, modelVersion)
	out = append(out, m.corpus[:]...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(m.classes)))
	for _, c := range m.classes {
		out = append(out, byte(len(c.category)))
		out = append(out, c.category...)
		for _, f := range []float32{c.bias, c.scale, c.threshold, c.strict} {
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(f))
		}
	}
	out = binary.LittleEndian.AppendUint32(out, uint32(len(m.hashes)/4))
	out = append(out, m.hashes...)
	out = append(out, m.weights...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(m.known)))
	out = append(out, m.known...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(m.own)/8))
	return append(out, m.own...)
}

// ownKey is a line as the built-in material's set holds it: its words,
// lower case, hashed.
func ownKey(text string) uint64 {
	h := fnv.New64a()
	for _, t := range tokenize(text, nil) {
		h.Write([]byte(t.text))
		h.Write([]byte{' '})
	}
	return h.Sum64()
}

// ownSet is lines as a model's set of the built-in material holds them.
func ownSet(lines []Example) []byte {
	keys := make([]uint64, len(lines))
	for i, e := range lines {
		keys[i] = ownKey(e.Text)
	}
	slices.Sort(keys)
	var out []byte
	for _, k := range slices.Compact(keys) {
		out = binary.LittleEndian.AppendUint64(out, k)
	}
	return out
}

// RefreshOwn is the model file data with its set of the built-in
// material's lines made from the material as it is now, and nothing else
// changed: lines written since the model was trained are trusted as the
// rest of the material is (each still has to pass the classifier: a test
// of the guide's asks an Unowned screen), without moving its thresholds
// as a training would. Without it every line edited since the training
// goes through the classifier as it is spoken, and one classification
// reads most of the model's five megabytes into memory.
func RefreshOwn(data []byte) ([]byte, error) {
	m, err := readModel(data)
	if err != nil {
		return nil, err
	}
	lines, err := BuiltinExamples()
	if err != nil {
		return nil, err
	}
	m.own = ownSet(lines)
	return m.encode(), nil
}

// isOwn reports whether text is a line of the built-in material.
func (m *model) isOwn(text string) bool {
	k := ownKey(text)
	n := len(m.own) / 8
	i := sort.Search(n, func(i int) bool { return binary.LittleEndian.Uint64(m.own[8*i:]) >= k })
	return i < n && binary.LittleEndian.Uint64(m.own[8*i:]) == k
}
