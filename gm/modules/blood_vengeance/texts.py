"""Everything Mafia: Blood Vengeance shows to people, in the reader's language: the game's and its phases' names, the
card, side, type-card and variant names, the log message templates and how an event renders, an order and a seat in
words, the refusal reasons of BV-16 (BV-1–BV-16). Form labels live with their forms (``forms.py``)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from gm.core.engine import SignupConsent

from .engine import CLOSED_RULES

NAME = _("Mafia: Blood Vengeance")
PHASE_KINDS = {"night": _("Night %(number)s"), "defence": _("Defence %(number)s"),
               "verdict": _("Verdict %(number)s"), "arbiter": _("Arbiter %(number)s"),
               "light": _("Light time %(number)s")}

ROLE_NAMES = {
    "vampire": _("Vampire"), "king": _("King"), "prince": _("Prince"), "count": _("Count"), "lamia": _("Lamia"),
    "undine": _("Undine"), "queen": _("Queen"), "neophyte": _("Neophyte"), "nosferatu": _("Nosferatu"),
    "bride": _("Bride"), "banshee": _("Banshee"), "dhampir": _("Dhampir"), "revenant": _("Revenant"),
    "ghoul": _("Ghoul"), "hunter": _("Hunter"), "monk": _("Monk"), "leader": _("Leader"), "scout": _("Scout"),
    "beauty": _("Beauty"), "werewolf": _("Werewolf"), "kitsune": _("Kitsune"), "warg_leader": _("Warg leader"),
    "sly_warg": _("Sly warg"), "vengeful_warg": _("Vengeful warg"), "paralysing_warg": _("Paralysing warg"),
    "tricky_warg": _("Tricky warg"),
    "lord": _("Vampire lord"), "werewolf_any": _("Werewolf (werewolf or kitsune)"), "hunters": _("Hunters' gathering"),
}
SIDE_NAMES = {"vampires": _("vampires"), "hunters": _("hunters"), "werewolf": _("werewolf")}
TYPE_NAMES = {"vampire": _("vampire"), "special_vampire": _("special vampire"), "hunter": _("hunter"),
              "special_hunter": _("special hunter"), "werewolf": _("werewolf")}
VARIANT_NAMES = {"standard": _("standard vote"), "flowers": _("flowers of execution and salvation"),
                 "blood_vengeance": _("blood vengeance"), "arbiter_of_fates": _("arbiter of fates"),
                 "festival_panic": _("festival panic"), "vampire_secrets": _("vampire secrets")}
ANSWERS = {"yes": _("yes"), "no": _("no")}
AUDIT_ACTIONS = {"bv_enchant": _("spell of silence"), "bv_hunters_win": _("hunters declared the winners")}
GROUP_NAMES = {"faction:hunters": _("The hunters' room")}
WIN_TEXTS = {
    "vampires": _("Vampires: you win when every hunter and the werewolf are dead, even if you are dead too."),
    "hunters": _("Hunters: you win at nightfall when the living hunters are as many as the living vampires, the "
                 "werewolf is dead and no killing vampire lives."),
    "werewolf": _("Werewolf: you win when you are the last one alive, or alone with one hunter."),
}

MESSAGES = {
    "bv.roles_in_play": _("Roles in play: %(roles)s."),
    "bv.your_card": _("Your card: %(role)s."),
    "bv.hunters_met": _("The hunters: %(names)s."),
    "bv.pack_met": _("Your pack: %(names)s."),
    "bv.introduction": _("Introduction in call order: %(names)s."),
    "bv.night_opened": _("Night %(night)s has come: everyone has gathered. Tonight's vote: %(variant)s.%(extra)s"),
    "bv.tally": _("Votes (%(round)s): %(votes)s."),
    "bv.executed": _("Executed: %(dead)s."),
    "bv.nobody_executed": _("This night the vampires executed nobody; dawn comes."),
    "bv.defence_opened": _("A tie: %(names)s defend themselves; revote only for them."),
    "bv.verdict_opened": _("Still tied: %(names)s. Execute them all? Answer yes or no."),
    "bv.verdict_tally": _("Verdict: %(weight)s of %(total)s for execution (%(names)s)."),
    "bv.arbiter_elected": _("%(name)s is the arbiter of fates and names tonight's victim."),
    "bv.flowers_tally": _("Roses: %(scores)s."),
    "bv.hoh_elected": _("%(name)s is the hunter of hunters."),
    "bv.hoh_not_elected": _("Nobody was elected hunter of hunters; the election repeats next night."),
    "bv.hoh_passed": _("The title of hunter of hunters passes to %(name)s."),
    "bv.co_master": _("%(name)s, executed first, becomes the master's assistant."),
    "bv.victory": _("The %(side)s win. Winners: %(names)s."),
    "bv.hunters_struck": _("The hunters have struck their blow."),
    "bv.nightfall": _("Night falls. Did not live to see the dark: %(dead)s."),
    "bv.removed": _("%(name)s leaves the game: %(dead)s."),
    "bv.enchanted": _("The master casts the spell of silence on %(name)s: no vote and no word until the end."),
    "bv.enchanted_next": _("The master casts the spell of silence on %(name)s, who is dead: he starts the next game "
                           "of the series silenced."),
    "bv.silence_carried": _("Silenced at the end of the series' previous game, %(names)s start this game under the "
                            "spell of silence: no vote and no word until the end."),
    "bv.revived": _("%(name)s is back in the game."),
    "bv.gathering_result": _("The gathering chose: %(victim)s.%(extra)s"),
    "bv.no_action": _("%(role)s: no action this light time."),
    "bv.blocked": _("%(role)s: your ability had no effect this light time."),
    "bv.learned_type": _("%(target_name)s shows the card: %(type)s."),
    "bv.learned_killer": _("Does %(target_name)s kill? %(answer)s."),
    "bv.learned_watch": _("Chose %(target_name)s before you: %(names)s%(extra)s."),
    "bv.learned_count": _("Hunters among %(names)s: %(count)s."),
    "bv.learned_vampire": _("Is %(target_name)s a vampire? %(answer)s."),
    "bv.bride_bound": _("%(target_name)s is your groom."),
    "bv.groom_told": _("The bride %(bride_name)s chose you: your fates are bound."),
    "bv.lost_tail": _("You lost a tail: a kill on you failed."),
    "bv.trace_action": _("%(name)s (%(role)s) → %(targets)s %(mode)s"),
    "bv.trace_blocked": _("%(name)s (%(role)s) is blocked: → %(targets)s without effect."),
    "bv.trace_abstain": _("%(name)s (%(role)s) abstains."),
    "bv.trace_no_action": _("%(name)s (%(role)s) gave no order: no action."),
    "bv.trace_random_action": _("%(name)s (%(role)s) gave no order: drawn → %(targets)s."),
    "bv.trace_gathering": _("Gathering: %(votes)s → victim %(victim)s."),
    "bv.trace_ambush": _("%(name)s's ambush catches %(caught_name)s: %(victim_name)s dies."),
    "bv.trace_protected": _("The kill on %(target_name)s fails: protected."),
    "bv.trace_kill": _("%(target_name)s is killed (%(attacker_name)s)."),
    "bv.trace_tail": _("%(name)s survives on a spare life."),
    "bv.trace_linked_death": _("%(name)s dies with a linked player."),
    "bv.trace_drawn": _("Night 1 must execute: %(name)s was drawn."),
}

#: What the dashboard tells a player (BV-5, BV-14.2).
NEED_VOTE = _("%(phase)s: the vote is open and you have not voted.")
NEED_VOTED = _("%(phase)s: your vote is in; you may change it until the deadline.")
NEED_ACT = _("%(phase)s: use your ability.")
NEED_ACTED = _("%(phase)s: your order is in; you may change it until the deadline.")
NEED_NOTHING = _("%(phase)s: nothing for you to do; wait for the night.")
#: Why the thread is closed to a player (``engine.thread_closed``), each with its rule ID.
THREAD_CLOSED = {
    "light": _("The thread is closed in the light time: everyone sleeps in silence until nightfall."),
    "secrets": _("Vampire secrets: no discussion tonight, the thread is closed."),
    "defence": _("During the defence only the tied players speak."),
    "room_night": _("The hunters' room is open only in the light time, for the gathering."),
    "dead": _("The dead are silent."),
    "silenced": _("You are under the spell of silence."),
}


def role_name(slug: str) -> str:
    """A card's name in the active language (unknown slugs as given)."""
    return str(ROLE_NAMES.get(slug, slug))


