package discord

// This file is the files users attach to a command (ATTACHMENT options):
// /analyze file: is a record as a .ggf or .txt file, read from Discord's
// CDN into the record option the service reads, after the interaction is
// acknowledged (a download may take a moment).

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"othello-bot/bot"
)

// attachmentInto names, per command, the option an attached file stands
// for.
var attachmentInto = map[string]struct{ file, into string }{"analyze": {"file", "record"}}

// Record files: their extensions and the most read of one (a GGF record
// of a whole game is under 2 KB).
var recordTypes = map[string]bool{".ggf": true, ".txt": true}

const maxRecordFile = 64 << 10

// SetFiles sets the client attached files are fetched with (through the
// configured proxy, say); by default one with a 10-second timeout.
func (a *Adapter) SetFiles(c *http.Client) { a.files = c }

// readAttachment reads a command's attached file into the option it
// stands for; it returns the catalog id of why it cannot ("" when it can,
// or when nothing is attached).
func (a *Adapter) readAttachment(ctx context.Context, i *discordgo.Interaction, req *bot.Request) string {
	opt, ok := attachmentInto[req.Command]
	id := req.Options[opt.file]
	if !ok || id == "" || i.Type != discordgo.InteractionApplicationCommand {
		return ""
	}
	delete(req.Options, opt.file)
	data := i.ApplicationCommandData()
	var att *discordgo.MessageAttachment
	if data.Resolved != nil {
		att = data.Resolved.Attachments[id]
	}
	switch {
	case att == nil:
		return "analysis.file_unread"
	case !recordTypes[strings.ToLower(path.Ext(att.Filename))]:
		return "analysis.file_type"
	case att.Size > maxRecordFile:
		return "analysis.file_size"
	}
	text, err := a.fetch(ctx, att.URL)
	if err != nil {
		a.log.Warn("reading an attached file", "req", i.ID, "file", att.Filename, "err", err)
		return "analysis.file_unread"
	}
	if !utf8.ValidString(text) {
		return "analysis.file_type"
	}
	if strings.TrimSpace(req.Options[opt.into]) == "" {
		req.Options[opt.into] = text
	}
	return ""
}

// fetch reads a file from Discord's CDN, at most maxRecordFile bytes.
func (a *Adapter) fetch(ctx context.Context, url string) (string, error) {
	client := a.files
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", err
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("the CDN answered %s", resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxRecordFile+1))
	if err != nil {
		return "", err
	}
	if len(b) > maxRecordFile {
		return "", fmt.Errorf("more than %d bytes", maxRecordFile)
	}
	return string(b), nil
}
