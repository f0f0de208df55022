package discordtest

// This file is the fake REST API's routing: requests read as Discord reads
// them, and its errors.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"
)

// errClientGone is a body the client stopped sending part-way.
var errClientGone = errors.New("the client went away mid-body")

type apiError struct {
	status int
	code   int
	msg    string
}

func (s *Server) serveREST(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	if i := strings.Index(path, "/api/v"); i == 0 {
		rest := path[len("/api/v"):]
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			if v := rest[:j]; v != APIVersion {
				// Discord: v10 is the stable version, v9 deprecated.
				s.violation("%s %s on API v%s, which Discord deprecates: v%s is current", r.Method, path, v, APIVersion)
			}
			path = rest[j:]
		}
	}
	if s.rateLimited(w, r, strings.Split(strings.Trim(path, "/"), "/")) {
		return
	}
	body, files, err := readBody(r)
	if errors.Is(err, errClientGone) {
		// A request abandoned mid-body (the bot stopping) never reaches
		// Discord's handlers: nothing to answer and nothing the bot sent wrong.
		return
	}
	if err != nil {
		s.fail(w, r, apiError{400, 50109, "The request body contains invalid JSON."})
		return
	}
	out, aerr := s.route(r, strings.Split(strings.Trim(path, "/"), "/"), body, files)
	if aerr != nil {
		s.fail(w, r, *aerr)
		return
	}
	if out == nil {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}

func (s *Server) fail(w http.ResponseWriter, r *http.Request, e apiError) {
	s.violation("%s %s: %d %s", r.Method, r.URL.Path, e.status, e.msg)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.status)
	json.NewEncoder(w).Encode(map[string]any{"code": e.code, "message": e.msg})
}

type upload struct {
	name string
	size int
	data []byte
}

// Body is a REST request body as Discord reads it: the JSON (an object, or
// a list under "list"), and the files of a multipart body.
type Body struct {
	JSON      map[string]any
	FileNames []string
	FileData  [][]byte
}

// ReadBody reads a request body as Discord does: JSON, or multipart with
// the JSON in payload_json and each file in files[n].
func ReadBody(r *http.Request) (Body, error) {
	j, files, err := readBody(r)
	b := Body{JSON: j}
	for _, f := range files {
		b.FileNames = append(b.FileNames, f.name)
		b.FileData = append(b.FileData, f.data)
	}
	return b, err
}

// readBody reads a JSON body, or a multipart one (payload_json and
// files[n]).
func readBody(r *http.Request) (map[string]any, []upload, error) {
	if r.Body == nil {
		return nil, nil, nil
	}
	data, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", errClientGone, err)
	}
	if len(data) == 0 {
		return nil, nil, nil
	}
	var files []upload
	if mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err == nil && strings.HasPrefix(mt, "multipart/") {
		mr := multipart.NewReader(bytes.NewReader(data), params["boundary"])
		data = nil
		for {
			part, err := mr.NextPart()
			if err != nil {
				break
			}
			content, _ := io.ReadAll(part)
			if part.FormName() == "payload_json" {
				data = content
				continue
			}
			if !strings.HasPrefix(part.FormName(), "files[") {
				return nil, nil, fmt.Errorf("unknown part %s", part.FormName())
			}
			files = append(files, upload{part.FileName(), len(content), content})
		}
	}
	var body any
	if err := json.Unmarshal(data, &body); err != nil {
		return nil, nil, err
	}
	switch b := body.(type) {
	case map[string]any:
		return b, files, nil
	case []any:
		return map[string]any{"list": b}, files, nil
	}
	return nil, nil, fmt.Errorf("not an object")
}