def side_name(slug: str) -> str:
    """A side's name in the active language."""
    return str(SIDE_NAMES.get(slug, slug))


def group_label(slug: str) -> str:
    """A group of the log (the hunters' room, BV-4.1) in the active language."""
    return str(GROUP_NAMES.get(slug, slug))


def winner_label(slug: str) -> str:
    """A winning side (BV-9–BV-11) in the active language."""
    return side_name(slug)


def win_text(side: str) -> str:
    """How a card of ``side`` wins, for the player's card."""
    return str(WIN_TEXTS.get(side, ""))


def _format(kind: str, params: Mapping[str, Any]) -> str:
    template = MESSAGES.get(kind)
    if template is None:
        return kind
    try:
        return str(template) % dict(params)
    except (KeyError, TypeError, ValueError):
        return str(template)


def render_event(kind: str, data: Mapping[str, Any]) -> str:
    """A ``bv.*`` event's text in the active language: seats by the display names the event carries, cards, sides,
    type cards and variants in words."""
    names = data.get("names", {})

    def who(sid) -> str:
        return names.get(str(sid), str(sid)) if sid is not None else "—"

    def many(items) -> str:
        return ", ".join(who(s) for s in items or []) or "—"

    params: dict[str, Any] = dict(data)
    for key in ("seat", "target", "attacker", "caught", "victim", "bride"):
        if key in data:
            params[f"{key}_name" if key != "seat" else "name"] = (
                gettext("the hunters") if data[key] == "hunters" else who(data[key]))
    if isinstance(data.get("seats"), list):
        params["names"] = many(data["seats"])
    if "role" in data:
        params["role"] = role_name(data["role"])
    if "card" in data:
        params["role"] = role_name(data["card"])
    if "targets" in data:
        params["targets"] = many(data["targets"])
    if "mode" in data:
        params["mode"] = f"({data['mode']})" if data["mode"] else ""
    if "answer" in data:
        params["answer"] = str(ANSWERS.get(data["answer"], data["answer"]))
    if "type" in data:
        params["type"] = str(TYPE_NAMES.get(data["type"], data["type"]))
    if "cards" in data:
        cards = data["cards"] or {}
        params["dead"] = ", ".join(f"{who(s)} ({role_name(cards[s])})" if s in cards else who(s)
                                   for s in data.get("seats") or ([data["seat"]] if "seat" in data else [])) \
            or gettext("nobody")
    if kind == "bv.roles_in_play":
        if "counts" in data:
            params["roles"] = summary_text(data["counts"])
        else:
            params["roles"] = ", ".join(role_name(r) for r in data.get("roles", []))
    elif kind == "bv.introduction":
        params["names"] = many(data.get("seats"))
    elif kind == "bv.night_opened":
        params["variant"] = str(VARIANT_NAMES.get(data.get("variant"), data.get("variant")))
        extra = []
        if data.get("die") is not None:
            extra.append(gettext("The die shows %(die)s.") % {"die": data["die"]})
        if data.get("no_vote"):
            extra.append(gettext("No vote tonight: %(names)s.") % {"names": many(data["no_vote"])})
        if data.get("vengeance"):
            extra.append(gettext("Blood vengeance: only %(names)s may be voted for.") % {
                "names": many(data["vengeance"])})
        if data.get("elect"):
            extra.append(gettext("Elect the hunter of hunters."))
        params["extra"] = (" " + " ".join(extra)) if extra else ""
    elif kind == "bv.tally":
        params["round"] = str(PHASE_KINDS.get(data.get("round"), data.get("round"))).replace(" %(number)s", "")
        if data.get("votes"):
            params["votes"] = ", ".join(f"{who(v)} → {who(t)}" for v, t in data["votes"])
        else:
            params["votes"] = ", ".join(f"{who(s)}: {n}" for s, n in (data.get("totals") or {}).items()) or "—"
    elif kind == "bv.flowers_tally":
        params["scores"] = ", ".join(f"{who(s)}: {n}" for s, n in (data.get("scores") or {}).items()) or "—"
    elif kind == "bv.victory":
        params["side"] = side_name(data.get("side", ""))
        params["names"] = many(data.get("winners"))
    elif kind == "bv.gathering_result":
        params["victim"] = who(data["victim"]) if data.get("victim") else gettext("no victim (no_victim)")
        params["extra"] = (" " + gettext("Slept through the gathering: %(names)s.") % {
            "names": many(data["drowned"])}) if data.get("drowned") else ""
    elif kind == "bv.learned_watch":
        params["names"] = many(data.get("seats"))
        params["extra"] = (" " + gettext("and the hunters")) if data.get("hunters") else ""
    elif kind == "bv.trace_gathering":
        params["votes"] = ", ".join(f"{who(v)} → {who(t)}" for v, t in data.get("votes") or []) or "—"
        params["victim"] = who(data["victim"]) if data.get("victim") else "—"
    return _format(kind, params)


