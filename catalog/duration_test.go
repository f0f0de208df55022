package catalog

import (
	"strings"
	"testing"
	"time"
)

func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration][2]string{
		10 * time.Minute:                  {"10 minutes", "10分"},
		24 * time.Hour:                    {"1 day", "1日"},
		90 * time.Minute:                  {"1 hour 30 minutes", "1時間30分"},
		30*time.Minute + time.Millisecond: {"30 minutes 1 second", "30分1秒"},
		45 * time.Second:                  {"45 seconds", "45秒"},
		1500 * time.Millisecond:           {"2 seconds", "2秒"},
		49*time.Hour + 30*time.Second:     {"2 days 2 hours", "2日2時間"},
		time.Hour:                         {"1 hour", "1時間"},
		59*time.Minute + 59*time.Second:   {"59 minutes 59 seconds", "59分59秒"},
		0:                                 {"0 seconds", "0秒"},
	} {
		for i, l := range []Lang{English, Japanese} {
			if got := For(l).Duration(d); got != want[i] {
				t.Errorf("%s Duration(%v) = %q, want %q", l, d, got, want[i])
			}
		}
	}
}

func TestMatch(t *testing.T) {
	for in, want := range map[string]Lang{"ja": Japanese, "JA-jp": Japanese, "en-US": English, "en-GB": English, "en": English,
		"fr": English, "": English, "zh-CN": English, "ja_JP": Japanese} {
		if got := FromLocale(in); got != want {
			t.Errorf("FromLocale(%q) = %s, want %s", in, got, want)
		}
	}
	if _, ok := Match("de"); ok {
		t.Error("Match(de) is supported")
	}
	if For("xx").Lang() != English {
		t.Error("For(unsupported) is not English")
	}
}

// A browser's Accept-Language picks the most preferred language the bot
// speaks; nonsense and the unspoken fall back to English.
func TestFromAcceptLanguage(t *testing.T) {
	for in, want := range map[string]Lang{"ja": Japanese, "ja-JP,ja;q=0.9,en;q=0.8": Japanese, "en-US,en;q=0.9,ja;q=0.8": English,
		"fr-FR,ja;q=0.5": Japanese, "fr,de": English, "": English, "en;q=0.1,ja;q=0.9": Japanese, ";;;q=x\x00": English,
		strings.Repeat("ja,", 5000): Japanese} {
		if got := FromAcceptLanguage(in); got != want {
			t.Errorf("FromAcceptLanguage(%.40q) = %s, want %s", in, got, want)
		}
	}
}