func (s *Server) route(r *http.Request, p []string, body map[string]any, files []upload) (any, *apiError) {
	bot := r.Header.Get("Authorization") == "Bot "+s.Token
	switch {
	case len(p) == 1 && p[0] == "gateway", len(p) == 2 && p[0] == "gateway" && p[1] == "bot":
		s.mu.Lock()
		shards := s.RequiredShards
		s.mu.Unlock()
		return map[string]any{"url": s.wsURL(), "shards": shards,
			"session_start_limit": map[string]any{"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}}, nil
	case p[0] == "applications" && r.Method == http.MethodGet && len(p) == 3 && p[2] == "commands":
		if !bot || p[1] != s.AppID {
			return nil, &apiError{403, 50001, "Missing Access"}
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		out := []any{}
		for _, c := range s.commands[""] {
			out = append(out, c)
		}
		return out, nil
	case p[0] == "applications" && r.Method == http.MethodPut && len(p) >= 3:
		if !bot {
			return nil, &apiError{401, 0, "401: Unauthorized"}
		}
		if p[1] != s.AppID {
			return nil, &apiError{403, 50001, "Missing Access"}
		}
		guild := ""
		if len(p) == 5 && p[2] == "guilds" {
			guild = p[3]
		}
		return s.registerCommands(guild, body)
	case p[0] == "guilds" && len(p) >= 3 && (p[2] == "roles" || len(p) == 6 && p[2] == "members" && p[4] == "roles"):
		if !bot {
			return nil, &apiError{401, 0, "401: Unauthorized"}
		}
		return s.roleRoute(r.Method, p, body)
	case p[0] == "guilds" && len(p) >= 3 && p[2] == "scheduled-events":
		if !bot {
			return nil, &apiError{401, 0, "401: Unauthorized"}
		}
		return s.eventRoute(r.Method, p, body)
	case p[0] == "interactions" && len(p) == 4 && p[3] == "callback" && r.Method == http.MethodPost:
		return s.callback(p[1], p[2], body, files)
	case p[0] == "webhooks" && len(p) >= 3:
		return s.webhook(r.Method, p, body, files)
	case p[0] == "channels" && bot && len(p) >= 2 && s.countChannelCall(p[1]):
		s.violation("%s %s: the bot is no member of that channel", r.Method, r.URL.Path)
		return nil, &apiError{403, 50001, "Missing Access"}
	case p[0] == "channels" && bot:
		if out, err, ok := s.threadRoute(r.Method, p, body); ok {
			return out, err
		}
		if len(p) >= 3 && p[2] == "messages" {
			return s.channelMessage(r.Method, p, body, files)
		}
	case p[0] == "channels" && len(p) >= 3 && p[2] == "messages":
		if !bot {
			return nil, &apiError{401, 0, "401: Unauthorized"}
		}
		return s.channelMessage(r.Method, p, body, files)
	}
	return nil, &apiError{404, 0, "404: Not Found"}
}

// countChannelCall counts a request to a channel's endpoints and says
// whether the bot is no member there.
func (s *Server) countChannelCall(channel string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.channelCalls[channel]++
	return s.notMember(channel)
}

func (s *Server) registerCommands(guild string, body map[string]any) (any, *apiError) {
	list, _ := body["list"].([]any)
	s.mu.Lock()
	defer s.mu.Unlock()
	before := s.commands[guild]
	var out []map[string]any
	perType := map[int]int{}
	for _, c := range list {
		cmd := c.(map[string]any)
		kind := commandType(cmd)
		perType[kind]++
		if problems := typedCommandProblems(cmd, kind, guild); len(problems) > 0 {
			return nil, &apiError{400, 50035, "Invalid Form Body: " + strings.Join(problems, "; ")}
		}
		cmd["id"] = keptID(before, cmd, kind, s.id)
		cmd["application_id"] = s.AppID
		cmd["type"] = kind
		out = append(out, cmd)
	}
	if problems := countProblems(perType); len(problems) > 0 {
		return nil, &apiError{400, 50035, "Invalid Form Body: " + strings.Join(problems, "; ")}
	}
	if guild == "" && hasEntryPoint(before) && perType[entryPoint] == 0 {
		// A bulk overwrite replaces every type: dropping the Entry Point
		// (which Discord made when Activities were enabled) is refused.
		return nil, &apiError{400, 50240, "You cannot remove this app's Entry Point command in a bulk update operation. " +
			"Please include the Entry Point command in your update request or delete it separately."}
	}
	s.commands[guild] = out
	if out == nil {
		return []any{}, nil
	}
	return out, nil
}