def summary_text(counts: Mapping[str, int]) -> str:
    """The set-up summary players read at signup (issue 21): "12 players: 8 vampires (1 lord, 2 special),
    4 hunters (1 special), 0 werewolves"."""
    return gettext("%(players)s players: %(vampires)s vampires (%(lords)s lord, %(special_vampires)s special), "
                   "%(hunters)s hunters (%(special_hunters)s special), %(werewolves)s werewolves") % dict(counts)


DEPARTURES = {"vampires": _("vampires"), "hunters": _("hunters"), "lords": _("vampire lords"),
              "special_vampires": _("special vampires"), "special_hunters": _("special hunters")}


def departure_text(w: Mapping[str, Any]) -> str:
    """One departure from the BV-2.1 table in words (BV-2.4's warning on the set-up page)."""
    return gettext("%(what)s: %(n)s, the table of BV-2.1 recommends %(lo)s–%(hi)s") % {
        "what": DEPARTURES.get(w["what"], w["what"]), "n": w["n"], "lo": w["lo"], "hi": w["hi"]}


def seat_facts(data: Mapping[str, Any], *, secret: bool) -> list[tuple[str, str]]:
    """The seats table: publicly the card opened at death (BV-7); secretly the card, the side, the results (BV-14.6)
    and at the end the result and points (BV-12)."""
    facts: list[tuple[str, str]] = []
    if not secret:
        if data.get("revealed"):
            facts.append((gettext("Card"), role_name(data["revealed"])))
        return facts
    if data.get("card"):
        facts.append((gettext("Card"), role_name(data["card"])))
    if data.get("side"):
        facts.append((gettext("Side"), side_name(data["side"])))
    if "won" in data:
        facts.append((gettext("Result"), gettext("won") if data["won"] else gettext("lost")))
        facts.append((gettext("Points"), str(data.get("points", 0))))
    learned = [render_event(e.get("kind", ""), e.get("data") or {})
               for e in data.get("learned") or [] if isinstance(e, Mapping)]
    if learned:
        facts.append((gettext("Learned"), " ".join(learned)))
    return facts


