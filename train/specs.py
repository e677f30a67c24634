"""The training layer's agent specs (``learned``, ``ppo:``, ``rllib:``), found by :func:`agents.make_agent`
through the entry-point group ``seers.agent_specs`` (``pyproject.toml``).

Each factory is ``factory(arg, seed=..., game=...) -> Agent``; ``arg`` is the text after the colon, or
``None``. They import torch (and ray) only when called.
"""

from __future__ import annotations

import math
import os
import re

from agents.base import Agent


def _check_game(spec: str, game: str) -> None:
    if game != "seers_catalog":
        from agents.specs import valid_specs

        raise ValueError(f"agent spec {spec!r} plays Seers Catalog only, not {game!r}; for {game!r} use "
                         f"{', '.join(valid_specs(game))}")


#: Games the ``learned`` spec plays (:mod:`train.game_adapters`).
LEARNED_GAMES = ("seers_catalog", "scout", "seals", "haggis")


def learned_agent(arg: str | None, seed: int | None = None, game: str = "seers_catalog") -> Agent:
    """``learned`` (the shipped model of ``game`` for the table: ``train/models/learned_<n>p.pt``,
    SCOUT ``scout_learned_<n>p.pt``, Seals ``seals_learned_<n>p.pt``, Haggis ``haggis_learned_<n>p.pt``) or
    ``learned:<model.pt>`` (:class:`train.scoring_policy.LearnedAgent`), for Seers Catalog, SCOUT, Seals or
    Haggis.

    Raises:
        ValueError: no such file, a game the learner does not serve, or
            (``train.model_config.ModelConfigError``) a model of another game (the message names both).
    """
    spec = "learned" + (f":{arg}" if arg else "")
    if game not in LEARNED_GAMES:
        raise ValueError(f"agent spec {spec!r} plays {', '.join(LEARNED_GAMES[:-1])} and {LEARNED_GAMES[-1]}, "
                         f"not {game!r}")
    from .scoring_policy import LearnedAgent

    try:
        return LearnedAgent(arg, seed=seed, game=game)
    except FileNotFoundError as err:
        raise ValueError(f"agent spec {spec!r}: {err}") from None


def ppo_agent(arg: str | None, seed: int | None = None, game: str = "seers_catalog") -> Agent:
    """``ppo:<model.zip>`` (:class:`train.ppo_agent.PPOAgent`).

    Raises:
        ValueError: a game other than Seers Catalog; the loader's errors for a bad file.
    """
    _check_game(f"ppo:{arg}", game)
    from .ppo_agent import PPOAgent

    return PPOAgent(arg, seed=seed)


def rllib_agent(arg: str | None, seed: int | None = None, game: str = "seers_catalog") -> Agent:
    """``rllib:<checkpoint dir>`` (:func:`train.rllib_agent.rllib_agent`).

    Raises:
        ValueError: a game other than Seers Catalog, or Ray RLlib not installed.
    """
    _check_game(f"rllib:{arg}", game)
    try:
        from .rllib_agent import rllib_agent as build

        return build(arg, seed=seed)
    except ImportError as err:
        raise ValueError(f"agent spec {'rllib:' + str(arg)!r} needs Ray RLlib ({err}); install it with "
                         f"pip install -e '.[distributed]'") from None


#: ``name=value`` at the start of a spec's text after the budget: an option, not a model path.
_SPEC_OPTION = re.compile(r"^\s*[A-Za-z_]+\s*=")
#: The largest ``worlds=<M>`` the ``learned+search`` spec accepts (each world costs one replay of the round).
MAX_SPEC_WORLDS = 1024


def _spec_worlds(spec: str, option: str) -> int:
    """``M`` of a spec's ``worlds=<M>`` option.

    Raises:
        ValueError: ``M`` is not an integer from 1 to :data:`MAX_SPEC_WORLDS`.
    """
    text = option.partition("=")[2].strip()
    if not re.fullmatch(r"[0-9]{1,12}", text) or not 1 <= int(text) <= MAX_SPEC_WORLDS:
        raise ValueError(f"bad worlds {text!r} in agent spec {spec!r}: an integer from 1 to {MAX_SPEC_WORLDS} "
                         f"(sampled worlds per decision), e.g. learned+search:150:worlds=64")
    return int(text)


#: The options of the ``learned+search`` spec after its budget.
_SEARCH_OPTIONS = ("worlds", "opponents", "leaf", "c_puct", "temperature")

#: The largest ``c_puct=`` and ``temperature=`` a spec takes (beyond it the priors no longer steer the tree).
MAX_SPEC_TUNING = 100.0


def _spec_number(spec: str, option: str, low_open: bool) -> float:
    """The number of a spec's ``c_puct=<x>`` (``low_open`` False: 0 allowed) or ``temperature=<t>`` (> 0)
    option.

    Raises:
        ValueError: not a decimal number in [0, :data:`MAX_SPEC_TUNING`] (``c_puct``) or
            (0, :data:`MAX_SPEC_TUNING`] (``temperature``).
    """
    name, _, text = option.partition("=")
    name, text = name.strip().lower(), text.strip()
    value = float(text) if re.fullmatch(r"[0-9]{1,6}(\.[0-9]{1,6})?|\.[0-9]{1,6}", text) else math.nan
    if not (0 < value if low_open else 0 <= value) or not value <= MAX_SPEC_TUNING:
        bound = "> 0" if low_open else ">= 0"
        raise ValueError(f"bad {name} {text!r} in agent spec {spec!r}: a decimal number {bound} and at most "
                         f"{MAX_SPEC_TUNING:g} (digits, at most 6 after the point), e.g. "
                         f"learned+search:150:c_puct=1.5:temperature=3")
    return value


