#!/usr/bin/env python
"""Django's command-line utility for Podium. Puts the repo root and platform/ on sys.path."""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def main() -> None:
    for path in (str(ROOT / "platform"), str(ROOT)):
        if path not in sys.path:
            sys.path.insert(0, path)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "podium.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
