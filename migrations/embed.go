// Package migrations holds the database schema as numbered SQL files
// (0001_name.sql, 0002_name.sql, ...), applied in order by storage.
package migrations

import "embed"

// FS holds the migration files.
//
//go:embed *.sql
var FS embed.FS
