package discord

import (
	"net/http"
	"testing"
)

// A metric's route masks ids and tokens, so routes stay few.
func TestRouteMasksIDsAndTokens(t *testing.T) {
	for path, want := range map[string]string{
		"/api/v10/channels/123456789012345678/messages":                   "POST /api/v10/channels/{id}/messages",
		"/api/v10/webhooks/42/aW50ZXJhY3Rpb24tdG9rZW4/messages/@original": "POST /api/v10/webhooks/{id}/{token}/messages/@original",
		"/api/v10/interactions/42/tok-1/callback":                         "POST /api/v10/interactions/{id}/{token}/callback",
	} {
		req, _ := http.NewRequest("POST", "https://discord.com"+path, nil)
		if got := route(req); got != want {
			t.Errorf("%s: %s, want %s", path, got, want)
		}
	}
}
