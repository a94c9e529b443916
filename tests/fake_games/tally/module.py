"""``tally``: a minimal game module used only by the tests and the developer demo.

Each round every living seat secretly orders a number 0–9; at the deadline the total is published, each seat is
told its own number, odd ring positions share a group, a seat that ordered 0 dies, and after ``rounds`` rounds the
highest score wins. It exercises every part of the module interface with no game rules of its own.
"""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from gm.core.engine import Event, GameModule, Outcome, PhaseSpec, Resolution, RuleError, RuleViolation, SetupResult


class TallyModule(GameModule):
    slug = "tally"
    public_option_keys = ("rounds",)
    name = _("Tally (test module)")
    min_seats = 2
    max_seats = 20
    phase_kinds = {"round": _("Round %(number)s")}
    default_durations = {"round": 3600}
    messages = {
        "tally.total": _("Round total: %(total)s."),
        "tally.your_number": _("You ordered %(number)s; your secret is %(secret)s."),
        "tally.group_note": _("Odd seats ordered %(total)s in all."),
        "tally.lucky": _("%(name)s is lucky."),
        "tally.died": _("%(name)s ordered zero and died."),
        "tally.trace": _("Orders: %(orders)s"),
    }

    def validate_options(self, options):
        errors = []
        unknown = set(options) - {"rounds"}
        for key in sorted(unknown):
            errors.append(RuleError(_("Unknown option “%(key)s”."), field=key, params={"key": key}))
        rounds = options.get("rounds", 3)
        if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= 1000:
            errors.append(RuleError(_("Rounds must be a whole number from 1 to 1000."), field="rounds"))
        if errors:
            raise RuleViolation(errors)
        return {"rounds": rounds}

    def setup(self, *, seats, options, rng):
        seat_data = {s.id: {"secret": rng.randint(1, 100), "score": 0} for s in seats}
        return SetupResult(
            state={"round": 1, "rounds": options.get("rounds", 3), "totals": []},
            first_phase=PhaseSpec("round", 1),
            seat_data=seat_data,
            groups={"team:odd": [s.id for s in seats if s.position % 2 == 1]},
            events=[Event("tally.your_number", {"number": "-", "secret": seat_data[s.id]["secret"]},
                          visibility="seat", seat=s.id) for s in seats],
        )

    def validate_order(self, *, state, phase, seat, payload, seats=()):
        number = payload.get("number")
        extra = set(payload) - {"number"}
        errors = [RuleError(_("Unknown field “%(key)s”."), field=k, params={"key": k}) for k in sorted(extra)]
        if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number <= 9:
            errors.append(RuleError(_("Choose a whole number from 0 to 9."), field="number"))
        if errors:
            raise RuleViolation(errors)
        return {"number": number}

    def resolve(self, *, state, phase, seats, orders, rng):
        living = [s for s in seats if s.alive]
        total = sum(o["number"] for o in orders.values())
        events = [Event("tally.trace", {"orders": {str(k): v["number"] for k, v in sorted(orders.items())}},
                        visibility="master"),
                  Event("tally.total", {"total": total})]
        seat_data, alive = {}, {}
        odd_total = 0
        for s in living:
            number = orders.get(s.id, {}).get("number")
            data = dict(s.data)
            data["score"] = data.get("score", 0) + (number or 0)
            seat_data[s.id] = data
            if number is not None:
                events.append(Event("tally.your_number", {"number": number, "secret": data["secret"]},
                                    visibility="seat", seat=s.id))
                if s.position % 2 == 1:
                    odd_total += number
            if number == 0:
                alive[s.id] = False
                events.append(Event("tally.died", {"name": s.name}))
        events.append(Event("tally.group_note", {"total": odd_total}, visibility="group", group="team:odd"))
        if living:
            events.append(Event("tally.lucky", {"name": rng.choice(living).name}))
        new_state = {**state, "round": state["round"] + 1, "totals": [*state["totals"], total]}
        survivors = [s for s in living if alive.get(s.id, True)]
        if state["round"] >= state["rounds"] or len(survivors) <= 1:
            best = max((seat_data[s.id]["score"] for s in survivors), default=0)
            winners = [s.id for s in survivors if seat_data[s.id]["score"] == best]
            return Resolution(new_state, events, seat_data, alive, outcome=Outcome(["highest"], winners))
        return Resolution(new_state, events, seat_data, alive, next_phase=PhaseSpec("round", state["round"] + 1))

    def view(self, *, state, seats, viewer):
        if viewer.sees_everything:
            return dict(state)
        return {"round": state.get("round"), "totals": state.get("totals", [])}

    def public_seat_data(self, data):
        return {"score": data.get("score", 0)}


MODULE = TallyModule()
