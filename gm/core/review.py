"""Review before publishing, as the console and its API name it: the services live in
:mod:`gm.core.services.review` (with the other phase services they build on); this module is their public name."""
from .services.review import (
    MAX_AUTO_MINUTES,
    game_set_review,
    held_phase,
    hold,
    phase_publish,
    phase_set_publish_at,
    publish_due,
    stored_resolution,
)

__all__ = ["MAX_AUTO_MINUTES", "game_set_review", "held_phase", "hold", "phase_publish", "phase_set_publish_at",
           "publish_due", "stored_resolution"]
