package pattern

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// symmetries are the 8 maps of the board onto itself, on (row, col).
var symmetries = []func(r, c int) (int, int){
	func(r, c int) (int, int) { return r, c },
	func(r, c int) (int, int) { return r, 7 - c },
	func(r, c int) (int, int) { return 7 - r, c },
	func(r, c int) (int, int) { return 7 - r, 7 - c },
	func(r, c int) (int, int) { return c, r },
	func(r, c int) (int, int) { return c, 7 - r },
	func(r, c int) (int, int) { return 7 - c, r },
	func(r, c int) (int, int) { return 7 - c, 7 - r },
}

// baseSquares lists each pattern's squares as (row, col) in digit order,
// written out independently of the fast code in Indices.
func baseSquares(k Kind) [][2]int {
	var sq [][2]int
	switch k {
	case Corner3x3:
		for r := 0; r < 3; r++ {
			for c := 0; c < 3; c++ {
				sq = append(sq, [2]int{r, c})
			}
		}
	case Corner2x5:
		for r := 0; r < 2; r++ {
			for c := 0; c < 5; c++ {
				sq = append(sq, [2]int{r, c})
			}
		}
	case EdgeX:
		for c := 0; c < 8; c++ {
			sq = append(sq, [2]int{0, c})
		}
		sq = append(sq, [2]int{1, 1}, [2]int{1, 6})
	case Line2, Line3, Line4:
		for c := 0; c < 8; c++ {
			sq = append(sq, [2]int{int(k-Line2) + 1, c})
		}
	case Diag8, Diag7, Diag6, Diag5, Diag4:
		d := int(k - Diag8)
		for j := 0; j+d < 8; j++ {
			sq = append(sq, [2]int{j, j + d})
		}
	}
	return sq
}

// slowIndices computes, square by square, the canonical index of every
// placement of every pattern kind.
func slowIndices(p, o uint64) map[Kind][]uint32 {
	out := map[Kind][]uint32{}
	for k := Corner3x3; k <= Diag4; k++ {
		seen := map[uint64]bool{}
		for _, g := range symmetries {
			var set uint64
			idx, pow := 0, 1
			for _, s := range baseSquares(k) {
				r, c := g(s[0], s[1])
				bit := uint64(1) << (r*8 + c)
				set |= bit
				switch {
				case p&bit != 0:
					idx += pow
				case o&bit != 0:
					idx += 2 * pow
				}
				pow *= 3
			}
			if seen[set] {
				continue
			}
			seen[set] = true
			out[k] = append(out[k], Canonical(Offset[k]+uint32(idx)))
		}
		slices.Sort(out[k])
	}
	return out
}

func randomPosition(rng *rand.Rand) (p, o uint64) {
	for sq := 0; sq < 64; sq++ {
		switch rng.IntN(3) {
		case 1:
			p |= 1 << sq
		case 2:
			o |= 1 << sq
		}
	}
	return p, o
}

func TestIndicesMatchSquareBySquare(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 2000; n++ {
		p, o := randomPosition(rng)
		var f [Features]uint32
		Indices(p, o, 7, 9, 30, &f)
		fast := map[Kind][]uint32{}
		for i, v := range f {
			k := KindOf(i)
			if v < Offset[k] || int(v-Offset[k]) >= kindSize[k] {
				t.Fatalf("feature %d (kind %d) index %d outside its table", i, k, v)
			}
			if k <= Diag4 {
				fast[k] = append(fast[k], Canonical(v))
			}
		}
		want := slowIndices(p, o)
		for k := Corner3x3; k <= Diag4; k++ {
			slices.Sort(fast[k])
			if !slices.Equal(fast[k], want[k]) {
				t.Fatalf("position %x/%x kind %d: Indices %v, square by square %v", p, o, k, fast[k], want[k])
			}
		}
		if f[46] != Offset[MobilityMe]+7 || f[47] != Offset[MobilityThem]+9 || f[48] != Offset[EmptiesInStage]+30%StageWidth {
			t.Fatalf("linear features %v", f[46:])
		}
	}
}

// transform applies a board symmetry to a bitboard.
func transform(x uint64, g func(r, c int) (int, int)) uint64 {
	var y uint64
	for sq := 0; sq < 64; sq++ {
		if x>>sq&1 != 0 {
			r, c := g(sq/8, sq%8)
			y |= 1 << (r*8 + c)
		}
	}
	return y
}

// randomWeights fills every symmetry class with one random value.
func randomWeights(rng *rand.Rand) *Weights {
	w := NewWeights()
	for s := 0; s < Stages; s++ {
		t := w.Stage(s)
		for i := range t {
			t[i] = t[Canonical(uint32(i))]
			if Canonical(uint32(i)) == uint32(i) {
				t[i] = int16(rng.IntN(2001) - 1000)
			}
		}
	}
	return w
}

func TestEvalIsSymmetric(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	w := randomWeights(rng)
	for n := 0; n < 500; n++ {
		p, o := randomPosition(rng)
		empties := rng.IntN(61)
		want := w.Eval(p, o, 5, 6, empties)
		for gi, g := range symmetries {
			if got := w.Eval(transform(p, g), transform(o, g), 5, 6, empties); got != want {
				t.Fatalf("symmetry %d changes the value of %x/%x: %d, not %d", gi, p, o, got, want)
			}
		}
	}
}

func TestEncodeDecode(t *testing.T) {
	w := randomWeights(rand.New(rand.NewPCG(5, 6)))
	var buf bytes.Buffer
	if err := w.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	got, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	for s := 0; s < Stages; s++ {
		if !slices.Equal(got.Stage(s), w.Stage(s)) {
			t.Fatalf("stage %d differs after a round trip", s)
		}
	}
	bad := func(name string, mutate func([]byte) []byte) {
		d := mutate(slices.Clone(data))
		if _, err := Decode(d); err == nil {
			t.Errorf("%s: decoded without error", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
	bad("magic", func(d []byte) []byte { d[0] = 'X'; return d })
	bad("version", func(d []byte) []byte { d[4] = 9; return d })
	bad("layout", func(d []byte) []byte { d[8]++; return d })
	bad("checksum", func(d []byte) []byte { d[12] ^= 1; return d })
	bad("truncated", func(d []byte) []byte { return d[:len(d)/2] })
	bad("empty", func(d []byte) []byte { return nil })
}

func BenchmarkEval(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	w := randomWeights(rng)
	var ps, os [256]uint64
	for i := range ps {
		ps[i], os[i] = randomPosition(rng)
	}
	b.ResetTimer()
	s := int32(0)
	for i := 0; i < b.N; i++ {
		s += w.Eval(ps[i&255], os[i&255], 8, 7, 30)
	}
	_ = s
}