def _spec_leaf(spec: str, option: str) -> str:
    """The leaf evaluation of a spec's ``leaf=<value|rollout|mixed>`` option.

    Raises:
        ValueError: not one of :data:`train.guided_search.LEAVES`.
    """
    from .guided_search import LEAVES

    text = option.partition("=")[2].strip().lower()
    if text not in LEAVES:
        raise ValueError(f"bad leaf {text!r} in agent spec {spec!r}: one of {', '.join(LEAVES)} (the value "
                         f"head, a greedy rollout, or both averaged), e.g. learned+search:150:leaf=mixed")
    return text


def _spec_opponents(spec: str, option: str) -> str:
    """The model of a spec's ``opponents=<model>`` option.

    Raises:
        ValueError: the model is not one of :data:`train.guided_search.OPPONENT_MODELS`.
    """
    from .guided_search import OPPONENT_MODELS

    text = option.partition("=")[2].strip().lower()
    if text not in OPPONENT_MODELS:
        raise ValueError(f"bad opponents {text!r} in agent spec {spec!r}: one of {', '.join(OPPONENT_MODELS)} "
                         f"(how the worlds' weights model the other seats), e.g. "
                         f"learned+search:150:worlds=64:opponents=mixture")
    return text


def learned_search_agent(arg: str | None, seed: int | None = None, game: str = "seers_catalog") -> Agent:
    """``learned+search:<iterations>`` (or ``:<seconds>s``), optionally ``:worlds=<M>``,
    ``:opponents=<model>`` and ``:leaf=<value|rollout|mixed>``, then ``:<model.pt>`` after the budget: ISMCTS guided by the play-scoring model
    (:class:`train.guided_search.GuidedSearchAgent`; the shipped model of the table when no file is
    named), for every game the ``learned`` spec plays. ``worlds=<M>`` (1 to :data:`MAX_SPEC_WORLDS`)
    searches a pool of ``M`` sampled worlds per decision weighted by the policy's likelihood of the
    round's plays (``inference="policy"``, Seers Catalog only; ``docs/guided_search.md``);
    ``opponents=mixture`` has that likelihood model each other seat as the network or as an ISMCTS
    player (``opponents=network``, the default: as the network; :class:`train.guided_search.NetworkGuide`).
    ``leaf=mixed`` values each new leaf by the mean of the value head and a greedy rollout to the round's
    end (``leaf=value``, the default: the value head alone; ``leaf=rollout``: the rollout alone).
    ``c_puct=<x>`` (default 1.5) is the PUCT exploration constant and ``temperature=<t>`` (default 3) the
    priors' softmax temperature (:class:`train.guided_search.GuidedSearchAgent`).
    The options come in any order, each at most once; text after the budget that names an existing file
    is read as the model path, not as an option.

    Raises:
        ValueError: no budget or a bad one (the message gives the forms), a bad ``worlds``, ``opponents``,
            ``leaf``, ``c_puct`` or ``temperature``, ``opponents`` without ``worlds``, an unknown or repeated ``name=value`` option,
            no such file, a game the learner does not serve, or a model of another game.
    """
    budget, _, rest = (arg or "").partition(":")
    spec = "learned+search" + (f":{arg}" if arg else "")
    if game not in LEARNED_GAMES:
        raise ValueError(f"agent spec {spec!r} plays {', '.join(LEARNED_GAMES[:-1])} and {LEARNED_GAMES[-1]}, "
                         f"not {game!r}")
    from .guided_search import LEAVES, OPPONENT_MODELS, GuidedSearchAgent, parse_budget

    kwargs = parse_budget(spec, budget)
    path = rest
    seen: list[str] = []
    kept: list[str] = []  # the options other than worlds= and opponents=, as given (for the message below)
    while _SPEC_OPTION.match(path) and not os.path.exists(path):  # name=value before the model path
        option, _, path = path.partition(":")
        name = option.partition("=")[0].strip().lower()
        if name not in _SEARCH_OPTIONS or name in seen:
            raise ValueError(f"{'repeated' if name in seen else 'unknown'} option {option!r} in agent spec "
                             f"{spec!r}: the options after the budget are worlds=<M>, "
                             f"opponents=<{'|'.join(OPPONENT_MODELS)}>, leaf=<{'|'.join(LEAVES)}>, "
                             f"c_puct=<x> and temperature=<t>, each at most once, then optionally "
                             f"the model path, e.g. learned+search:150:worlds=64:opponents=mixture")
        seen.append(name)
        if name not in ("worlds", "opponents"):
            kept.append(option.strip())
        if name == "worlds":
            kwargs["worlds"], kwargs["inference"] = _spec_worlds(spec, option), "policy"
        elif name == "leaf":
            kwargs["leaf"] = _spec_leaf(spec, option)
        elif name in ("c_puct", "temperature"):
            kwargs[name] = _spec_number(spec, option, low_open=name == "temperature")
        else:
            kwargs["opponents"] = _spec_opponents(spec, option)
    if kwargs.keys() & {"worlds", "opponents"} and game != "seers_catalog":
        plain = ":".join([f"learned+search:{budget}", *kept] + ([path] if path else []))
        raise ValueError(f"agent spec {spec!r}: worlds= and opponents= weigh worlds by replaying the round, "
                         f"which only Seers Catalog's determinizer does; use {plain} for {game!r}")
    if "opponents" in kwargs and "worlds" not in kwargs:
        raise ValueError(f"agent spec {spec!r}: opponents= models the other seats in the weights of "
                         f"worlds=<M>; give both, e.g. learned+search:150:worlds=64:opponents=mixture")
    try:
        return GuidedSearchAgent(model=path or None, seed=seed, game=game, **kwargs)
    except FileNotFoundError as err:
        raise ValueError(f"agent spec {spec!r}: {err}") from None