def order_lines(*, payload: Mapping[str, Any], seat_data: Mapping[str, Any],
                seat_names: Mapping[int, str]) -> list[str]:
    """An order version in words: a night vote (or marks, roses, election, heir, delegate), a verdict, the
    arbiter's victim, the light actions."""
    def ref(value) -> str:
        try:
            return seat_names.get(int(value), str(value))
        except (TypeError, ValueError):
            return str(value)

    lines = []
    vote = payload.get("vote")
    if isinstance(vote, list):
        lines.append(gettext("Execute: %(names)s.") % {"names": ", ".join(ref(v) for v in vote)})
    elif vote is not None:
        lines.append(gettext("Vote for %(name)s.") % {"name": ref(vote)})
    for key, text in (("black", gettext("Black rose to %(name)s.")), ("red", gettext("Red rose to %(name)s.")),
                      ("elect", gettext("Elect %(name)s hunter of hunters.")),
                      ("heir", gettext("Heir: %(name)s.")), ("delegate", gettext("Pass my vote to %(name)s."))):
        if payload.get(key) is not None:
            lines.append(text % {"name": ref(payload[key])})
    if payload.get("verdict"):
        lines.append(gettext("Verdict: %(answer)s.") % {"answer": ANSWERS.get(payload["verdict"],
                                                                               payload["verdict"])})
    for action in payload.get("actions") or []:
        role = role_name(action.get("role", ""))
        if action.get("abstain"):
            lines.append(gettext("%(role)s: abstain.") % {"role": role})
        elif action.get("mode") == "ambush":
            lines.append(gettext("%(role)s: lie in ambush.") % {"role": role})
        else:
            targets = ", ".join(ref(t) for t in action.get("targets") or [])
            mode = f" ({action['mode']})" if action.get("mode") else ""
            lines.append(gettext("%(role)s: %(targets)s.") % {"role": role + mode, "targets": targets})
    return lines or [gettext("Nothing.")]


