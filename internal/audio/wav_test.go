package audio

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gopxl/beep/v2"
)

// wavBytes builds a 16-bit PCM WAV. dataSize overrides the data chunk's
// size field (espeak-ng writing to a pipe puts 0x7ffff000 there).
func wavBytes(rate, channels int, frames [][]int16, dataSize uint32, extra string) []byte {
	le := binary.LittleEndian
	var b []byte
	b = append(b, "RIFF"...)
	b = le.AppendUint32(b, 0x7ffff024)
	b = append(b, "WAVE"...)
	if extra != "" {
		b = append(b, "LIST"...)
		b = le.AppendUint32(b, uint32(len(extra)))
		b = append(b, extra...)
		if len(extra)%2 == 1 {
			b = append(b, 0)
		}
	}
	b = append(b, "fmt "...)
	b = le.AppendUint32(b, 16)
	b = le.AppendUint16(b, 1)
	b = le.AppendUint16(b, uint16(channels))
	b = le.AppendUint32(b, uint32(rate))
	b = le.AppendUint32(b, uint32(rate*2*channels))
	b = le.AppendUint16(b, uint16(2*channels))
	b = le.AppendUint16(b, 16)
	b = append(b, "data"...)
	b = le.AppendUint32(b, dataSize)
	for _, f := range frames {
		for _, v := range f {
			b = le.AppendUint16(b, uint16(v))
		}
	}
	return b
}

func TestDecodeWAVReadsToTheEndPastAPlaceholderSize(t *testing.T) {
	frames := make([][]int16, 5000)
	for i := range frames {
		frames[i] = []int16{int16(i)}
	}
	mono, rate, err := decodeWAV(wavBytes(22050, 1, frames, 0x7ffff000, "odd"))
	if err != nil {
		t.Fatal(err)
	}
	if rate != 22050 || len(mono) != 5000 {
		t.Fatalf("got %d samples at %d Hz, want 5000 at 22050", len(mono), rate)
	}
	if math.Abs(float64(mono[4999])-4999.0/32768) > 1e-6 {
		t.Errorf("last sample %v", mono[4999])
	}
}

func TestDecodeWAVDownmixesAndHonoursATrueSize(t *testing.T) {
	frames := [][]int16{{1000, 3000}, {-2000, 0}, {5, 5}}
	b := wavBytes(16000, 2, frames, 8, "") // only the first two frames are data
	b = append(b, "junk"...)
	mono, _, err := decodeWAV(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(mono) != 2 || mono[0] != 2000.0/32768 || mono[1] != -1000.0/32768 {
		t.Errorf("got %v", mono)
	}
}

func TestDecodeWAVRefusesWhatItCannotRead(t *testing.T) {
	for name, b := range map[string][]byte{
		"empty":   nil,
		"not wav": []byte("RIFF....AVI LIST"),
		"8 bit": func() []byte {
			b := wavBytes(8000, 1, nil, 0, "")
			binary.LittleEndian.PutUint16(b[34:], 8)
			return b
		}(),
		"no data": wavBytes(8000, 1, nil, 0, "")[:36],
	} {
		if _, _, err := decodeWAV(b); err == nil {
			t.Errorf("%s: decoded", name)
		} else if !strings.Contains(err.Error(), "WAV") {
			t.Errorf("%s: unclear error %q", name, err)
		}
	}
}

func TestResampleKeepsDurationAndSoftensEdges(t *testing.T) {
	in := constClip(22050, 0.5) // one second
	out := resample(in, 22050, Rate)
	if d := Rate.D(len(out)); d < 990*1e6 || d > 1010*1e6 {
		t.Errorf("one second became %v", d)
	}
	if out[0] != 0 || out[len(out)-1] != 0 {
		t.Errorf("edges %v … %v: a clip must start and end in silence", out[0], out[len(out)-1])
	}
	if mid := out[len(out)/2]; math.Abs(float64(mid)-0.5) > 0.01 {
		t.Errorf("middle %v, want 0.5", mid)
	}
}

// The direct PCM writer gives, sample for sample, the bytes beep's own
// encoder gives: edges, tiny values either side of zero, and a spread.
func TestPCM16IsBeepsEncoding(t *testing.T) {
	format := beep.Format{SampleRate: 44100, NumChannels: 2, Precision: 2}
	values := []float64{0, 1, -1, 2, -2, 0.5, -0.5, 1e-9, -1e-9, 1.0 / 32768, -1.0 / 32768,
		32767.0 / 32768, -32767.0 / 32768, 0.99999, -0.99999, math.Inf(1), math.Inf(-1)}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		values = append(values, rng.Float64()*2.4-1.2)
	}
	want := make([]byte, 4)
	for _, x := range values {
		format.EncodeSigned(want, [2]float64{x, -x})
		got := []uint16{uint16(pcm16(x)), uint16(pcm16(-x))}
		if got[0] != binary.LittleEndian.Uint16(want) || got[1] != binary.LittleEndian.Uint16(want[2:]) {
			t.Fatalf("%v encodes as %04x %04x, beep gives % x", x, got[0], got[1], want)
		}
	}
	if pcm16(math.NaN()) != 0 {
		t.Error("NaN is not silence")
	}
}
