// Package game holds the rules of Othello (Reversi) on square boards of every
// even size from 4 to 26: positions, legal moves, flips, passes, the end of the
// game, notation, transcripts and the text formats boards are written in.
//
// Boards that fit in 64 squares (4x4, 6x6, 8x8) are kept as bitboards; larger
// ones on a plain grid. Both sit behind the same Position API, so callers
// never care which one they hold.
package game
