"""The guided deal: a tutorial (plain data) played against the engine, one step at a time.

A tutorial is a dict (see :func:`parse`): the game, a summary, and one or more *parts*, each a
stacked first deal (``deck``, the engine's ``deck=`` argument of ``new_game``), the options, an
optional *prelude* of moves played unseen before the part begins (``"0/play:AS 1/play:2S"``),
and a *script* that lists, in the order the game asks for them, the computer seats' moves (``"2
play:KS"``) and the learner's steps (``{"say": ..., "do": [...], "why": ...}``). The learner is
seat 0. At each step the learner may only make a taught move; another legal move is answered
with the step's ``why`` and an illegal one with the engine's own sentence. Nothing here does
I/O: a Discord cog and a test drive :class:`Lesson` alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games import registry, wording
from games.core import Action, IllegalAction, Rules, State, View

#: the learner's seat in every tutorial
LEARNER = 0
#: the languages a tutorial's inline texts are written in (its catalogue texts: every one)
LANGS = wording.languages()
#: how many moves the choices offer at most (a Discord message holds 25 buttons)
MAX_CHOICES = 20
#: the action text of a reading step's single move
NEXT = "next"


class TutorialError(ValueError):
    """A tutorial's data that does not fit its format or the engine."""


@dataclass(frozen=True)
class Text:
    """One sentence or paragraph in every language: a key of the lessons' catalogue
    (``games/locales/<lang>/tutorials.po``), or, for a tutorial written inline (a test's),
    its texts by language."""

    key: str
    inline: tuple[tuple[str, str], ...] = ()

    def __call__(self, lang: str) -> str:
        if self.inline:
            texts = dict(self.inline)
            return texts.get(lang) or texts[wording.DEFAULT]
        return wording.text(self.key, lang)


@dataclass(frozen=True)
class LessonStep:
    """A learner's step: the rule that matters now, the move(s) it teaches, and why.

    ``offer``: the other moves to show first, where the legal moves are more than a message
    holds (Bear's bids: every number the step's text names, not the first twenty bids)."""

    say: Text
    do: tuple[Action, ...]
    why: Text | None
    offer: tuple[Action, ...] = ()

    def teaches(self, action: Action) -> bool:
        """Whether ``action`` is one of the moves this step teaches."""
        return any(action.same_as(taught) for taught in self.do)


@dataclass(frozen=True)
class ScriptedMove:
    """A computer seat's move, written into the script."""

    seat: int
    action: Action


@dataclass(frozen=True)
class Part:
    """One stacked deal and its script."""

    players: int
    options: dict[str, Any]
    deck: tuple[str, ...]
    seed: int
    script: tuple[LessonStep | ScriptedMove, ...]
    #: moves of any seat played before the part begins, unseen: a part may start late in a
    #: deal (two players left, or a later game of a match)
    prelude: tuple[tuple[int, Action], ...] = ()

    def new_state(self, rules: Rules) -> State:
        """The part's first position: the stacked deal, then the prelude's moves."""
        state = rules.new_game(self.players, seed=self.seed, options=self.options,
                               deck=list(self.deck))
        for i, (seat, action) in enumerate(self.prelude):
            try:
                state.apply(seat, action)
            except IllegalAction as exc:
                raise TutorialError(f"prelude move {i + 1}, {seat} {action}: {exc}") from None
        return state


@dataclass(frozen=True)
class Tutorial:
    """A whole guided deal of one game."""

    game: str
    title: Text
    parts: tuple[Part, ...]
    summary: Text

    @property
    def rules(self) -> Rules:
        return registry.get(self.game)

    @property
    def steps(self) -> int:
        """How many steps the learner goes through."""
        return sum(1 for part in self.parts for item in part.script if isinstance(item, LessonStep))


def _text(raw: object, where: str) -> Text:
    if isinstance(raw, str):
        if not wording.has(raw):
            raise TutorialError(f"{where}: no catalogue has the text '{raw}'")
        return Text(raw)
    if not isinstance(raw, Mapping) or not all(isinstance(raw.get(k), str) and raw.get(k)
                                               for k in LANGS):
        raise TutorialError(f"{where}: a text is a catalogue key, or written in {LANGS}")
    return Text("", tuple((k, str(raw[k])) for k in LANGS))


def _action(raw: object, where: str) -> Action:
    if not isinstance(raw, str):
        raise TutorialError(f"{where}: a move is written as text, like 'play:TS'")
    try:
        return Action.parse(raw)
    except IllegalAction as exc:
        raise TutorialError(f"{where}: {exc}") from None