def refusal_text(code: str) -> str:
    """A BV-16 refusal code's reason in the active language."""
    from .engine import REFUSALS

    return gettext(REFUSALS.get(code, code))


def thread_closed_text(code: str | None) -> str:
    """Why the thread is closed (``engine.thread_closed``: a key of :data:`THREAD_CLOSED`) in the reader's language
    with its rule ID (``engine.CLOSED_RULES``); ``""`` for ``None`` (open)."""
    if code is None:
        return ""
    return f"{gettext(THREAD_CLOSED[code])} ({CLOSED_RULES[code]})"


#: BV-15.15: the players' code of honour («Кодекс чести игроков»), one paragraph per rule of the seed, the light
#: time's silence read as the closed thread (BV-14.8) and the spell of silence (BV-15.12) as its enforcement.
CODE_OF_HONOUR = (
    _("The dead are silent! One careless word or sigh of a dead player can spoil the game for everyone. Once out "
      "of the game you soon learn everything: please keep it secret."),
    _("Know your roles! Learn how every role works before the game starts; later is too late."),
    _("The master's word is law! Tell him about his slips and mistakes after the game."),
    _("Keep total silence in the light time! Everyone sleeps: the thread is closed by day, and you will have your "
      "say when night comes."),
    _("Follow the spirit of the game! Don't ask questions like \"If you really are the lord, tell me which gesture "
      "I made when the lord was called\"."),
    _("Be honest! If you broke the rules by accident and learned what you should not have, the best thing is to "
      "leave the game early and tell the master why."),
    _("A game is a game! No bets for money, no oaths, no threats, no old grudges, and no references to earlier "
      "games."),
    _("A player who breaks the code may be put under the spell of silence by the master: he loses his vote and "
      "his word until the end of the game. A dead offender, or one still silenced when a game of a series ends, "
      "starts the next game of the series silenced."),
)
CODE_OF_HONOUR_TITLE = _("The players' code of honour")
CODE_OF_HONOUR_LABEL = _("I have read the players' code of honour and will keep it")


def signup_consents(*, asked: bool) -> list[SignupConsent]:
    """BV-15.15: the players' code of honour as the core's signup consent (key ``code_of_honour``), in the reader's
    language, when it is ``asked`` (``engine.asks_code_of_honour``); else none."""
    if not asked:
        return []
    return [SignupConsent(key="code_of_honour", title=gettext(CODE_OF_HONOUR_TITLE),
                          label=gettext(CODE_OF_HONOUR_LABEL),
                          text="\n\n".join(gettext(p) for p in CODE_OF_HONOUR), rule="BV-15.15")]
