package redact

import (
	"context"
	"encoding"
	"fmt"
	"log/slog"
)

// Handler wraps a slog handler so that nothing it writes holds a secret:
// the message and every attribute — strings, errors, anything printed —
// pass through Text first. Numbers, times and the like pass as they are.
func Handler(next slog.Handler) slog.Handler { return &handler{next: next} }

type handler struct{ next slog.Handler }

func (h *handler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h *handler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, Text(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(attr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h *handler) WithAttrs(as []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(as))
	for i, a := range as {
		clean[i] = attr(a)
	}
	return &handler{next: h.next.WithAttrs(clean)}
}

func (h *handler) WithGroup(name string) slog.Handler {
	return &handler{next: h.next.WithGroup(name)}
}

// attr is a with its value redacted. A value that is not a string is
// turned into the text a handler would print for it, then redacted: an
// error, a Stringer, a struct printed with %+v.
func attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, Text(v.String()))
	case slog.KindGroup:
		group := v.Group()
		clean := make([]any, len(group))
		for i, g := range group {
			clean[i] = attr(g)
		}
		return slog.Group(a.Key, clean...)
	case slog.KindAny:
		return slog.String(a.Key, Text(printed(v.Any())))
	}
	return slog.Attr{Key: a.Key, Value: v}
}

// printed is how slog's text handler prints a value of kind Any. A value
// whose method panics (a nil pointer behind an error) says so, as slog's
// own handlers do.
func printed(x any) (s string) {
	defer func() {
		if r := recover(); r != nil {
			s = fmt.Sprintf("!PANIC: %v", r)
		}
	}()
	switch t := x.(type) {
	case nil:
		return "<nil>"
	case error:
		return t.Error()
	case encoding.TextMarshaler:
		b, err := t.MarshalText()
		if err != nil {
			return "!ERROR:" + err.Error()
		}
		return string(b)
	case []byte:
		return string(t)
	}
	return fmt.Sprintf("%+v", x)
}
