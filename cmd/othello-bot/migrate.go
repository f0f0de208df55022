package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"othello-bot/storage"
)

func runMigrate(args []string, _ io.Reader, stdout io.Writer) error {
	fs := newFlags("migrate")
	df := addDataFlags(fs)
	from := fs.String("from", "", "copy this SQLite database file ...")
	to := fs.String("to", "", "... into this new, empty PostgreSQL database (postgres://user@host/db; password in PGPASSWORD)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	c, err := df.load()
	if err != nil {
		return err
	}
	logger := newLogger(c)
	if *from != "" || *to != "" {
		return copyDatabase(fs, *from, *to, stdout)
	}
	s, err := openStore(context.Background(), c, logger)
	if err != nil {
		return err
	}
	defer closeStore(s, logger)
	fmt.Fprintf(stdout, "database %s is at schema version %d\n", s.Path(), s.Version())
	return nil
}

// copyDatabase moves a bot from its SQLite file to PostgreSQL: both are
// brought to the latest schema, every row is copied, and the copy is
// checked by counts and by replaying every game. Stop the bot first.
func copyDatabase(fs *flag.FlagSet, from, to string, stdout io.Writer) error {
	switch {
	case from == "" || to == "":
		return usagef("migrate: --from and --to go together (see %s -h)", fs.Name())
	case storage.IsPostgres(from):
		return usagef("migrate: --from is the SQLite file to copy, not a postgres:// URL")
	case !storage.IsPostgres(to):
		return usagef("migrate: --to must be a postgres:// URL")
	}
	if _, err := os.Stat(from); err != nil {
		return usagef("migrate: %s: no such database file", from)
	}
	ctx := context.Background()
	quiet := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	src, err := storage.Open(ctx, from, storage.Options{Logger: quiet})
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := storage.Open(ctx, to, storage.Options{Logger: quiet})
	if err != nil {
		return err
	}
	defer dst.Close()
	start := time.Now()
	fmt.Fprintf(stdout, "copying %s into %s\n", from, storage.Redact(to))
	rep, err := src.CopyTo(ctx, dst, func(table string, rows int64) {
		fmt.Fprintf(stdout, "  %-20s %d rows\n", table, rows)
	})
	if err != nil {
		return errors.Join(errors.New("migrate: the copy is incomplete; drop the PostgreSQL database and try again"), err)
	}
	var total int64
	for _, n := range rep.Rows {
		total += n
	}
	fmt.Fprintf(stdout, "done in %s: %d rows; every table's count matches and all %d games replay the same from the copy\n",
		time.Since(start).Round(time.Millisecond), total, rep.Replayed)
	return nil
}
