package llm

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/openai/openai-go/v3/option"
)

// What a server sends is read within bounds, before the SDK holds any of
// it: one line of a stream, or of a whole answer, at most maxLine bytes,
// and an answer at most maxBody. A reply lull asks for is a few kilobytes;
// a line of megabytes (a local model in a repetition loop, a hostile
// server) would otherwise cost dozens of times its size in memory as it is
// decoded.
const (
	maxLine = 256 << 10
	maxBody = 8 << 20
)

// errTooLong is a body that passed a bound: the call fails, as a cut
// answer does.
var errTooLong = errors.New("the server sent more than lull reads")

// bounded is the middleware that reads every answer through the bounds.
func bounded(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	resp, err := next(req)
	if err != nil || resp == nil || resp.Body == nil {
		return resp, err
	}
	resp.Body = &boundedBody{body: resp.Body}
	return resp, nil
}

// boundedBody is a body that fails once a line or the whole passes its
// bound.
type boundedBody struct {
	body  io.ReadCloser
	line  int // bytes since the last line break
	total int
	err   error
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.body.Read(p)
	chunk := p[:n]
	for len(chunk) > 0 {
		i := bytes.IndexByte(chunk, '\n')
		if i < 0 {
			b.line += len(chunk)
			break
		}
		if b.line+i > maxLine {
			b.line += i
			break
		}
		b.line, chunk = 0, chunk[i+1:]
	}
	b.total += n
	switch {
	case b.line > maxLine:
		b.err = fmt.Errorf("%w: a line of more than %d KiB", errTooLong, maxLine>>10)
	case b.total > maxBody:
		b.err = fmt.Errorf("%w: an answer of more than %d MiB", errTooLong, maxBody>>20)
	}
	if b.err != nil {
		return 0, b.err // what passed the bound is not handed on
	}
	return n, err
}

func (b *boundedBody) Close() error { return b.body.Close() }
