module othello-bot

go 1.24.0
