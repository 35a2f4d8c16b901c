# syntax=docker/dockerfile:1

# ---------------------------------------------------------------------------
# Build stage: Swift 6.3 toolchain on Debian 12 (bookworm).
# ---------------------------------------------------------------------------
FROM swift:6.3-bookworm AS build

# System libraries the package links against: libpq, libvips (thumbnails),
# libcurl. Versions follow the Debian 12 point release, not pins.
# hadolint ignore=DL3008
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get update \
    && apt-get install -y --no-install-recommends \
        libpq-dev \
        libcurl4-openssl-dev \
        libvips-dev \
        pkg-config \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /build

# Resolve dependencies first so this layer is cached until the manifest
# (or Package.resolved, when present) changes.
COPY Package.* ./
RUN swift package resolve

# Then the sources, and the release build of the `parley` executable. SwiftPM refuses a
# manifest whose targets have no folder, so the test and benchmark folders come too (they are
# not built).
COPY Sources ./Sources
COPY Tests ./Tests
COPY Benchmarks ./Benchmarks
RUN swift build -c release --product parley --static-swift-stdlib \
    && install -D -m 0755 "$(swift build -c release --show-bin-path)/parley" /staging/parley

# ---------------------------------------------------------------------------
# Runtime stage.
# ---------------------------------------------------------------------------
FROM debian:bookworm-slim

# Runtime libraries, ffmpeg (video thumbnails), CA roots, curl for the
# HEALTHCHECK, time zone data.
# hadolint ignore=DL3008
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get update \
    && apt-get install -y --no-install-recommends \
        libpq5 \
        libcurl4 \
        libvips42 \
        ffmpeg \
        ca-certificates \
        curl \
        tzdata \
    && rm -rf /var/lib/apt/lists/*

# Unprivileged user `parley` with a fixed UID/GID (10001), so the named
# volume's ownership is stable across rebuilds.
RUN groupadd --system --gid 10001 parley \
    && useradd --system --uid 10001 --gid parley --home-dir /var/lib/parley --shell /usr/sbin/nologin parley \
    && install -d -o parley -g parley -m 0750 /var/lib/parley

COPY --from=build /staging/parley /usr/local/bin/parley
COPY migrations /usr/share/parley/migrations
# The web pages (PARLEY_WEB_DIR=/usr/share/parley/web serves them): the chat app, the operator
# console and the SDK they load.
COPY web/app /usr/share/parley/web/app
COPY web/console /usr/share/parley/web/console
COPY clients/js/src /usr/share/parley/web/sdk

ENV PARLEY_HOST=0.0.0.0 \
    PARLEY_PORT=8080 \
    PARLEY_DATA_DIR=/var/lib/parley \
    PARLEY_MIGRATIONS_DIR=/usr/share/parley/migrations

USER 10001:10001
WORKDIR /var/lib/parley
VOLUME ["/var/lib/parley"]
EXPOSE 8080

HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["curl", "-fsS", "http://127.0.0.1:8080/health"]

ENTRYPOINT ["parley"]
CMD ["serve"]
