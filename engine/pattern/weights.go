package pattern

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// Weights are the tables of every stage, in hundredths of a disc.
type Weights struct {
	stage [Stages][]int16
}

// NewWeights returns all-zero weights.
func NewWeights() *Weights {
	w := &Weights{}
	for s := range w.stage {
		w.stage[s] = make([]int16, StageSize)
	}
	return w
}

// Stage is the table of stage s, indexed by Indices' values. Writers must
// keep symmetric entries equal (see Canonical).
func (w *Weights) Stage(s int) []int16 { return w.stage[s] }

// Eval is the estimated final disc margin, in hundredths of a disc, of a
// position with p to move that is not over.
func (w *Weights) Eval(p, o uint64, mp, mo, empties int) int32 {
	var f [Features]uint32
	Indices(p, o, mp, mo, empties, &f)
	t := w.stage[Stage(empties)]
	s := int32(0)
	for _, i := range f {
		s += int32(t[i])
	}
	return s
}

// canon maps every stage index to the smallest index of its symmetry class:
// a pattern that maps onto itself (a line reversed, a corner mirrored in its
// diagonal) must score both readings alike.
var canon []uint32

func initCanonical() {
	canon = make([]uint32, StageSize)
	for k := Kind(0); k < numKinds; k++ {
		perm := selfSymmetry(k)
		for i := 0; i < kindSize[k]; i++ {
			j := i
			if perm != nil {
				j = permute(i, perm)
			}
			canon[Offset[k]+uint32(i)] = Offset[k] + uint32(min(i, j))
		}
	}
}

// selfSymmetry is the digit permutation that maps a kind's squares onto
// themselves under a symmetry of the board, or nil.
func selfSymmetry(k Kind) []int {
	reverse := func(n int) []int {
		p := make([]int, n)
		for i := range p {
			p[i] = n - 1 - i
		}
		return p
	}
	switch k {
	case Corner3x3:
		return []int{0, 3, 6, 1, 4, 7, 2, 5, 8}
	case EdgeX:
		return append(reverse(8), 9, 8)
	case Line2, Line3, Line4, Diag8:
		return reverse(8)
	case Diag7, Diag6, Diag5, Diag4:
		return reverse(8 - int(k-Diag8))
	}
	return nil
}

var pow3 = [...]int{1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683}

// permute moves digit d of base-3 number i to place perm[d].
func permute(i int, perm []int) int {
	j := 0
	for d := range perm {
		j += i % 3 * pow3[perm[d]]
		i /= 3
	}
	return j
}

// Canonical is the representative of index i's symmetry class. Training
// fits one weight per class and writes it to every member.
func Canonical(i uint32) uint32 { return canon[i] }

// The file format: magic, version, stage count, stage size, CRC-32 of the
// payload, then the payload deflated: for every stage the weight of each
// canonical index in order, little-endian int16.
const (
	magic   = "OTHW"
	version = 1
)

// Encode writes the weights in the file format.
func (w *Weights) Encode(out io.Writer) error {
	var raw bytes.Buffer
	for s := range w.stage {
		for i, v := range w.stage[s] {
			if canon[i] == uint32(i) {
				_ = binary.Write(&raw, binary.LittleEndian, v)
			}
		}
	}
	hdr := make([]byte, 0, 16)
	hdr = append(hdr, magic...)
	hdr = binary.LittleEndian.AppendUint16(hdr, version)
	hdr = binary.LittleEndian.AppendUint16(hdr, Stages)
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(StageSize))
	hdr = binary.LittleEndian.AppendUint32(hdr, crc32.ChecksumIEEE(raw.Bytes()))
	if _, err := out.Write(hdr); err != nil {
		return fmt.Errorf("writing weights: %w", err)
	}
	z, err := flate.NewWriter(out, flate.DefaultCompression)
	if err != nil {
		return err
	}
	if _, err := z.Write(raw.Bytes()); err != nil {
		return fmt.Errorf("writing weights: %w", err)
	}
	if err := z.Close(); err != nil {
		return fmt.Errorf("writing weights: %w", err)
	}
	return nil
}

// Decode reads weights written by Encode, refusing another layout, another
// version or a damaged payload.
func Decode(data []byte) (*Weights, error) {
	if len(data) < 16 || string(data[:4]) != magic {
		return nil, errors.New("pattern weights: not a weights file")
	}
	if v := binary.LittleEndian.Uint16(data[4:]); v != version {
		return nil, fmt.Errorf("pattern weights: version %d, this program reads version %d", v, version)
	}
	stages, size := binary.LittleEndian.Uint16(data[6:]), binary.LittleEndian.Uint32(data[8:])
	if stages != Stages || size != uint32(StageSize) {
		return nil, fmt.Errorf("pattern weights: %d stages of %d, this program has %d of %d", stages, size, Stages, StageSize)
	}
	n := 0
	for i := range canon {
		if canon[i] == uint32(i) {
			n++
		}
	}
	raw := make([]byte, 2*n*Stages)
	z := flate.NewReader(bytes.NewReader(data[16:]))
	if _, err := io.ReadFull(z, raw); err != nil {
		return nil, fmt.Errorf("pattern weights: payload: %w", err)
	}
	if extra, _ := z.Read(make([]byte, 1)); extra != 0 {
		return nil, errors.New("pattern weights: payload longer than its header says")
	}
	if crc32.ChecksumIEEE(raw) != binary.LittleEndian.Uint32(data[12:]) {
		return nil, errors.New("pattern weights: checksum mismatch")
	}
	w := NewWeights()
	at := 0
	for s := range w.stage {
		t := w.stage[s]
		for i := range t {
			if c := canon[i]; c == uint32(i) {
				t[i] = int16(binary.LittleEndian.Uint16(raw[at:]))
				at += 2
			} else {
				t[i] = t[c] // c < i: already read
			}
		}
	}
	return w, nil
}
