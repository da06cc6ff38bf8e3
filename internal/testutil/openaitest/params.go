package openaitest

import (
	"net/http"
	"slices"
	"strings"
)

// SetRejectParams makes the server refuse a request that carries any of
// the named parameters with HTTP 400 in the shape OpenAI uses for a
// parameter a model does not take ("Unsupported parameter: 'X' is not
// supported with this model.", param X, code "unsupported_parameter").
// A name may be a path into the body: "reasoning.effort",
// "stream_options.include_usage". No names, the default, refuses none.
func (s *Server) SetRejectParams(names ...string) { set(s, &s.rejectParams, slices.Clone(names)) }

// refuse answers the 400 for a parameter the server does not take: a
// reasoning model's temperature, or a name given to SetRejectParams. It
// reports whether it answered.
func (s *Server) refuse(w http.ResponseWriter, req *object) bool {
	s.mu.Lock()
	names := slices.Clone(s.rejectParams)
	reasoning := s.reasoning != nil
	s.mu.Unlock()
	t := templates()
	if reasoning && carries(req, "temperature") {
		writeJSON(w, http.StatusBadRequest, t.temperature)
		return true
	}
	for _, name := range names {
		if !carries(req, name) {
			continue
		}
		body := t.unsupported.clone()
		body.obj("error").set("message", "Unsupported parameter: '"+name+"' is not supported with this model.").set("param", name)
		writeJSON(w, http.StatusBadRequest, body)
		return true
	}
	return false
}

// carries reports whether a request body has a non-null value at a
// dotted path.
func carries(req *object, path string) bool {
	o := req
	keys := strings.Split(path, ".")
	for i, k := range keys {
		v := o.get(k)
		if v == nil {
			return false
		}
		if i == len(keys)-1 {
			return true
		}
		if o, _ = v.(*object); o == nil {
			return false
		}
	}
	return false
}
