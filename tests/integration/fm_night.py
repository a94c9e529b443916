"""The 16-player night table moved to :mod:`gm.modules.forum_mafia.bench.table` (``manage.py gm_bench`` uses it too);
this name stays for the tests that import it from here."""
from gm.modules.forum_mafia.bench.table import *  # noqa: F403
