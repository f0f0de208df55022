package main

// This file is the version subcommand: what the binary is and what built
// it, as the Go toolchain recorded it, so an image can be checked for the
// patched Go release.

import (
	"fmt"
	"io"
	"runtime/debug"
)

func runVersion(args []string, _ io.Reader, stdout io.Writer) error {
	fs := newFlags("version")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return fmt.Errorf("the binary carries no build information")
	}
	fmt.Fprint(stdout, versionText(info))
	return nil
}

// versionText is the module's version, the revision it was built from and
// the Go release that built it, one per line.
func versionText(info *debug.BuildInfo) string {
	revision, modified := "unknown", ""
	for _, s := range info.Settings {
		switch {
		case s.Key == "vcs.revision":
			revision = s.Value
		case s.Key == "vcs.modified" && s.Value == "true":
			modified = " (modified)"
		}
	}
	return fmt.Sprintf("othello-bot %s\nrevision %s%s\nbuilt with %s\n", info.Main.Version, revision, modified, info.GoVersion)
}
