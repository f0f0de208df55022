package web

// This file is "Log in with Discord": OAuth2's authorization code grant
// with the identify scope. The reader is sent to Discord's consent page
// with a state that is signed (it carries the page to come back to) and
// bound to this browser by a short cookie, so no other site can log
// someone in as somebody else; the code that comes back is exchanged on
// the server, with the client secret, for a token that reads who they
// are, once; then they have a session as if they had followed a link.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"othello-bot/record"
)

// DiscordLogin is an application's OAuth2 with Discord.
type DiscordLogin struct {
	ClientID string // the application's id
	// Secret is the client secret: from the environment, never the config
	// file, and never written to the log.
	Secret       string
	AuthorizeURL string // Discord's consent page: https://discord.com/oauth2/authorize
	APIBase      string // Discord's API: https://discord.com/api/v10
	// RedirectURL is where Discord sends the reader back: this server's
	// /login/discord/callback, as registered in the Developer Portal.
	RedirectURL string
	Client      *http.Client // nil: one with a 10-second timeout
}

const (
	purposeState = "state"
	loginCookie  = "othello_login"
	loginLife    = 10 * time.Minute
)

// EnableDiscordLogin offers "Log in with Discord" on the pages.
func (s *Server) EnableDiscordLogin(l *DiscordLogin) {
	if l.Client == nil {
		l.Client = defaultLoginClient()
	}
	s.login = l
	s.mux.HandleFunc("GET /login/discord", s.startLogin)
	s.mux.HandleFunc("GET /login/discord/callback", s.finishLogin)
}

// loginPath is where a page's "Log in with Discord" goes, coming back to
// page; "" where there is no such login.
func (s *Server) loginPath(page string) string {
	if s.login == nil || s.sessions == nil {
		return ""
	}
	return "/login/discord?" + url.Values{"next": {page}}.Encode()
}

// localPage reports whether next is one of this server's pages: the only
// places a login sends a reader back to.
func localPage(next string) bool {
	page := strings.HasPrefix(next, "/g/") || strings.HasPrefix(next, "/t/") ||
		next == StormPath || strings.HasPrefix(next, StormPath+"/") || strings.HasPrefix(next, StormPath+"?")
	return page && !strings.ContainsAny(next, "\\\r\n") && !strings.Contains(next, "//") && len(next) < 512
}

