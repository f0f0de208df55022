// Package lineio reads input one line at a time with a bound on a line's
// length: an over-long line is skipped and reported, and reading goes on,
// so one bad line never ends a whole terminal or GTP session.
package lineio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// DefaultMax is long enough for any command the programs take (the
// longest is a 26x26 transcript, under 2,000 bytes).
const DefaultMax = 64 << 10

// TooLongError reports a line over the limit; it has been skipped.
type TooLongError struct{ Max int }

func (e *TooLongError) Error() string {
	return fmt.Sprintf("that line is longer than %d bytes; it was skipped", e.Max)
}

// Reader reads bounded lines.
type Reader struct {
	r   *bufio.Reader
	max int
}

// New returns a Reader of lines up to max bytes (DefaultMax if max <= 0).
func New(r io.Reader, max int) *Reader {
	if max <= 0 {
		max = DefaultMax
	}
	return &Reader{r: bufio.NewReaderSize(r, max+1), max: max}
}

// Next returns the next line without its line ending. A line over the
// limit is read to its end and dropped, and Next returns a *TooLongError;
// the next call goes on after it. At the end of the input it returns
// io.EOF (after a last line without a newline, which it returns first).
func (l *Reader) Next() (string, error) {
	line, err := l.r.ReadSlice('\n')
	// bufio keeps at least 16 bytes, so a short limit is checked here too.
	if body := len(line) - len("\n"); (err == nil && body > l.max) || (err != nil && len(line) > l.max) {
		err = bufio.ErrBufferFull
	}
	switch {
	case err == nil:
		return strings.TrimSuffix(strings.TrimSuffix(string(line), "\n"), "\r"), nil
	case errors.Is(err, bufio.ErrBufferFull):
		for errors.Is(err, bufio.ErrBufferFull) {
			_, err = l.r.ReadSlice('\n')
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return "", err
		}
		return "", &TooLongError{Max: l.max}
	case errors.Is(err, io.EOF) && len(line) > 0:
		return strings.TrimSuffix(string(line), "\r"), nil
	}
	return "", err
}
