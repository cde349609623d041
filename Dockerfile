# The bot in a container: python bot.py on the embedded SQLite in /data (a volume), or on
# PostgreSQL with DATABASE_URL (compose.yaml's "postgres" profile).
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 DATABASE_PATH=/data/carcassonne.db LOG_FORMAT=json

WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt

COPY . .
# A user of its own, owning only the data folder.
RUN useradd --system --uid 10001 --home-dir /app carcassonne \
    && mkdir -p /data && chown carcassonne /data
USER carcassonne
VOLUME ["/data"]

# Healthy while the database answers, its schema is current and the deadline clock ticks.
HEALTHCHECK --interval=60s --timeout=10s --start-period=90s --retries=3 CMD ["python", "bot.py", "health"]

CMD ["python", "bot.py"]
