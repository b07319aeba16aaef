"""Deployment checks of our own, run by `manage.py check --deploy` (and by scripts/serve.sh).

Django's own deploy checks pass on a production configuration whose static files were never
collected, yet every HTML page then fails with "Missing staticfiles manifest entry".
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.checks import Error, Tags, register


@register(Tags.staticfiles, deploy=True)
def static_manifest_collected(app_configs=None, **kwargs) -> list[Error]:
    backend = settings.STORAGES.get("staticfiles", {}).get("BACKEND", "")
    if "Manifest" not in backend:
        return []
    manifest = Path(settings.STATIC_ROOT) / "staticfiles.json"
    if manifest.exists():
        return []
    return [
        Error(
            f"static files were not collected: {manifest} is missing, so every page would answer 500",
            hint="run `python manage.py collectstatic --noinput` (scripts/serve.sh does) before serving",
            id="podium.E001",
        )
    ]
