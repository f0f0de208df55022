package discordtest

// This file is the files a user attaches to a command (an ATTACHMENT
// option, type 11): the interaction carries the attachment's id as the
// option's value and the attachment itself (filename, size, url) under
// resolved.attachments; the file is then on Discord's CDN at its url, for
// anyone with the link ("Uploading Files", "Attachment Object").

import (
	"net/http"
	"strings"
)

// Attachment is a file a user attaches to a command.
type Attachment struct {
	Filename, Content string
}

// upload keeps a file on the fake's CDN and returns its id.
func (s *Server) upload(a Attachment) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.id()
	if s.files == nil {
		s.files = map[string]Attachment{}
	}
	s.files[id] = a
	return id
}

// serveAttachment is the CDN: GET /attachments/{id}/{filename}.
func (s *Server) serveAttachment(w http.ResponseWriter, r *http.Request) {
	id, name, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/attachments/"), "/")
	s.mu.Lock()
	a, ok := s.files[id]
	s.mu.Unlock()
	if !ok || a.Filename != name {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Write([]byte(a.Content))
}