def _item(raw: object, where: str) -> LessonStep | ScriptedMove:
    if isinstance(raw, str):
        seat, _, move = raw.partition(" ")
        if not seat.isdigit() or int(seat) == LEARNER:
            raise TutorialError(f"{where}: a computer move starts with its seat (not 0)")
        return ScriptedMove(int(seat), _action(move, where))
    if isinstance(raw, Mapping):
        do = raw.get("do", [])
        if not isinstance(do, list):
            raise TutorialError(f"{where}: 'do' is a list of moves")
        moves = tuple(_action(m, where) for m in do)
        why = _text(raw["why"], where) if "why" in raw else None
        if moves and why is None:
            raise TutorialError(f"{where}: a step that teaches a move says why ('why')")
        offer = raw.get("offer", "")
        if not isinstance(offer, str):
            raise TutorialError(f"{where}: 'offer' is moves in one string")
        return LessonStep(_text(raw.get("say"), where), moves, why,
                    tuple(_action(m, where) for m in offer.split()))
    raise TutorialError(f"{where}: a script entry is a computer move or a step")


def _prelude_move(raw: str, where: str) -> tuple[int, Action]:
    """A prelude move written ``seat/kind:cards`` ('0/play:AS'): any seat, the learner too."""
    seat, sep, move = raw.partition("/")
    if not sep or not seat.isdigit():
        raise TutorialError(f"{where}: a prelude move is written like '1/play:KD'")
    return int(seat), _action(move, where)


def parse(data: Mapping[str, Any]) -> Tutorial:
    """A tutorial from its data; TutorialError names what does not fit the format."""
    game = str(data.get("game"))
    parts = []
    for p, raw in enumerate(data.get("parts", [])):
        where = f"{game} part {p + 1}"
        deck = raw.get("deck", "")
        options = raw.get("options", {})
        if not isinstance(deck, str) or not isinstance(options, dict):
            raise TutorialError(f"{where}: 'deck' is card codes in one string, 'options' a dict")
        script = tuple(_item(entry, f"{where} entry {i + 1}")
                       for i, entry in enumerate(raw.get("script", [])))
        prelude = tuple(_prelude_move(move, f"{where} prelude move {i + 1}")
                        for i, move in enumerate(str(raw.get("prelude", "")).split()))
        parts.append(Part(int(raw.get("players", 0)), dict(options), tuple(deck.split()),
                          int(raw.get("seed", 0)), script, prelude))
    if not parts:
        raise TutorialError(f"{game}: a tutorial has at least one part")
    return Tutorial(game, _text(data.get("title"), game), tuple(parts),
                    _text(data.get("summary"), game))


@dataclass
class Answer:
    """What the learner's move brought: accepted or not, and why not."""

    accepted: bool
    reason: str | None = None


