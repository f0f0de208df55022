package record

import "testing"

func TestPlainName(t *testing.T) {
	for in, want := range map[string]string{
		"alice":                    "alice",
		"\u202eevil\u202c":         "evil",
		"a\u2066b\u2069c\u200f":    "abc",
		"line\u2028two":            "line two",
		"アリス\u061c":                "アリス",
		"عمر":                      "عمر", // right-to-left letters stay: only the controls go
		"\u202d\u202a\u202b\u2067": "",
	} {
		if got := PlainName(in); got != want {
			t.Errorf("PlainName(%q) = %q, want %q", in, got, want)
		}
	}
}
