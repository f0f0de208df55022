package discordtest

// This file is the fake's OAuth2, as Discord documents its authorization
// code grant (developers/topics/oauth2): the browser is sent to
// /oauth2/authorize with response_type=code, client_id, scope, state and
// a redirect_uri registered for the application; the person there (the
// fake's SignIn) authorizes, and the browser comes back to
// redirect_uri?code=…&state=…. The app exchanges the code once, within
// ten minutes, at POST /api/v10/oauth2/token — a form body with
// grant_type=authorization_code, the code and the same redirect_uri, the
// client's id and secret as HTTP Basic or form fields — for a Bearer
// token, which GET /api/v10/users/@me takes. Errors answer as Discord's
// do: 400 {"error": "invalid_grant"…}, 401 {"error": "invalid_client"}
// for the token; 401 {"message": "401: Unauthorized", "code": 0} for the
// user.

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// codeLife is how long an authorization code may be exchanged.
const codeLife = 10 * time.Minute

// oauthState is the fake's OAuth2: the application's secret and redirect
// URIs, who is signed in in the browser, and the codes and tokens given.
type oauthState struct {
	secret    string
	redirects []string
	signedIn  *User
	codes     map[string]grant
	tokens    map[string]grant // what each access token may read
	exchanges int
}

type grant struct {
	user     User
	redirect string
	scopes   []string
	expires  time.Time
}

// EnableOAuth gives the application a client secret and the redirect
// URIs it may send people back to (the Developer Portal's OAuth2 page).
func (s *Server) EnableOAuth(secret string, redirects ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.oauth.secret, s.oauth.redirects = secret, redirects
	s.oauth.codes, s.oauth.tokens = map[string]grant{}, map[string]grant{}
}

// SignIn is who is logged in to Discord in the browser that reaches the
// authorize page, and who authorizes the app there.
func (s *Server) SignIn(u User) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.oauth.signedIn = &u
}

// IssueCode is what Discord's client gets for an Activity's authorize
// command when u consents: a code the app exchanges with no redirect_uri.
func (s *Server) IssueCode(u User, scopes ...string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	code := randomHex(15)
	s.oauth.codes[code] = grant{user: u, scopes: scopes, expires: time.Now().Add(codeLife)}
	return code
}

// TokenUser is whose a Bearer token is (false: no such token), as
// Discord's client checks the token an Activity's authenticate gives it.
func (s *Server) TokenUser(token string) (User, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.oauth.tokens[token]
	return g.user, ok
}

// TokenGrant is whom an access token was granted to, and its scopes.
func (s *Server) TokenGrant(token string) (User, []string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.oauth.tokens[token]
	return g.user, append([]string(nil), g.scopes...), ok
}

// AuthorizeURL is where an app sends a browser to ask for consent.
func (s *Server) AuthorizeURL() string { return s.http.URL + "/oauth2/authorize" }

// TokenExchanges is how many codes were exchanged for tokens.
func (s *Server) TokenExchanges() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.oauth.exchanges
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// serveAuthorize is the consent page, authorized at once by the person
// signed in; a request the real page would refuse gets a plain 400.
func (s *Server) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	defer s.mu.Unlock()
	o := &s.oauth
	redirect := q.Get("redirect_uri")
	switch {
	case o.codes == nil || q.Get("client_id") != s.AppID:
		http.Error(w, "Unknown application", http.StatusBadRequest)
		return
	case !slices.Contains(o.redirects, redirect):
		http.Error(w, "Invalid OAuth2 redirect_uri", http.StatusBadRequest)
		return
	case q.Get("response_type") != "code" || !slices.Contains(strings.Fields(q.Get("scope")), "identify"):
		http.Error(w, "Invalid response_type or scope", http.StatusBadRequest)
		return
	}
	back, _ := url.Parse(redirect)
	v := back.Query()
	if o.signedIn == nil {
		v.Set("error", "access_denied")
		v.Set("error_description", "The resource owner or authorization server denied the request")
	} else {
		code := randomHex(15)
		o.codes[code] = grant{user: *o.signedIn, redirect: redirect, scopes: strings.Fields(q.Get("scope")), expires: time.Now().Add(codeLife)}
		v.Set("code", code)
	}
	if state := q.Get("state"); state != "" {
		v.Set("state", state)
	}
	back.RawQuery = v.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

// serveToken exchanges a code for a token.
func (s *Server) serveToken(w http.ResponseWriter, r *http.Request) {
	oauthError := func(status int, code, desc string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]string{"error": code, "error_description": desc})
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/x-www-form-urlencoded" {
		oauthError(http.StatusBadRequest, "invalid_request", "the body must be application/x-www-form-urlencoded")
		return
	}
	if err := r.ParseForm(); err != nil {
		oauthError(http.StatusBadRequest, "invalid_request", err.Error())
		return
	}
	id, secret, basic := r.BasicAuth()
	if !basic {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o := &s.oauth
	if o.codes == nil || id != s.AppID || secret != o.secret {
		oauthError(http.StatusUnauthorized, "invalid_client", "")
		return
	}
	if r.PostForm.Get("grant_type") != "authorization_code" {
		oauthError(http.StatusBadRequest, "unsupported_grant_type", "")
		return
	}
	code := r.PostForm.Get("code")
	g, ok := o.codes[code]
	delete(o.codes, code) // once, whatever comes of it
	if !ok || time.Now().After(g.expires) {
		oauthError(http.StatusBadRequest, "invalid_grant", `Invalid "code" in request.`)
		return
	}
	if r.PostForm.Get("redirect_uri") != g.redirect {
		oauthError(http.StatusBadRequest, "invalid_grant", `Invalid "redirect_uri" in request.`)
		return
	}
	token := randomHex(15)
	o.tokens[token] = g
	o.exchanges++
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"access_token": token, "token_type": "Bearer", "expires_in": 604800,
		"refresh_token": randomHex(15), "scope": strings.Join(g.scopes, " ")})
}

// serveMe answers GET /users/@me for a Bearer token; the bot's own
// requests (Bot tokens) go to the REST fake as before.
func (s *Server) serveMe(w http.ResponseWriter, r *http.Request) {
	bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		s.serveREST(w, r)
		return
	}
	g, ok := s.bearer(w, bearer, "identify")
	if !ok {
		return
	}
	u := g.user
	var avatar any // null without one, as Discord's user object has it
	if u.Avatar != "" {
		avatar = u.Avatar
	}
	json.NewEncoder(w).Encode(map[string]any{"id": u.ID, "username": u.Name, "global_name": u.Name, "discriminator": "0", "avatar": avatar})
}

// serveMyGuilds answers GET /users/@me/guilds (the guilds scope): the
// fake's one server, which every user of the fake is a member of.
func (s *Server) serveMyGuilds(w http.ResponseWriter, r *http.Request) {
	bearer, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if _, ok := s.bearer(w, bearer, "guilds"); !ok {
		return
	}
	json.NewEncoder(w).Encode([]map[string]any{{"id": s.GuildID, "name": "the fake's server", "icon": nil, "owner": false,
		"permissions": "0", "features": []string{}}})
}

// bearer checks an access token for a scope, answering 401 as Discord does
// when it does not hold it.
func (s *Server) bearer(w http.ResponseWriter, token, scope string) (grant, bool) {
	s.mu.Lock()
	g, known := s.oauth.tokens[token]
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if !known || !slices.Contains(g.scopes, scope) {
		w.WriteHeader(http.StatusUnauthorized)
		json.NewEncoder(w).Encode(map[string]any{"message": "401: Unauthorized", "code": 0})
		return grant{}, false
	}
	return g, true
}
