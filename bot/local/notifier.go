package local

// This file is the terminal's side of the service's Notifier: posting,
// editing, threads.

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"othello-bot/bot"
)

// Send posts a message in the terminal channel (the Notifier side).
func (a *Adapter) Send(_ context.Context, channelID string, m bot.Message) (string, error) {
	a.mu.Lock()
	gone := a.threads[channelID] == nil && strings.HasPrefix(channelID, threadPrefix)
	a.mu.Unlock()
	if gone {
		return "", fmt.Errorf("no channel %q: it was deleted", channelID)
	}
	return a.id(a.show(m, "", channelID)), nil
}

// threadPrefix starts the ids of the threads the terminal opens.
const threadPrefix = "thread-"

// CreateThread opens a thread off a channel. Its id is "thread-", a piece
// of the run's id and a number, so a restarted terminal never reuses the id
// of an old game's thread.
func (a *Adapter) CreateThread(_ context.Context, parentID, name string) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.threads[parentID] != nil {
		return "", bot.ErrThreadsNotAllowed // no thread in a thread, as on Discord
	}
	if a.threads == nil {
		a.threads = map[string]*thread{}
	}
	a.nthreads++
	id := threadPrefix + a.run[len(a.run)-4:] + "-" + strconv.Itoa(a.nthreads)
	a.threads[id] = &thread{parent: parentID, name: name}
	fmt.Fprintln(a.out, a.t().T("local.thread_opened", "Thread", id, "Channel", parentID, "Name", name))
	return id, nil
}

// ArchiveThread archives a thread: it stays readable and reopens when
// someone posts in it.
func (a *Adapter) ArchiveThread(_ context.Context, threadID string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	t := a.threads[threadID]
	if t == nil {
		return fmt.Errorf("no thread %q", threadID)
	}
	t.archived = true
	fmt.Fprintf(a.out, "(thread #%s archived: %s)\n", threadID, t.name)
	return nil
}

// RemoveComponents takes the menu and buttons off a message, quietly, as
// Discord does.
func (a *Adapter) RemoveComponents(_ context.Context, channelID, messageID string) error {
	s, err := a.lookup(messageID)
	if err != nil {
		return err
	}
	a.mu.Lock()
	s.msg.Components = nil
	a.mu.Unlock()
	return nil
}

// EditReply has nothing to do in a terminal: replies here are never left
// unfinished across runs.
func (a *Adapter) EditReply(context.Context, string, bot.Message) (string, error) {
	return "", errors.New("the terminal has no interaction tokens")
}

func (a *Adapter) lookup(messageID string) (*shown, error) {
	run, num, _ := strings.Cut(messageID, ".")
	id, err := strconv.Atoi(num)
	a.mu.Lock()
	defer a.mu.Unlock()
	if run != a.run || err != nil || id < 1 || id > len(a.messages) {
		return nil, fmt.Errorf("no message %q in this run", messageID)
	}
	return a.messages[id-1], nil
}

// Edit replaces a message shown earlier.
func (a *Adapter) Edit(_ context.Context, channelID, messageID string, m bot.Message) error {
	s, err := a.lookup(messageID)
	if err != nil {
		return err
	}
	a.replace(s, m, s.visible)
	return nil
}
