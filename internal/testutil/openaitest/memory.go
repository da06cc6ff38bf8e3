package openaitest

import (
	"context"
	"net"
	"net/http"
	"sync"
)

// A server in memory is reached through pipes, not a port. Made inside a
// testing/synctest bubble together with its client, everything between
// them runs on the bubble's clock: a model that takes a minute to answer,
// or never does, costs a test no time, and a whole session can be played
// live and heard as its listener would. (A loopback socket cannot join a
// bubble: a read from one is never durably blocked.)

// memory is the in-memory transport: a listener whose connections are the
// far ends of the pipes its client dials.
type memory struct {
	srv   *http.Server
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

// NewInMemory starts a server reached only through its Client. Close it
// when done; in a bubble, before the bubble ends.
func NewInMemory() *Server {
	s := newServer()
	s.mem = &memory{conns: make(chan net.Conn), done: make(chan struct{})}
	s.mem.srv = &http.Server{Handler: http.HandlerFunc(s.serve)}
	go func() { _ = s.mem.srv.Serve(s.mem) }()
	s.URL = "http://openai.test/v1"
	return s
}

// Client is an HTTP client that reaches the server: for a server in
// memory, the only way to; for one on a port, a plain client.
func (s *Server) Client() *http.Client {
	if s.mem == nil {
		return &http.Client{}
	}
	return &http.Client{Transport: &http.Transport{DialContext: s.mem.dial}}
}

func (m *memory) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	near, far := net.Pipe()
	select {
	case m.conns <- far:
		return near, nil
	case <-m.done:
		return nil, net.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Accept, Close and Addr make memory the server's net.Listener.
func (m *memory) Accept() (net.Conn, error) {
	select {
	case c := <-m.conns:
		return c, nil
	case <-m.done:
		return nil, net.ErrClosed
	}
}

func (m *memory) Close() error {
	m.once.Do(func() { close(m.done) })
	return nil
}

func (m *memory) Addr() net.Addr { return memAddr{} }

// close ends the listener and every open connection.
func (m *memory) close() { _ = m.srv.Close() }

type memAddr struct{}

func (memAddr) Network() string { return "memory" }
func (memAddr) String() string  { return "openai.test" }
