package openaitest

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// EchoKey answers with an HTTP status (401 is the usual) and an error in
// OpenAI's shape whose message quotes the request's own API key, as a
// misconfigured proxy does: "invalid key sk-…". The key is the bearer
// token of the request's Authorization header. Chat: the same answer.
func EchoKey(code int) Fault { return Fault{kind: faultEchoKey, status: code} }

// RedirectKey answers 307 Temporary Redirect to a URL on this server whose
// query carries the request's API key (?api_key=…); there the connection
// is closed without an answer. The client's network error then quotes the
// URL with the key in it, as Go's http.Client does ("Post \"…?api_key=…\":
// EOF"). Chat: the same answer.
func RedirectKey() Fault { return Fault{kind: faultRedirectKey} }

// gonePath is where RedirectKey sends the client: it hangs up.
const gonePath = "/v1/gone"

// requestKey is the API key a request carries.
func requestKey(r *http.Request) string {
	auth := r.Header.Get("Authorization")
	if key, ok := strings.CutPrefix(auth, "Bearer "); ok {
		return key
	}
	return auth
}

func serveEchoKey(w http.ResponseWriter, r *http.Request, f Fault) {
	key := requestKey(r)
	msg := fmt.Sprintf("proxy: invalid key %s (the upstream refused Authorization: Bearer %s)", key, key)
	writeJSON(w, f.status, apiError(msg, "invalid_request_error", nil, "invalid_api_key"))
}

func serveRedirectKey(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Location", gonePath+"?api_key="+url.QueryEscape(requestKey(r)))
	w.WriteHeader(http.StatusTemporaryRedirect)
}
