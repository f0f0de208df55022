module othello-bot

go 1.24.0

require github.com/mattn/go-sqlite3 v1.14.53
