# Deckhand in a container: docs/deploy.md explains every line.
#   docker build --build-arg DECKHAND_COMMIT=$(git rev-parse --short HEAD) -t deckhand .
#   docker run -d --name deckhand -e DISCORD_TOKEN -v deckhand-data:/data deckhand

# -- web: the Activity's browser client, bundled by esbuild into bot/web/static -----------
FROM node:20-slim AS web
WORKDIR /src/web
# web/package-lock.json: every package at an exact version with its integrity hash
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY web/build.mjs web/tsconfig.json ./
COPY web/src ./src
RUN npm run build

# -- build: the package and its pinned dependencies in a virtual environment --------------
FROM python:3.11-slim AS build
WORKDIR /src
# requirements.lock: every dependency (and the build backend) at an exact version, hashed
COPY pyproject.toml README.md LICENSE requirements.lock ./
RUN python -m venv /opt/deckhand \
    && /opt/deckhand/bin/pip install --no-cache-dir --require-hashes -r requirements.lock
COPY games ./games
COPY bot ./bot
COPY cogs ./cogs
COPY --from=web /src/bot/web/static ./bot/web/static
RUN /opt/deckhand/bin/pip install --no-cache-dir --no-deps --no-build-isolation .

# -- run: the environment, the fonts the pictures need, a user without privileges ---------
FROM python:3.11-slim
ARG DECKHAND_COMMIT=""
# Fonts with wide script coverage (Latin, CJK, Thai, Devanagari, emoji) and the libraries of
# complex text layout (Raqm, FriBiDi) that shape Thai and Devanagari names, as scripts/setup.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji fonts-dejavu-core fontconfig \
        libraqm0 libfribidi0 \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin \
        deckhand \
    && mkdir -p /data \
    && chown deckhand:deckhand /data
COPY --from=build /opt/deckhand /opt/deckhand
ENV PATH=/opt/deckhand/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    DECKHAND_DB=/data/deckhand.sqlite3 \
    DECKHAND_HEARTBEAT=/tmp/deckhand.heartbeat \
    DECKHAND_LOG_FORMAT=json \
    DECKHAND_COMMIT=$DECKHAND_COMMIT \
    DECKHAND_IMAGE=1
VOLUME ["/data"]
USER deckhand
WORKDIR /data
# Healthy while the heartbeat file is younger than 90 s: the bot rewrites it every 30 s
# while every shard is connected and the database answers.
HEALTHCHECK --interval=30s --timeout=10s --start-period=2m --retries=3 \
    CMD ["deckhand", "--health"]
# `docker stop` sends SIGTERM to deckhand (PID 1, which handles it): the bot answers what it is
# handling, closes everything and exits 0 within 5 s, inside Docker's 10 s grace.
STOPSIGNAL SIGTERM
ENTRYPOINT ["deckhand"]
