//go:build !purego

#include "textflag.h"

// Lanes of the move generator: shifts 1, 8, 9, 7 (horizontal, vertical and
// the two diagonals), the opponent's discs masked off the a- and h-files
// where a shift would wrap around a row, and the doubled shifts.
DATA shifts<>+0(SB)/8, $1
DATA shifts<>+8(SB)/8, $8
DATA shifts<>+16(SB)/8, $9
DATA shifts<>+24(SB)/8, $7
GLOBL shifts<>(SB), RODATA|NOPTR, $32

DATA shifts2<>+0(SB)/8, $2
DATA shifts2<>+8(SB)/8, $16
DATA shifts2<>+16(SB)/8, $18
DATA shifts2<>+24(SB)/8, $14
GLOBL shifts2<>(SB), RODATA|NOPTR, $32

DATA edges<>+0(SB)/8, $0x7e7e7e7e7e7e7e7e
DATA edges<>+8(SB)/8, $0xffffffffffffffff
DATA edges<>+16(SB)/8, $0x7e7e7e7e7e7e7e7e
DATA edges<>+24(SB)/8, $0x7e7e7e7e7e7e7e7e
GLOBL edges<>(SB), RODATA|NOPTR, $32

// flipUp ORs into BX the discs of o (R9) that p (R8) flips along the ray at
// off(DI), a ray towards higher bits: the lowest square not o's ends it.
// R13 holds zero.
#define FLIPUP(off) \
	MOVQ    off(DI), DX \
	ANDNQ   DX, R9, SI \
	BLSIQ   SI, SI \
	LEAQ    -1(SI), R12 \
	ANDQ    DX, R12 \
	TESTQ   SI, R8 \
	CMOVQEQ R13, R12 \
	ORQ     R12, BX

// flipDown is flipUp for a ray towards lower bits, ended by the highest
// square not o's. R11 holds 1<<63.
#define FLIPDOWN(off) \
	MOVQ    off(DI), DX \
	ANDNQ   DX, R9, SI \
	LZCNTQ  SI, R12 \
	SHRXQ   R12, R11, R12 \
	ANDQ    SI, R12 \
	TESTQ   R12, R8 \
	CMOVQEQ R13, R12 \
	ADDQ    R12, R12 \
	NEGQ    R12 \
	ANDQ    DX, R12 \
	ORQ     R12, BX

// FLIPS puts in BX the discs of o (R9) that p (R8) flips by a move at the
// square whose eight rays DI points at (R11: 1<<63, R13: zero).
#define FLIPS \
	XORQ BX, BX \
	FLIPUP(0) \
	FLIPUP(8) \
	FLIPUP(16) \
	FLIPUP(24) \
	FLIPDOWN(32) \
	FLIPDOWN(40) \
	FLIPDOWN(48) \
	FLIPDOWN(56)

// DOUBLESTEP extends the runs in Y2 (towards higher bits) and Y3 (lower)
// by two squares at once through the pairs of discs in Y5 and Y6.
#define DOUBLESTEP \
	VPSLLVQ Y13, Y2, Y4 \
	VPAND   Y5, Y4, Y4 \
	VPOR    Y4, Y2, Y2 \
	VPSRLVQ Y13, Y3, Y4 \
	VPAND   Y6, Y4, Y4 \
	VPOR    Y4, Y3, Y3

// MOVESOF puts in DX the squares from which SI (the mover) would outflank
// discs of R12 (the opponent), occupied or not: in each lane of Y2
// and Y3, runs of R12's discs from SI's filled in one direction each way by
// doubling shifts (Y12-Y14 hold edges, shifts and shifts2). Y0-Y6 and
// X0-X3 are clobbered.
#define MOVESOF \
	VMOVQ        SI, X0 \
	VPBROADCASTQ X0, Y0 \
	VMOVQ        R12, X1 \
	VPBROADCASTQ X1, Y1 \
	VPAND        Y12, Y1, Y1 \
	VPSLLVQ      Y14, Y0, Y2 \
	VPAND        Y1, Y2, Y2 \
	VPSRLVQ      Y14, Y0, Y3 \
	VPAND        Y1, Y3, Y3 \
	VPSLLVQ      Y14, Y2, Y4 \
	VPAND        Y1, Y4, Y4 \
	VPOR         Y4, Y2, Y2 \
	VPSRLVQ      Y14, Y3, Y4 \
	VPAND        Y1, Y4, Y4 \
	VPOR         Y4, Y3, Y3 \
	VPSLLVQ      Y14, Y1, Y5 \
	VPAND        Y1, Y5, Y5 \
	VPSRLVQ      Y14, Y5, Y6 \
	DOUBLESTEP \
	DOUBLESTEP \
	VPSLLVQ      Y14, Y2, Y2 \
	VPSRLVQ      Y14, Y3, Y3 \
	VPOR         Y3, Y2, Y2 \
	VEXTRACTI128 $1, Y2, X3 \
	VPOR         X3, X2, X2 \
	VPUNPCKHQDQ  X2, X2, X3 \
	VPOR         X3, X2, X2 \
	VMOVQ        X2, DX


