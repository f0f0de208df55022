package main

import (
	"context"
	"fmt"
	"io"
)

func runMigrate(args []string, _ io.Reader, stdout io.Writer) error {
	fs := newFlags("migrate")
	df := addDataFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	c, err := df.load()
	if err != nil {
		return err
	}
	s, err := openStore(context.Background(), c, newLogger(c))
	if err != nil {
		return err
	}
	defer closeStore(s, newLogger(c))
	fmt.Fprintf(stdout, "database %s is at schema version %d\n", s.Path(), s.Version())
	return nil
}