@dataclass
class Lesson:
    """A learner going through a tutorial in one language."""

    tutorial: Tutorial
    lang: str = "en"
    part: int = 0
    position: int = 0
    step: int = 0  # the learner's steps done so far (over all parts)
    state: State = field(init=False)
    #: what happened since the learner's last accepted move, as sentences
    events: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state = self._part.new_state(self.tutorial.rules)
        self._run_computers()

    @property
    def _part(self) -> Part:
        return self.tutorial.parts[self.part]

    @property
    def done(self) -> bool:
        """Whether every step has been made."""
        return self.part >= len(self.tutorial.parts)

    @property
    def current(self) -> LessonStep | None:
        """The step the learner is at (None once done)."""
        if self.done:
            return None
        item = self._part.script[self.position]
        assert isinstance(item, LessonStep)
        return item

    def text(self) -> str:
        """The current step's text, or the summary at the end."""
        step = self.current
        return self.tutorial.summary(self.lang) if step is None else step.say(self.lang)

    def view(self) -> View:
        """The learner's view of the position."""
        return self.state.view(LEARNER)

    def legal(self) -> list[Action]:
        """The learner's legal moves now (a front end marks the playable cards by them)."""
        return list(self.state.legal_actions(LEARNER))

    def choices(self) -> list[Action]:
        """The moves to offer: the taught ones, other legal ones, then the rest of the hand.

        The hand's cards that cannot be played now are offered too, so that a learner can try
        one and hear the rule that forbids it.
        """
        step = self.current
        if step is None:
            return []
        if not step.do:
            return [Action(NEXT)]
        found: list[Action] = []

        def add(action: Action) -> None:
            if len(found) < MAX_CHOICES and not any(action.same_as(a) for a in found):
                found.append(action)

        for action in (*step.do, *step.offer):
            add(action)
        for action in self.state.legal_actions(LEARNER):
            add(action)
        rules = self.tutorial.rules
        for card in rules.sorted_hand(self.view()):
            if not any(a.cards == (card,) for a in found):  # a joker is offered as played
                add(Action("play", None, (card,)))
        return found

    def hint(self) -> tuple[Action, str] | None:
        """The step's hint: the move it teaches and why that move is the point of the step
        (None on a step that only explains, or once done)."""
        step = self.current
        if step is None or not step.do or step.why is None:
            return None
        return step.do[0], step.why(self.lang)

    def label(self, action: Action) -> str:
        """A button's words for a move."""
        if action.kind == NEXT:
            return _NEXT(self.lang)
        return self.tutorial.rules.action_text(action, self.lang)

    def act(self, action: Action | str) -> Answer:
        """The learner's move: applied when taught, else the reason it is not this step's."""
        step = self.current
        if step is None:
            return Answer(False, _FINISHED(self.lang))
        if isinstance(action, str):
            try:
                action = Action.parse(action)
            except IllegalAction as exc:
                return Answer(False, exc.text(self.lang))
        if not step.do:
            if action.kind != NEXT:
                return Answer(False, _READ(self.lang))
            self.events = []
            self._advance()
            return Answer(True)
        if step.teaches(action):
            self.events = []
            self._apply(LEARNER, action)
            self._advance()
            return Answer(True)
        legal = any(action.same_as(a) for a in self.state.legal_actions(LEARNER))
        if not legal:
            try:
                self.state.clone().apply(LEARNER, action)
            except IllegalAction as exc:  # the rule that forbids it, in the learner's language
                return Answer(False, exc.text(self.lang))
        assert step.why is not None
        return Answer(False, step.why(self.lang))

    def _apply(self, seat: int, action: Action) -> None:
        rules = self.tutorial.rules
        for event in self.state.apply(seat, action):
            said = rules.event_text(event.for_seat(LEARNER), self.lang)
            if said:
                self.events.append(said)

    def _advance(self) -> None:
        """Past the current step, through the computers' moves, to the next step."""
        self.position += 1
        self.step += 1
        self._run_computers()

    def _run_computers(self) -> None:
        while not self.done:
            script = self._part.script
            if self.position >= len(script):
                self.part += 1
                self.position = 0
                if not self.done:
                    self.state = self._part.new_state(self.tutorial.rules)
                continue
            item = script[self.position]
            if isinstance(item, LessonStep):
                return
            self._apply(item.seat, item.action)
            self.position += 1


_FINISHED = Text("tut-finished")
_READ = Text("tut-read")
_NEXT = Text("tut-next")


def replay(tutorial: Tutorial) -> list[str]:
    """Every way the tutorial no longer fits the engine, as sentences (empty: it fits).

    Each part is replayed from its deck: every computer move and every taught move must be
    legal when the script reaches it, the seat must be one the game is waiting for, and each
    step must come when the learner is to act. Where a step teaches several moves, the rest of
    the script is replayed after each of them.
    """
    problems: list[str] = []
    rules = tutorial.rules
    for p, part in enumerate(tutorial.parts):
        try:
            state = part.new_state(rules)
        except ValueError as exc:
            problems.append(f"part {p + 1}: {exc}")
            continue
        problems.extend(_replay_from(part, state, 0, f"part {p + 1}"))
    return problems


def _replay_from(part: Part, state: State, start: int, label: str) -> list[str]:
    """The problems of ``part``'s script from entry ``start`` on, played on ``state``."""
    for i in range(start, len(part.script)):
        item = part.script[i]
        where = f"{label} entry {i + 1}"
        if isinstance(item, LessonStep):
            if not item.do:
                continue
            if LEARNER not in state.to_act:
                return [f"{where}: the learner is not to act"]
            legal = state.legal_actions(LEARNER)
            wrong = [f"{where}: {taught} is not legal" for taught in (*item.do, *item.offer)
                     if not any(taught.same_as(a) for a in legal)]
            if wrong:
                return wrong
            found: list[str] = []
            for other in item.do[1:]:
                branch = state.clone()
                branch.apply(LEARNER, other)
                found += _replay_from(part, branch, i + 1, f"{label} (after {other})")
            if found:
                return found
            seat, action = LEARNER, item.do[0]
        else:
            seat, action = item.seat, item.action
            if seat not in state.to_act and not state.legal_actions(seat):
                return [f"{where}: seat {seat} is not to act"]
        try:
            state.apply(seat, action)
        except IllegalAction as exc:
            return [f"{where}: {seat} {action}: {exc}"]
    return []
