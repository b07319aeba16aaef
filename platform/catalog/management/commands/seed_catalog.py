from django.core.management.base import BaseCommand

from catalog.services import benchmarks_ensure, builtin_models_ensure
from evaluators.registry import FAMILIES


class Command(BaseCommand):
    help = "Register the built-in players and each family's default benchmarks (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument("--family", choices=list(FAMILIES), default=None)

    def handle(self, *args, **opts):
        models = builtin_models_ensure()
        benches = benchmarks_ensure(opts["family"])
        self.stdout.write(f"{len(models)} built-in models, {len(benches)} benchmarks registered")
