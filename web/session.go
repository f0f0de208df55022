package web

// This file is who a page's reader is. A player arrives by a private link
// the bot gave them (in `local`, where nobody logs in to Discord; the
// link's token names them and expires soon), and stays by a session
// cookie: both are the player's id and name with an expiry, signed with
// HMAC-SHA256 under a key only the server holds. Each kind of token is
// signed for its purpose, so a link is never a session nor one a link.
// A reader with no valid session watches and never moves.

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"othello-bot/record"
)

// Token purposes.
const (
	purposeLink    = "link"
	purposeSession = "session"
)

// sessionCookie is the cookie a player's session lives in.
const sessionCookie = "othello_session"

// KeySize is the length of a signing key, in bytes.
const KeySize = 32

// Sessions signs and reads who a reader is.
type Sessions struct {
	key []byte
	// LinkLife is how long a link the bot gives stays good for logging in;
	// SessionLife how long a session lasts once made.
	LinkLife, SessionLife time.Duration
	now                   func() time.Time
}

// NewSessions signs with key (at least KeySize bytes); nil key: a fresh
// random one, so sessions end when the process does.
func NewSessions(key []byte) (*Sessions, error) {
	if key == nil {
		key = make([]byte, KeySize)
		if _, err := rand.Read(key); err != nil {
			return nil, fmt.Errorf("making a session key: %w", err)
		}
	}
	if len(key) < KeySize {
		return nil, fmt.Errorf("a session key needs at least %d bytes, got %d", KeySize, len(key))
	}
	return &Sessions{key: key, LinkLife: 24 * time.Hour, SessionLife: 30 * 24 * time.Hour, now: time.Now}, nil
}

// claims is what a token says.
type claims struct {
	Purpose string `json:"p"`
	ID      string `json:"id"`
	Name    string `json:"n"`
	Expires int64  `json:"e"` // Unix seconds
	// Guild is a server Discord said the player is a member of (an
	// Activity's session, made where it was launched).
	Guild string `json:"g,omitempty"`
}

var errBadToken = errors.New("bad or expired token")

func (s *Sessions) sign(purpose string, p record.Player, life time.Duration) string {
	return s.signClaims(claims{Purpose: purpose, ID: p.ID, Name: p.Name}, life)
}

func (s *Sessions) signClaims(c claims, life time.Duration) string {
	c.Expires = s.now().Add(life).Unix()
	body, _ := json.Marshal(c)
	enc := base64.RawURLEncoding.EncodeToString(body)
	return enc + "." + base64.RawURLEncoding.EncodeToString(s.mac(enc))
}

func (s *Sessions) mac(enc string) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(enc))
	return m.Sum(nil)
}

// read checks a token's signature, purpose and expiry.
func (s *Sessions) read(purpose, token string) (record.Player, error) {
	c, err := s.readClaims(purpose, token)
	return record.Player{ID: c.ID, Name: c.Name}, err
}

func (s *Sessions) readClaims(purpose, token string) (claims, error) {
	enc, sig, ok := strings.Cut(token, ".")
	if !ok || len(token) > 4096 || strings.IndexFunc(token, notTokenRune) >= 0 {
		// Base64 decoding skips line breaks: anything but the alphabet
		// would make another spelling of a token.
		return claims{}, errBadToken
	}
	got, err := base64.RawURLEncoding.Strict().DecodeString(sig) // one spelling per signature
	if err != nil || !hmac.Equal(got, s.mac(enc)) {
		return claims{}, errBadToken
	}
	body, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil {
		return claims{}, errBadToken
	}
	var c claims
	if err := json.Unmarshal(body, &c); err != nil || c.Purpose != purpose || c.ID == "" || s.now().Unix() >= c.Expires {
		return claims{}, errBadToken
	}
	return c, nil
}

// notTokenRune is a character no token of ours holds.
func notTokenRune(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
}

// randomNonce is 128 random bits, in hex.
func randomNonce() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// LoginToken is the token of a private link that logs p in.
func (s *Sessions) LoginToken(p record.Player) string { return s.sign(purposeLink, p, s.LinkLife) }

// LoginPath is a game page's path that logs p in on the way.
func (s *Sessions) LoginPath(publicID string, p record.Player) string {
	return PagePath(publicID) + "?login=" + s.LoginToken(p)
}

// viewer is the request's logged-in player, if any: by the session
// cookie, or (in the Discord Activity, where a framed page's cookies are a
// third party's) by the same session given as a Bearer token.
func (s *Sessions) viewer(r *http.Request) (record.Player, bool) {
	c, ok := s.session(r)
	return record.Player{ID: c.ID, Name: c.Name}, ok
}

// session is the request's session, by its cookie or Bearer token.
func (s *Sessions) session(r *http.Request) (claims, bool) {
	if s == nil {
		return claims{}, false
	}
	token, bearer := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !bearer {
		c, err := r.Cookie(sessionCookie)
		if err != nil {
			return claims{}, false
		}
		token = c.Value
	}
	c, err := s.readClaims(purposeSession, token)
	return c, err == nil
}

// SessionToken is a session for p, to be given as a Bearer token.
func (s *Sessions) SessionToken(p record.Player) string {
	return s.sign(purposeSession, p, s.SessionLife)
}

// sessionIn is a session for p, a member of guild as Discord said.
func (s *Sessions) sessionIn(p record.Player, guild string) string {
	return s.signClaims(claims{Purpose: purposeSession, ID: p.ID, Name: p.Name, Guild: guild}, s.SessionLife)
}

// logIn sets p's session cookie: never readable by the page's script, and
// never sent with another site's request that would change anything.
func (s *Sessions) logIn(w http.ResponseWriter, r *http.Request, p record.Player) {
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: s.sign(purposeSession, p, s.SessionLife), Path: "/",
		MaxAge: int(s.SessionLife.Seconds()), HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https"})
}
