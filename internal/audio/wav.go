package audio

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/gopxl/beep/v2"
)

// streamedSize is what a streamed WAV's header gives as the size of its
// data (and, plus 36, of the whole file): sox's "length unspecified",
// which espeak-ng writes too. sox, ffmpeg and decodeWAV all read such a
// file to its end without a word; 0xFFFFFFFF makes sox and ffmpeg warn,
// and 0 makes sox read nothing.
const streamedSize = 0x7ffff000

// wavHeader is the 44-byte header of 16-bit stereo PCM WAV holding data
// bytes of sound.
func wavHeader(rate beep.SampleRate, data uint32) []byte {
	const channels, width = 2, 2
	le := binary.LittleEndian
	b := make([]byte, 0, 44)
	b = append(b, "RIFF"...)
	b = le.AppendUint32(b, data+36)
	b = append(b, "WAVEfmt "...)
	b = le.AppendUint32(b, 16)
	b = le.AppendUint16(b, 1) // PCM
	b = le.AppendUint16(b, channels)
	b = le.AppendUint32(b, uint32(rate))
	b = le.AppendUint32(b, uint32(rate)*channels*width)
	b = le.AppendUint16(b, channels*width)
	b = le.AppendUint16(b, 8*width)
	b = append(b, "data"...)
	return le.AppendUint32(b, data)
}

// encodeWAV writes what s streams to w as 16-bit stereo PCM WAV, until s
// ends or a write fails. The header goes first with streamed sizes, so a
// pipe, a device or a file cut short is still a WAV read to its end; a w
// that can seek (a file) gets the real sizes once the sound is whole.
func encodeWAV(w io.Writer, s beep.Streamer, rate beep.SampleRate) error {
	const width = 4 // two channels of 16 bits
	bw := bufio.NewWriterSize(w, 64<<10)
	if _, err := bw.Write(wavHeader(rate, streamedSize)); err != nil {
		return err
	}
	samples := make([][2]float64, 512)
	buf := make([]byte, len(samples)*width)
	var data int64
	for {
		n, ok := s.Stream(samples)
		if !ok {
			break
		}
		putPCM16(buf, samples[:n])
		m, err := bw.Write(buf[:n*width])
		data += int64(m)
		if err != nil {
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	ws, ok := w.(io.WriteSeeker)
	if !ok || data > streamedSize {
		return nil
	}
	if _, err := ws.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if _, err := ws.Write(wavHeader(rate, uint32(data))); err != nil {
		return err
	}
	_, err := ws.Seek(0, io.SeekEnd)
	return err
}

// putPCM16 writes samples into buf as 16-bit little-endian stereo.
//
//go:norace
func putPCM16(buf []byte, samples [][2]float64) {
	for i, v := range samples {
		binary.LittleEndian.PutUint16(buf[i*4:], uint16(pcm16(v[0])))
		binary.LittleEndian.PutUint16(buf[i*4+2:], uint16(pcm16(v[1])))
	}
}

// pcm16 is a sample in 16-bit PCM, the value beep's Format.EncodeSigned
// gives (clamped to ±1, scaled by 2¹⁵, cut toward zero, at most 32767),
// without its two calls of math.Exp2 a sample: the encoder was two
// fifths of a render's time. Converting to an integer cuts toward zero
// on both sides, so nothing branches on the sign, which noise makes the
// processor guess wrong half the time; clipping is rare. NaN, which beep
// leaves undefined, is silence.
func pcm16(x float64) int16 {
	v := x * 32768
	switch {
	case v >= 32767:
		return 32767
	case v <= -32768:
		return -32768
	case v == v:
		return int16(v)
	}
	return 0
}

// decodeWAV reads 16-bit PCM WAV (what local voice engines write) into
// mono samples. The data chunk runs to the end of the input whatever its
// header says: espeak-ng writing to a pipe leaves a placeholder size.
func decodeWAV(b []byte) (mono []float32, rate int, err error) {
	if len(b) < 12 || string(b[0:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		return nil, 0, errors.New("not a WAV file")
	}
	var channels, bits int
	b = b[12:]
	for len(b) >= 8 {
		id, size := string(b[0:4]), int64(binary.LittleEndian.Uint32(b[4:8]))
		b = b[8:]
		switch id {
		case "fmt ":
			if len(b) < 16 {
				return nil, 0, errors.New("WAV format chunk is cut short")
			}
			format := binary.LittleEndian.Uint16(b[0:2])
			channels = int(binary.LittleEndian.Uint16(b[2:4]))
			rate = int(binary.LittleEndian.Uint32(b[4:8]))
			bits = int(binary.LittleEndian.Uint16(b[14:16]))
			if (format != 1 && format != 0xFFFE) || bits != 16 || channels < 1 || rate < 4000 {
				return nil, 0, fmt.Errorf("unsupported WAV: format %d, %d bits, %d channels, %d Hz", format, bits, channels, rate)
			}
		case "data":
			if channels == 0 {
				return nil, 0, errors.New("WAV data before its format")
			}
			if size > int64(len(b)) {
				size = int64(len(b)) // a placeholder: read to the end
			}
			frame := 2 * channels
			n := int(size) / frame
			mono = make([]float32, n)
			for i := range n {
				var sum int
				for c := range channels {
					sum += int(int16(binary.LittleEndian.Uint16(b[i*frame+2*c:])))
				}
				mono[i] = float32(sum) / float32(channels) / 32768
			}
			return mono, rate, nil
		}
		if size > int64(len(b)) {
			break
		}
		b = b[size+size%2:] // chunks are padded to even sizes
	}
	return nil, 0, errors.New("WAV file has no data")
}

// resample converts mono samples from one rate to another with the
// polyphase filter for that pair, and softens the first and last few
// milliseconds so a clip never starts or stops with a click.
func resample(mono []float32, from, to beep.SampleRate) []float32 {
	var out []float32
	if from == to {
		out = append([]float32(nil), mono...)
	} else {
		out = polyphaseFor(int(from), int(to)).convert(mono)
	}
	edge := min(to.N(edgeFade), len(out)/2)
	for i := range edge {
		g := float32(smoothstep(float64(i) / float64(edge)))
		out[i] *= g
		out[len(out)-1-i] *= g
	}
	return out
}

// edgeFade is how long a clip takes to rise from and fall to silence.
const edgeFade = 4 * time.Millisecond
