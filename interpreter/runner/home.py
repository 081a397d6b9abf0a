"""Where fuda keeps a user's files (matches, studies, games stopped unfinished): ``$FUDA_HOME``,
else ``~/.fuda``."""

from __future__ import annotations

import os
from pathlib import Path


def fuda_home() -> Path:
    home = os.environ.get("FUDA_HOME")
    return Path(home) if home else Path.home() / ".fuda"
