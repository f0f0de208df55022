// Package migrations holds the database schemas as numbered SQL files
// (0001_name.sql, 0002_name.sql, ...), applied in order by storage: SQLite's
// at the top, PostgreSQL's in postgres/. Each database has its own history;
// PostgreSQL's starts from SQLite's latest schema.
package migrations

import "embed"

// FS holds SQLite's migration files.
//
//go:embed *.sql
var FS embed.FS

// Postgres holds PostgreSQL's migration files, under postgres/.
//
//go:embed postgres/*.sql
var Postgres embed.FS
