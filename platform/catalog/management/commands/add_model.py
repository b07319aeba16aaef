import json

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from catalog.services import model_key_warning, model_register


class Command(BaseCommand):
    help = "Register a model: add_model SLUG LITELLM_MODEL [--api-base URL] [--key-env NAME] [--params JSON]"

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("litellm_model")
        parser.add_argument("--name", default="")
        parser.add_argument("--api-base", default="")
        parser.add_argument("--key-env", default="", help="NAME of the env var holding the key")
        parser.add_argument("--params", default="{}", help='JSON, e.g. {"temperature": 0.6}')
        parser.add_argument("--organisation", default="")
        parser.add_argument("--open-weights", action="store_true")
        parser.add_argument(
            "--params-b", type=float, default=None, help="parameter count (billions)"
        )
        parser.add_argument("--vision", action="store_true")
        parser.add_argument("--rpm", type=int, default=None)
        parser.add_argument("--tpm", type=int, default=None)
        parser.add_argument("--max-concurrency", type=int, default=None)

    def handle(self, *args, **o):
        try:
            params = json.loads(o["params"])
        except json.JSONDecodeError as exc:
            raise CommandError(f"--params is not valid JSON: {exc}") from None
        try:
            entry = model_register(
                slug=o["slug"],
                display_name=o["name"] or o["slug"],
                litellm_model=o["litellm_model"],
                api_base=o["api_base"],
                api_key_env=o["key_env"],
                params=params,
                organisation=o["organisation"],
                open_weights=o["open_weights"],
                parameter_count_b=o["params_b"],
                modality="vision" if o["vision"] else "text",
                rpm_limit=o["rpm"],
                tpm_limit=o["tpm"],
                max_concurrency=o["max_concurrency"],
            )
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages)) from None
        self.stdout.write(f"registered {entry.slug} ({entry.litellm_model})")
        warning = model_key_warning(entry)
        if warning:
            self.stderr.write(f"warning: {warning}")