// func countRepliesAVX2(rays *[64][8]uint64, p, o, moves, mask uint64) uint64
TEXT ·countRepliesAVX2(SB), NOSPLIT, $0-48
	MOVQ    p+8(FP), R8
	MOVQ    o+16(FP), R9
	MOVQ    moves+24(FP), R10
	MOVQ    $0x8000000000000000, R11
	XORQ    R13, R13
	XORQ    AX, AX
	VMOVDQU shifts<>(SB), Y14
	VMOVDQU shifts2<>(SB), Y13
	VMOVDQU edges<>(SB), Y12
	TESTQ   R10, R10
	JZ      done

loop:
	TZCNTQ R10, CX
	BLSRQ  R10, R10
	MOVQ   CX, DI
	SHLQ   $6, DI
	ADDQ   rays+0(FP), DI
	FLIPS

	// The opponent moves next: SI is its discs, R12 the mover's.
	MOVQ R9, SI
	XORQ BX, SI
	MOVQ R8, R12
	XORQ BX, R12
	BTSQ CX, R12

	// Its moves.
	MOVESOF

	// Only empty squares on the board; then n += count, or 1 for none.
	ORQ    SI, R12
	ANDNQ  DX, R12, DX
	ANDQ   mask+32(FP), DX
	POPCNTQ DX, DX
	LEAQ   -1(DX), SI
	SHRQ   $63, SI
	ADDQ   SI, AX
	ADDQ   DX, AX
	TESTQ  R10, R10
	JNZ    loop

done:
	VZEROUPPER
	MOVQ AX, ret+40(FP)
	RET

// func flips(ray *[8]uint64, p, o uint64) uint64
//
// Flips in four directions at once in each of two 256-bit registers: the
// rays towards higher bits end at their lowest square not o's (x & -x),
// those towards lower bits at their highest, found by smearing it down.
// Twice the scalar FLIPS' rate. Without AVX2 it goes on in the portable
// flipsGo, whose arguments lie where this function's do.
TEXT ·flips(SB), NOSPLIT, $0-32
	CMPB         ·hasAVX2(SB), $0
	JEQ          portable
	MOVQ         ray+0(FP), DI
	VPBROADCASTQ p+8(FP), Y1
	VPBROADCASTQ o+16(FP), Y0
	VPXOR        Y15, Y15, Y15
	VPCMPEQQ     Y5, Y5, Y5
	VMOVDQU      0(DI), Y2
	VMOVDQU      32(DI), Y6
	VPANDN       Y2, Y0, Y3
	VPANDN       Y6, Y0, Y7
	VPSUBQ       Y3, Y15, Y4
	VPSRLQ       $1, Y7, Y8
	VPAND        Y4, Y3, Y3
	VPOR         Y8, Y7, Y7
	VPAND        Y1, Y3, Y4
	VPSRLQ       $2, Y7, Y8
	VPADDQ       Y5, Y3, Y3
	VPOR         Y8, Y7, Y7
	VPCMPEQQ     Y15, Y4, Y4
	VPSRLQ       $4, Y7, Y8
	VPAND        Y2, Y3, Y3
	VPOR         Y8, Y7, Y7
	VPANDN       Y3, Y4, Y3
	VPSRLQ       $8, Y7, Y8
	VPOR         Y8, Y7, Y7
	VPSRLQ       $16, Y7, Y8
	VPOR         Y8, Y7, Y7
	VPSRLQ       $32, Y7, Y8
	VPOR         Y8, Y7, Y7
	VPSRLQ       $1, Y7, Y8
	VPANDN       Y7, Y8, Y8
	VPAND        Y1, Y8, Y8
	VPCMPEQQ     Y15, Y8, Y8
	VPANDN       Y6, Y7, Y7
	VPANDN       Y7, Y8, Y7
	VPOR         Y7, Y3, Y3
	VEXTRACTI128 $1, Y3, X4
	VPOR         X4, X3, X3
	VPSHUFD      $0x4E, X3, X4
	VPOR         X4, X3, X3
	VMOVQ        X3, AX
	VZEROUPPER
	MOVQ         AX, ret+24(FP)
	RET

portable:
	JMP ·flipsGo(SB)

// func moves(p, o, mask uint64) uint64
//
// Moves in the four directions at once; without AVX2 it goes on in the
// portable movesGo.
TEXT ·moves(SB), NOSPLIT, $0-32
	CMPB         ·hasAVX2(SB), $0
	JEQ          portablemoves
	VMOVDQU      shifts<>(SB), Y14
	VMOVDQU      shifts2<>(SB), Y13
	VMOVDQU      edges<>(SB), Y12
	MOVQ         p+0(FP), SI
	MOVQ         o+8(FP), R12
	MOVESOF
	ORQ          SI, R12
	ANDNQ        DX, R12, DX
	ANDQ         mask+16(FP), DX
	VZEROUPPER
	MOVQ         DX, ret+24(FP)
	RET

portablemoves:
	JMP ·movesGo(SB)

