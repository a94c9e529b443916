"""The site's settings with the bench's URLs (:mod:`gm.modules.forum_mafia.bench.urls`: the site plus the bare view),
for the gunicorn that ``manage.py gm_bench --long`` starts (issue 25: order submits against a bare view on the same
server)."""
from gm.settings import *  # noqa: F403

ROOT_URLCONF = "gm.modules.forum_mafia.bench.urls"
