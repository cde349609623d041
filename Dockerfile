# The bot in a container: python bot.py on the embedded SQLite in /data (a volume), or on
# PostgreSQL with DATABASE_URL (compose.yaml's "postgres" profile).

# The engine compiled with mypyc (compile_engine.py): the computer players think about twice as
# fast. A stage of its own, so that the image keeps no compiler; were the build to fail, the image
# would run the Python engine (an empty .compiled is no build).
FROM python:3.11-slim AS engine-build
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /build
COPY requirements-compile.txt .
RUN pip install --no-cache-dir -r requirements-compile.txt
COPY engine engine
COPY compile_engine.py .
RUN python compile_engine.py || mkdir -p .compiled

FROM python:3.11-slim
# The database and the note of the synced commands live in the /data volume (the only place the
# bot's user may write); metrics listen on every interface of the container (publish the port).
ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 \
    DATABASE_URL=sqlite:////data/carcassonne.db STATE_DIR=/data \
    LOG_FORMAT=json METRICS_PORT=9100 METRICS_HOST=0.0.0.0

# pg_dump and pg_restore: `python bot.py backup` and `restore` on the postgres profile.
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-client \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt

# What runs (see .dockerignore: no tests, benchmarks, documents, backups or local databases).
COPY . .
COPY --from=engine-build /build/.compiled .compiled
# A user of its own, owning only the data folder.
RUN useradd --system --uid 10001 --home-dir /app carcassonne \
    && mkdir -p /data && chown carcassonne /data
USER carcassonne
VOLUME ["/data"]
EXPOSE 9100

# Healthy while the database answers, its schema is current, the deadline clock ticks and this
# container's bot process has its workers.
HEALTHCHECK --interval=60s --timeout=10s --start-period=90s --retries=3 CMD ["python", "bot.py", "health", "--here"]

# The slash commands are registered at the first start and after an upgrade that changed them
# (SYNC_COMMANDS=auto, the default: the tree's hash is kept in /data/commands.sha256).
CMD ["python", "bot.py"]