func (s *Server) startLogin(w http.ResponseWriter, r *http.Request) {
	next := r.URL.Query().Get("next")
	if s.sessions == nil || !localPage(next) {
		http.Error(w, readerWords(r).T("web.bad_request"), http.StatusBadRequest)
		return
	}
	nonce := randomNonce()
	state := s.sessions.sign(purposeState, record.Player{ID: nonce, Name: next}, loginLife)
	http.SetCookie(w, &http.Cookie{Name: loginCookie, Value: nonce, Path: "/login/discord", MaxAge: int(loginLife.Seconds()),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https"})
	q := url.Values{"response_type": {"code"}, "client_id": {s.login.ClientID}, "scope": {"identify"}, "state": {state},
		"redirect_uri": {s.login.RedirectURL}, "prompt": {"none"}}
	http.Redirect(w, r, s.login.AuthorizeURL+"?"+q.Encode(), http.StatusFound)
}

func (s *Server) finishLogin(w http.ResponseWriter, r *http.Request) {
	t := readerWords(r)
	q := r.URL.Query()
	state, err := s.sessions.read(purposeState, q.Get("state"))
	cookie, cerr := r.Cookie(loginCookie)
	if err != nil || cerr != nil || cookie.Value != state.ID || !localPage(state.Name) {
		s.log.Warn("web: a Discord login came back with a bad state")
		http.Error(w, t.T("web.login_failed"), http.StatusBadRequest)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: loginCookie, Path: "/login/discord", MaxAge: -1})
	if e := q.Get("error"); e != "" || q.Get("code") == "" {
		// They said no at Discord: back to the page, to watch.
		s.log.Info("web: a Discord login was not authorized", "error", e)
		http.Redirect(w, r, state.Name, http.StatusSeeOther)
		return
	}
	_, p, avatar, err := s.login.identify(r.Context(), q.Get("code"), s.login.RedirectURL)
	if err != nil {
		s.log.Error("web: logging in with Discord", "err", err)
		http.Error(w, t.T("web.login_failed"), http.StatusBadGateway)
		return
	}
	s.keepAvatar(r.Context(), p, avatar)
	s.sessions.logIn(w, r, p)
	s.log.Info("web: logged in with Discord", "user", p.ID)
	http.Redirect(w, r, state.Name, http.StatusSeeOther)
}

func defaultLoginClient() *http.Client { return &http.Client{Timeout: 10 * time.Second} }

// identify exchanges a code for a token and reads whose it is. redirect
// is the redirect_uri the code was asked with ("" for none: the
// Activity's).
func (l *DiscordLogin) identify(ctx context.Context, code, redirect string) (token string, p record.Player, avatar string, err error) {
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}}
	if redirect != "" {
		form.Set("redirect_uri", redirect)
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, l.APIBase+"/oauth2/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(l.ClientID, l.Secret)
	var tok struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
	}
	if err := l.call(req, &tok); err != nil {
		return "", record.Player{}, "", fmt.Errorf("exchanging the code: %w", err)
	}
	req, _ = http.NewRequestWithContext(ctx, http.MethodGet, l.APIBase+"/users/@me", nil)
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	var me struct {
		ID         string `json:"id"`
		Username   string `json:"username"`
		GlobalName string `json:"global_name"`
		Avatar     string `json:"avatar"` // its hash; null (read as "") for the default
	}
	if err := l.call(req, &me); err != nil {
		return "", record.Player{}, "", fmt.Errorf("reading who logged in: %w", err)
	}
	if me.ID == "" {
		return "", record.Player{}, "", fmt.Errorf("reading who logged in: no id")
	}
	name := me.GlobalName
	if name == "" {
		name = me.Username
	}
	return tok.AccessToken, record.Player{ID: me.ID, Name: record.PlainName(name)}, me.Avatar, nil
}

// keepAvatar remembers the avatar a player logged in with, for the boxes
// beside their boards; a failure costs the picture, not the login.
func (s *Server) keepAvatar(ctx context.Context, p record.Player, hash string) {
	if !validAvatar(hash) {
		hash = ""
	}
	if err := s.src.SetAvatar(ctx, p, hash, s.Now()); err != nil {
		s.log.Warn("web: keeping a player's avatar", "user", p.ID, "err", err)
	}
}

// validAvatar says hash is an image hash as Discord writes them (hex,
// "a_" before an animated one's): nothing else goes into an address.
func validAvatar(hash string) bool {
	h := strings.TrimPrefix(hash, "a_")
	return len(h) >= 16 && len(h) <= 64 && strings.Trim(h, "0123456789abcdef") == ""
}

// avatarURL is a player's avatar on Discord's CDN ("Image Formatting":
// avatars/user_id/user_avatar.png, a power of two as ?size), "" for none.
func avatarURL(playerID, hash string) string {
	if !validAvatar(hash) {
		return ""
	}
	return "https://cdn.discordapp.com/avatars/" + playerID + "/" + hash + ".png?size=64"
}

// memberOf reports whether the token's user is a member of guild, as
// Discord says to the guilds scope.
func (l *DiscordLogin) memberOf(ctx context.Context, token, guild string) (bool, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, l.APIBase+"/users/@me/guilds", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	var guilds []struct {
		ID string `json:"id"`
	}
	if err := l.call(req, &guilds); err != nil {
		return false, fmt.Errorf("reading the user's servers: %w", err)
	}
	for _, g := range guilds {
		if g.ID == guild {
			return true, nil
		}
	}
	return false, nil
}

// call sends a request to Discord and reads its JSON answer into out.
func (l *DiscordLogin) call(req *http.Request, out any) error {
	resp, err := l.Client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	if resp.StatusCode != http.StatusOK {
		// Discord's error names what was wrong; no secret is in it.
		return fmt.Errorf("%s %s: %d %.200s", req.Method, req.URL.Path, resp.StatusCode, body)
	}
	return json.Unmarshal(body, out)
}
