"""manage.py podium_callservice: the host's call service (see jobs.callservice)."""

from __future__ import annotations

import redis
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from evaluators.llm_service import parse_address
from jobs.callservice import CallService, serve
from jobs.llm_wiring import sending_gateway


class Command(BaseCommand):
    help = (
        "Run this host's call service: workers hand it their model calls, and it stores every "
        "reply before answering, so a worker killed mid-call loses nothing it paid for."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--address",
            default=settings.PODIUM_CALL_SERVICE,
            help="unix:/path/to/socket or host:port (default: PODIUM_CALL_SERVICE)",
        )

    def handle(self, *args, address: str, **options):
        if not address:
            raise CommandError(
                "no address: set PODIUM_CALL_SERVICE (unix:/path/to/socket or host:port), the "
                "same value the host's workers have, or pass --address"
            )
        try:
            parse_address(address)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        service = CallService(
            gateway=sending_gateway(),
            redis=redis.Redis.from_url(settings.REDIS_URL),
            # per deployment (PODIUM_QUEUE), so two deployments on one Redis never wait on
            # each other's identical requests
            marker_prefix=f"podium:callservice:{settings.CELERY_TASK_DEFAULT_QUEUE}",
        )
        try:
            serve(address, service, out=self.stdout)
        except (OSError, RuntimeError) as exc:
            raise CommandError(f"call service on {address}: {exc}") from None
