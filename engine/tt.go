package engine

import (
	"math/bits"
	"sync/atomic"
	"unsafe"
)

// Bounds stored with a transposition-table score.
const (
	boundUpper = 1 // score is at most this (fail low)
	boundLower = 2 // score is at least this (fail high)
	boundExact = boundUpper | boundLower
)

// ttEntry is a stored entry's data word: the score, the depth searched,
// the bound, the best move and the generation, packed so that the table
// reads and writes whole words.
type ttEntry uint64

func (e ttEntry) score() int32 { return int32(uint32(e)) }
func (e ttEntry) depth() int8  { return int8(e >> 32) }
func (e ttEntry) bound() uint8 { return uint8(e >> 40) }
func (e ttEntry) move() int8   { return int8(e >> 48) } // best bit index, -1 for none

// slot is one stored entry in three words, written and read atomically so
// that the searchers of a parallel search can share the table without
// locks. The position's words are stored XORed with the data word (Hyatt's
// lockless hashing): an entry torn by two writers at once no longer
// verifies, so it reads as empty rather than as a wrong score.
type slot struct{ p, o, data uint64 }

// ttable is a fixed-size, always-replace hash table of searched positions,
// verified by the full position so a collision can only cost a lookup.
type ttable struct {
	entries []slot
	shift   uint
	gen     uint8 // entries of other generations count as empty
	// shared is set while helpers search with the table: stores are
	// atomic then (alone, plain stores are cheaper: an atomic store is a
	// locked exchange on x86).
	shared bool
}

func newTable(log2 uint) *ttable {
	return &ttable{entries: make([]slot, 1<<log2), shift: 64 - log2}
}

// bytes is the table's memory.
func (t *ttable) bytes() int64 { return int64(len(t.entries)) * int64(unsafe.Sizeof(slot{})) }

func (t *ttable) slot(p, o uint64) *slot {
	h := bits.RotateLeft64(p*0x9E3779B97F4A7C15, 29) ^ o*0xC2B2AE3D27D4EB4F
	return &t.entries[(h*0xFF51AFD7ED558CCD)>>t.shift]
}

func pack(score int32, depth int, bound uint8, move int, gen uint8) uint64 {
	return uint64(uint32(score)) | uint64(uint8(depth))<<32 | uint64(bound)<<40 | uint64(uint8(move))<<48 | uint64(gen)<<56
}

func (t *ttable) probe(p, o uint64) (ttEntry, bool) {
	s := t.slot(p, o)
	d := atomic.LoadUint64(&s.data)
	// A generation of 0 is never current, so an empty slot does not match.
	return ttEntry(d), atomic.LoadUint64(&s.p)^d == p && atomic.LoadUint64(&s.o)^d == o && uint8(d>>56) == t.gen
}

func (t *ttable) store(p, o uint64, depth int, score int32, bound uint8, move int) {
	s := t.slot(p, o)
	d := pack(score, depth, bound, move, t.gen)
	if t.shared {
		atomic.StoreUint64(&s.data, d)
		atomic.StoreUint64(&s.p, p^d)
		atomic.StoreUint64(&s.o, o^d)
		return
	}
	s.data, s.p, s.o = d, p^d, o^d
}

// clear empties the table for a new search. Starting a new generation
// costs nothing; the memory is wiped only when the generations wrap, so
// short searches do not pay for zeroing tens of megabytes. It is called
// before a search's helpers start, never while they run.
func (t *ttable) clear() {
	t.gen++
	if t.gen == 0 {
		clear(t.entries)
		t.gen = 1
	}
}
