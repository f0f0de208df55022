# othello-bot: build with cgo (go-sqlite3), run as a non-root user with the
# database and results log on a volume.
#
#   docker build -t othello-bot .
#   docker run -e DISCORD_TOKEN=... -v othello-data:/data othello-bot
#
# Without a registry, docker/build-image.sh makes the two base images below
# locally and builds this file unchanged with buildah; docker/smoke-image.sh
# tests the result (CI runs both).

FROM golang:1.27-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# x86-64-v3 (every x86 server CPU since 2013-2015: Haswell, Zen) lets the
# compiler use POPCNT, LZCNT/TZCNT, ANDN and BMI2 shifts in the move
# generator and the engine: endgame solves run about 10% faster. Build with
# --build-arg GOAMD64=v1 for older CPUs; the setting is ignored on arm64.
ARG GOAMD64=v3
RUN CGO_ENABLED=1 GOAMD64=$GOAMD64 go build -trimpath -ldflags="-s -w" -o /out/othello-bot ./cmd/othello-bot

FROM debian:bookworm-slim
ARG VERSION=dev
ARG REVISION=""
ARG SOURCE=""
LABEL org.opencontainers.image.title="othello-bot" \
      org.opencontainers.image.description="A Discord bot for Othello (Reversi): games against its engine, challenges, clocks, ratings" \
      org.opencontainers.image.version="$VERSION" \
      org.opencontainers.image.revision="$REVISION" \
      org.opencontainers.image.source="$SOURCE" \
      org.opencontainers.image.licenses="MIT"
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin othello \
 && mkdir -p /data && chown othello /data
COPY --from=build /out/othello-bot /usr/local/bin/othello-bot
# The licence and the notices of everything compiled into the binary.
COPY --from=build /src/LICENSE /src/THIRD_PARTY_NOTICES /usr/share/doc/othello-bot/
USER othello
WORKDIR /data
VOLUME ["/data"]
# run writes this file after each round of its timers that reached the
# database; health fails when it is over a minute old (a stuck loop or
# database), or missing once the start period is over.
ENV OTHELLO_HEARTBEAT=/tmp/othello-bot.heartbeat
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["othello-bot", "health"]
# The bot is PID 1 (the exec form, no shell between): SIGTERM reaches it,
# and it stops taking interactions and finishes moves in flight (30 s at
# most) before exiting 0. Give `docker stop` at least that: -t 40.
STOPSIGNAL SIGTERM
ENTRYPOINT ["othello-bot"]
CMD ["run", "--db", "/data/othello-bot.db", "--results", "/data/results.log"]
