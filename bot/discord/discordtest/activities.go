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
// refused.
func (s *Server) EnableActivities() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.activities.enabled = true
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
