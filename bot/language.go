package bot

// This file decides who reads which language: only-you replies follow the
// reader (their own choice, else their Discord language); what everyone in
// a channel sees follows the server (its choice, else its Discord
// language, else English); /settings language sets either.

import (
	"context"
	"strings"

	"othello-bot/catalog"
	"othello-bot/place"
)

// PermManageGuild is Discord's Manage Server permission: setting the
// server's language needs it.
const PermManageGuild int64 = 1 << 5

// readers are the printers of one request: me for the user alone, pub for
// the channel.
type readers struct{ me, pub *catalog.Printer }

// Me writes for the user alone.
func (r Request) Me() *catalog.Printer {
	if r.tr.me == nil {
		return catalog.For(catalog.FromLocale(r.Locale))
	}
	return r.tr.me
}

// Pub writes for everyone in the channel.
func (r Request) Pub() *catalog.Printer {
	if r.tr.pub == nil {
		if r.GuildID == "" {
			return r.Me()
		}
		return catalog.For(catalog.FromLocale(r.GuildLocale))
	}
	return r.tr.pub
}

// chooseLanguages decides a request's two languages from the stored
// choices and the interaction's locales, and remembers the server's
// Discord language for the posts no interaction brings (timers).
func (s *Service) chooseLanguages(ctx context.Context, req Request) readers {
	l, err := s.prefs.Languages(ctx, req.User.ID, req.GuildID)
	if err != nil {
		s.Logger(ctx).Warn("reading language settings", "err", err)
	}
	me := firstLang(l.User, req.Locale)
	pub := me
	if req.GuildID != "" {
		pub = firstLang(l.Guild, req.GuildLocale, l.GuildLocale)
		if req.GuildLocale != "" && req.GuildLocale != l.GuildLocale && err == nil {
			if err := s.prefs.SetGuildLocale(ctx, req.GuildID, req.GuildLocale, s.clock.Now()); err != nil {
				s.Logger(ctx).Warn("remembering the server's Discord language", "guild", req.GuildID, "err", err)
			}
		}
	}
	return readers{me: catalog.For(me), pub: catalog.For(pub)}
}

// firstLang is the first of the locales the catalog speaks, else English.
func firstLang(locales ...string) catalog.Lang {
	for _, l := range locales {
		if lang, ok := catalog.Match(l); ok {
			return lang
		}
	}
	return catalog.English
}

// PublicPrinter writes what a server's channels see when no interaction
// says more: timers' posts, a restart's.
func (s *Service) PublicPrinter(ctx context.Context, guildID string) *catalog.Printer {
	if guildID == "" {
		return catalog.For(catalog.English)
	}
	l, err := s.prefs.Languages(ctx, "", guildID)
	if err != nil {
		s.Logger(ctx).Warn("reading the server's language", "guild", guildID, "err", err)
	}
	return catalog.For(firstLang(l.Guild, l.GuildLocale))
}

// settings shows or changes a member's language or the server's.
func (s *Service) settings(ctx context.Context, req Request) (Response, error) {
	for _, sec := range s.settingsSections {
		if resp, ok, err := sec.Settings(ctx, req); ok || err != nil {
			return resp, err
		}
	}
	value := strings.ToLower(strings.TrimSpace(req.Options["language"]))
	scope := strings.ToLower(strings.TrimSpace(req.Options["scope"]))
	me := req.Me()
	if scope != "" && scope != "me" && scope != "server" {
		return Refuse(me.T("settings.bad_scope")), nil
	}
	var lang catalog.Lang
	switch value {
	case "":
		return s.showSettings(ctx, req)
	case "discord", "auto":
	default:
		l, ok := catalog.Match(value)
		if !ok {
			return Refuse(me.T("settings.bad_language")), nil
		}
		lang = l
	}
	if scope == "server" {
		if req.GuildID == "" {
			return Refuse(me.T("settings.no_server")), nil
		}
		if req.MemberPermissions&PermManageGuild == 0 {
			return Refuse(me.T("settings.need_manage_server")), nil
		}
		if err := s.prefs.SetGuildLanguage(ctx, req.GuildID, string(lang), s.clock.Now()); err != nil {
			return Response{}, err
		}
		s.Logger(ctx).Info("server language", "guild", req.GuildID, "language", lang)
		shown := catalog.For(firstLang(string(lang), req.GuildLocale))
		if lang == "" {
			return Refuse(shown.T("settings.server_follows_discord", "Language", shown.T("language.name"))), nil
		}
		return Refuse(shown.T("settings.server_set", "Language", shown.T("language.name"))), nil
	}
	if err := s.prefs.SetUserLanguage(ctx, req.User, string(lang), s.clock.Now()); err != nil {
		return Response{}, err
	}
	shown := catalog.For(firstLang(string(lang), req.Locale))
	if lang == "" {
		return Refuse(shown.T("settings.me_follows_discord", "Language", shown.T("language.name"))), nil
	}
	return Refuse(shown.T("settings.me_set", "Language", shown.T("language.name"))), nil
}

func (s *Service) showSettings(ctx context.Context, req Request) (Response, error) {
	me := req.Me()
	l, err := s.prefs.Languages(ctx, req.User.ID, req.GuildID)
	if err != nil {
		return Response{}, err
	}
	mine := me.T("settings.follows_discord", "Language", catalog.For(firstLang(req.Locale)).T("language.name"))
	if lang, ok := catalog.Match(l.User); ok {
		mine = catalog.For(lang).T("language.name")
	}
	lines := []string{me.T("settings.show_mine", "Language", mine)}
	if req.GuildID != "" {
		server := me.T("settings.follows_discord", "Language", catalog.For(firstLang(req.GuildLocale, l.GuildLocale)).T("language.name"))
		if lang, ok := catalog.Match(l.Guild); ok {
			server = catalog.For(lang).T("language.name")
		}
		lines = append(lines, me.T("settings.show_server", "Language", server))
	}
	for _, sec := range s.settingsSections {
		more, err := sec.SettingsLines(ctx, req)
		if err != nil {
			return Response{}, err
		}
		lines = append(lines, more...)
	}
	lines = append(lines, me.T("settings.how"))
	return Refuse(strings.Join(lines, "\n")), nil
}

// ServerSetting refuses a server's setting where it cannot be made:
// outside a server, where the bot is no member (it would act there on its
// own), or for a member without Manage Server, told in the capability's
// own words (needKey). ok is false with the refusal.
func ServerSetting(req Request, needKey string) (refusal Response, ok bool) {
	me := req.Me()
	switch {
	case req.GuildID == "":
		return Refuse(me.T("settings.no_server")), false
	case !req.Place.Allows(place.BotMember):
		return Refuse(me.T("error.needs_bot")), false
	case req.MemberPermissions&PermManageGuild == 0:
		return Refuse(me.T(needKey)), false
	}
	return Response{}, true
}
