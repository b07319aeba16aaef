# One image for web, worker, beat and flower.
FROM python:3.11-slim-bookworm
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends stockfish git \
 && rm -rf /var/lib/apt/lists/*
ENV PYTHONUNBUFFERED=1 \
    PYTHONPATH=/app:/app/platform \
    DJANGO_SETTINGS_MODULE=podium.settings \
    LITELLM_LOCAL_MODEL_COST_MAP=True \
    PODIUM_STOCKFISH=/usr/games/stockfish
WORKDIR /app
COPY pyproject.toml ./
COPY . .
RUN pip install --no-cache-dir .
EXPOSE 8000
CMD ["gunicorn", "podium.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3"]
