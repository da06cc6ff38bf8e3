package openaitest

import (
	"encoding/json"
	"net/http"
)

// flaggedScore and calmScore are the category scores of a flagged and of
// an unflagged category: the recorded example's violence score, and a
// small one.
var (
	flaggedScore = json.Number("0.9999992735124786")
	calmScore    = json.Number("1.573112165348997e-06")
)

// moderate serves POST /v1/moderations: one result per input, in the
// recorded example's shape, flagged as violence when SetFlag's function
// says so.
func (s *Server) moderate(w http.ResponseWriter, body []byte) {
	req, err := parseObject(body)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, apiError(badJSON, "invalid_request_error", nil, nil))
		return
	}
	flag := get(s, &s.flag)

	t := templates()
	resp := t.moderation.clone()
	resp.set("id", "modr-"+randomHex(16))
	if model, ok := req.get("model").(string); ok {
		resp.set("model", model)
	}
	example := t.moderation.list("results")[0].(*object)
	var results []any
	for _, text := range moderationInputs(req.get("input")) {
		flagged := flag != nil && flag(text)
		r := example.clone()
		r.set("flagged", flagged)
		cats, scores := r.obj("categories"), r.obj("category_scores")
		for _, k := range cats.keys {
			on := flagged && k == "violence"
			cats.set(k, on)
			score := calmScore
			if on {
				score = flaggedScore
			}
			scores.set(k, score)
		}
		results = append(results, r)
	}
	resp.set("results", results)
	writeJSON(w, http.StatusOK, resp)
}

// moderationInputs reads the input field: a string, a list of strings, or
// a list of multimodal parts of which the text ones count.
func moderationInputs(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			switch p := x.(type) {
			case string:
				out = append(out, p)
			case *object:
				if s, ok := p.get("text").(string); ok {
					out = append(out, s)
				}
			}
		}
		return out
	}
	return nil
}
