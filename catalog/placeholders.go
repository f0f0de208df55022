package catalog

// This file is the template parser the printers give go-i18n. Nearly
// every message is text with named placeholders ("{{.Side}} played
// {{.Square}}"), and a move writes dozens of them; text/template executes
// each through reflection (3.5% of a move's CPU in the bot's profile).
// A template of placeholders alone is kept as its parts and written by
// appending; any other template, and any value other than a string or a
// whole number, goes through text/template exactly as go-i18n's own
// parser would, so the output is the same either way (the package's
// tests compare every message in every language).

import (
	"strconv"
	"strings"
	"text/template/parse"

	i18ntemplate "github.com/nicksnyder/go-i18n/v2/i18n/template"
)

type placeholderParser struct {
	text i18ntemplate.TextParser // go-i18n's own: the reference and the fallback
}

func (p *placeholderParser) Cacheable() bool { return true }

func (p *placeholderParser) Parse(src, leftDelim, rightDelim string) (i18ntemplate.ParsedTemplate, error) {
	full, err := p.text.Parse(src, leftDelim, rightDelim)
	if err != nil {
		return nil, err
	}
	if leftDelim == "" {
		leftDelim = "{{"
	}
	if rightDelim == "" {
		rightDelim = "}}"
	}
	if !strings.Contains(src, leftDelim) {
		return full, nil // go-i18n's parser keeps these as they are
	}
	trees, err := parse.Parse("m", src, leftDelim, rightDelim)
	if err != nil {
		return full, nil
	}
	t := &fieldTemplate{full: full}
	for _, n := range trees["m"].Root.Nodes {
		switch n := n.(type) {
		case *parse.TextNode:
			t.parts = append(t.parts, part{text: string(n.Text)})
		case *parse.ActionNode:
			name, ok := fieldOnly(n)
			if !ok {
				return full, nil
			}
			t.parts = append(t.parts, part{field: name})
		default:
			return full, nil
		}
	}
	return t, nil
}

// fieldOnly is the name of an action that is a field and nothing else:
// {{.Name}}.
func fieldOnly(n *parse.ActionNode) (string, bool) {
	if len(n.Pipe.Decl) > 0 || len(n.Pipe.Cmds) != 1 || len(n.Pipe.Cmds[0].Args) != 1 {
		return "", false
	}
	f, ok := n.Pipe.Cmds[0].Args[0].(*parse.FieldNode)
	if !ok || len(f.Ident) != 1 {
		return "", false
	}
	return f.Ident[0], true
}

// fieldTemplate is a template of text and fields.
type fieldTemplate struct {
	parts []part
	full  i18ntemplate.ParsedTemplate
}

type part struct {
	text  string
	field string // "" for text
}

func (t *fieldTemplate) Execute(data any) (string, error) {
	values, ok := data.(map[string]any)
	if !ok {
		return t.full.Execute(data)
	}
	var b strings.Builder
	for _, p := range t.parts {
		if p.field == "" {
			b.WriteString(p.text)
			continue
		}
		switch v := values[p.field].(type) {
		case string:
			b.WriteString(v)
		case int:
			b.WriteString(strconv.Itoa(v))
		case int64:
			b.WriteString(strconv.FormatInt(v, 10))
		default: // missing, or printed by text/template's rules
			return t.full.Execute(data)
		}
	}
	return b.String(), nil
}
