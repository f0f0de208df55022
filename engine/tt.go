package engine

import "math/bits"

// Bounds stored with a transposition-table score.
const (
	boundUpper = 1 // score is at most this (fail low)
	boundLower = 2 // score is at least this (fail high)
	boundExact = boundUpper | boundLower
)

type ttEntry struct {
	p, o  uint64
	score int32
	depth int8
	bound uint8
	move  int8 // best bit index, -1 for none
	gen   uint8
}

// ttable is a fixed-size, always-replace hash table of searched positions,
// verified by the full position so a collision can only cost a lookup.
type ttable struct {
	entries []ttEntry
	shift   uint
	gen     uint8 // entries of other generations count as empty
}

func newTable(log2 uint) *ttable {
	return &ttable{entries: make([]ttEntry, 1<<log2), shift: 64 - log2}
}

func (t *ttable) slot(p, o uint64) *ttEntry {
	h := bits.RotateLeft64(p*0x9E3779B97F4A7C15, 29) ^ o*0xC2B2AE3D27D4EB4F
	return &t.entries[(h*0xFF51AFD7ED558CCD)>>t.shift]
}

func (t *ttable) probe(p, o uint64) (ttEntry, bool) {
	e := t.slot(p, o)
	if e.p == p && e.o == o && e.gen == t.gen && e.bound != 0 {
		return *e, true
	}
	return ttEntry{}, false
}

func (t *ttable) store(p, o uint64, depth int, score int32, bound uint8, move int) {
	*t.slot(p, o) = ttEntry{p: p, o: o, score: score, depth: int8(depth), bound: bound, move: int8(move), gen: t.gen}
}

// clear empties the table for a new search. Starting a new generation
// costs nothing; the memory is wiped only when the generations wrap, so
// short searches do not pay for zeroing tens of megabytes.
func (t *ttable) clear() {
	t.gen++
	if t.gen == 0 {
		clear(t.entries)
		t.gen = 1
	}
}
