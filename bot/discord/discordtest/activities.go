package discordtest

// This file is an app's Activity as an interaction meets it: an answer of
// type 12 (LAUNCH_ACTIVITY) opens the app's Activity for the user where
// they acted. Discord documents it as "only available for apps with
// Activities enabled" and, like the message answers, not for autocomplete
// or a modal's submission; it creates no message.

// Launch is an Activity opened by an interaction's answer.
type Launch struct {
	User      User
	ChannelID string
}

type activityState struct {
	enabled  bool
	launches []Launch
}

// EnableActivities turns the app's Activities on, as the Developer
// Portal's Activities → Settings does; until then LAUNCH_ACTIVITY is
// refused. As Discord does ("Default Entry Point Command"), it creates
// the app's Entry Point, "launch", handled by Discord
// (DISCORD_LAUNCH_ACTIVITY), unless the app has one.
func (s *Server) EnableActivities() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.activities.enabled = true
	if !hasEntryPoint(s.commands[""]) {
		s.commands[""] = append(s.commands[""], map[string]any{"id": s.id(), "application_id": s.AppID, "type": entryPoint,
			"name": "launch", "description": "Launch an activity", "handler": discordLaunchesIt,
			"contexts": []any{0, 1, 2}, "integration_types": []any{0, 1}})
	}
}

// AppLauncher is a user opening the app from the App Launcher in a
// channel, which runs its Entry Point command: with the handler
// DISCORD_LAUNCH_ACTIVITY Discord launches the Activity itself (nil is
// returned); with APP_HANDLER the app receives the command as an
// interaction and must answer LAUNCH_ACTIVITY. Without an Entry Point the
// launcher has nothing to run (a violation).
func (s *Server) AppLauncher(u User, channel string) *Interaction {
	s.mu.Lock()
	var ep map[string]any
	for _, c := range s.commands[""] {
		if commandType(c) == entryPoint {
			ep = c
		}
	}
	if ep == nil || !s.activities.enabled {
		s.mu.Unlock()
		s.violation("the App Launcher has no Entry Point command to run")
		return nil
	}
	if int(num(ep["handler"])) == discordLaunchesIt {
		s.activities.launches = append(s.activities.launches, Launch{User: u, ChannelID: channel})
		s.mu.Unlock()
		return nil
	}
	data := map[string]any{"id": ep["id"], "name": ep["name"], "type": entryPoint}
	s.mu.Unlock()
	return s.newInteraction(2, u, channel, data, nil)
}

// Launches are the Activities opened so far, oldest first.
func (s *Server) Launches() []Launch {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Launch(nil), s.activities.launches...)
}

// launchActivity answers an interaction with its app's Activity; the
// caller holds s.mu.
func (s *Server) launchActivity(ia *Interaction) *apiError {
	switch {
	case !s.activities.enabled:
		return &apiError{400, 50035, "Invalid Form Body: LAUNCH_ACTIVITY needs the application's Activities enabled"}
	case ia.Kind != 2 && ia.Kind != 3:
		return &apiError{400, 40043, "Interaction response type not allowed for this interaction"}
	}
	s.activities.launches = append(s.activities.launches, Launch{User: ia.User, ChannelID: ia.ChannelID})
	ia.resolved = true
	return nil
}
