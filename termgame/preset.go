package termgame

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"othello-bot/game"
)

// Preset is the --config file of `othello-bot play`: a starting board, the
// player's letter and moves to play for each side while they last.
//
//	{"boardPreset": {"playerLetter": "X", "board": [" ", "X", "O", ...]},
//	 "scriptedMoves": {"player": ["C4"], "computer": ["E3"]}}
//
// Black (X) moves first from the preset board; a side without a legal move
// passes.
type Preset struct {
	BoardPreset struct {
		PlayerLetter string   `json:"playerLetter"`
		Board        []string `json:"board"`
	} `json:"boardPreset"`
	ScriptedMoves struct {
		Player   []string `json:"player"`
		Computer []string `json:"computer"`
	} `json:"scriptedMoves"`

	start  game.Position
	player game.Color
}

// LoadPreset reads and checks a preset file.
func LoadPreset(path string) (*Preset, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p, err := ParsePreset(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// ParsePreset reads a preset from JSON. Unknown keys are refused so a typo
// does not go unnoticed.
func ParsePreset(data []byte) (*Preset, error) {
	var p Preset
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("not a valid preset: %w", err)
	}
	switch p.BoardPreset.PlayerLetter {
	case "X":
		p.player = game.Black
	case "O":
		p.player = game.White
	default:
		return nil, fmt.Errorf("boardPreset.playerLetter must be \"X\" or \"O\", not %q", p.BoardPreset.PlayerLetter)
	}
	start, err := game.ParseCellList(p.BoardPreset.Board, game.Black)
	if err != nil {
		return nil, fmt.Errorf("boardPreset.board: %w", err)
	}
	p.start = start
	return &p, nil
}
