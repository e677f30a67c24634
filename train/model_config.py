"""What a model file was trained for, and the check that it fits the place it is used.

A model trained for one table (players, artifact deck) and one input encoding (observation or feature
version, action catalogue) gives wrong or meaningless actions elsewhere. Every model file the project writes
carries a :class:`ModelConfig`, and every load checks it with :func:`check_model_config`, which raises one
:class:`ModelConfigError` naming both sides.

Small API, meant to be reused by every learner:

- :class:`ModelConfig`: ``algorithm``, ``n_players``, ``artifact_deck``, ``feature_version``,
  ``catalogue_version``, ``game``; ``to_dict()`` / ``from_dict()`` (JSON-safe).
- :func:`save_model_config(path, config) <save_model_config>`: attach it to a model file (inside a
  ``.zip`` archive such as stable-baselines3's or ``torch.save``'s, else a sidecar ``<file>.config.json``).
- :func:`load_model_config(path) <load_model_config>`: read it back (``None`` when the file has none).
- :func:`check_model_config(trained, source=..., n_players=..., ...) <check_model_config>`: compare with
  the intended use; ``allow_off_config=True`` turns a players / artifact-deck mismatch into one warning.

Example::

    cfg = ModelConfig("maskable_ppo", n_players=4, artifact_deck=deck, feature_version=OBSERVATION_VERSION)
    model.save(path); save_model_config(path, cfg)
    ...
    check_model_config(load_model_config(path), source=path, n_players=3, artifact_deck=deck)
    # ModelConfigError: model 'runs/a/model.zip' was trained for n_players=4, used with n_players=3 ...
"""

from __future__ import annotations

import json
import os
import warnings
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Version of the flat observation :func:`seers_env.observation.observe` (``OBSERVATION_LAYOUT``); bump it
#: whenever the layout or the meaning of an entry changes.
OBSERVATION_VERSION = "observation-v1"
#: Version of the action catalogue :mod:`seers_env.actions` (environment ``seers_catalog_v0``); bump it
#: whenever an action id changes meaning.
CATALOGUE_VERSION = "catalogue-v0"
#: Name of the entry inside a ``.zip`` model file, and the suffix of a sidecar file.
ENTRY_NAME = "seers_model_config.json"
SIDECAR_SUFFIX = ".config.json"

#: Fields a deliberate off-configuration use may differ in (``allow_off_config=True``); the others make the
#: model's inputs or outputs meaningless and always raise.
OFF_CONFIG_FIELDS = ("n_players", "artifact_deck")
_FIELDS = ("game", "algorithm", "n_players", "artifact_deck", "feature_version", "catalogue_version")
#: The game of a file that records none (files written before SCOUT was served).
DEFAULT_GAME = "seers_catalog"


class ModelConfigError(ValueError):
    """A model file does not fit the use it is loaded for (the message names both sides)."""


class ModelConfigWarning(UserWarning):
    """A model is used off its training configuration on purpose (``allow_off_config=True``)."""


@dataclass(frozen=True)
class ModelConfig:
    """What a model was trained for.

    Attributes:
        algorithm: the learner that wrote the file, e.g. ``"maskable_ppo"``.
        n_players: players at the training table, 2..5.
        artifact_deck: artifact kinds in the deck (``seers_env.GameConfig.artifact_deck``); ``()`` for the
            variant without artifacts.
        feature_version: version of the model's input encoding, e.g. :data:`OBSERVATION_VERSION`; ``None``
            when unknown (older files), then it is not checked.
        catalogue_version: version of the action catalogue the outputs index (:data:`CATALOGUE_VERSION`), or
            ``None`` for a model whose outputs are not catalogue actions.
        game: the game the model plays, a name of :data:`seers_env.games.GAMES` (``"seers_catalog"``,
            ``"scout"``); files without one are Seers Catalog models.

    Raises:
        ValueError: ``n_players`` outside 2..5 or a field of the wrong type.
    """

    algorithm: str
    n_players: int
    artifact_deck: tuple[str, ...]
    feature_version: str | None = OBSERVATION_VERSION
    catalogue_version: str | None = CATALOGUE_VERSION
    game: str = DEFAULT_GAME

    def __post_init__(self) -> None:
        if not isinstance(self.algorithm, str) or not self.algorithm:
            raise ValueError(f"algorithm={self.algorithm!r} must be a non-empty string, e.g. 'maskable_ppo'")
        if isinstance(self.n_players, bool) or self.n_players not in (2, 3, 4, 5):
            raise ValueError(f"n_players={self.n_players!r} is not allowed; choose one of 2, 3, 4, 5")
        if isinstance(self.artifact_deck, str):
            raise ValueError(f"artifact_deck={self.artifact_deck!r} must be a sequence of artifact kinds")
        if not isinstance(self.game, str) or not self.game:
            raise ValueError(f"game={self.game!r} must be a game name, e.g. 'seers_catalog' or 'scout'")
        object.__setattr__(self, "n_players", int(self.n_players))
        object.__setattr__(self, "artifact_deck", tuple(str(k) for k in self.artifact_deck))
        for key in ("feature_version", "catalogue_version"):
            value = getattr(self, key)
            if value is not None and not isinstance(value, str):
                raise ValueError(f"{key}={value!r} must be a string or None")

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict (``artifact_deck`` as a list)."""
        return {"algorithm": self.algorithm, "n_players": self.n_players,
                "artifact_deck": list(self.artifact_deck), "feature_version": self.feature_version,
                "catalogue_version": self.catalogue_version, "game": self.game}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ModelConfig:
        """Inverse of :meth:`to_dict`; unknown keys are ignored (files of later versions).

        Raises:
            ValueError: ``d`` is not a dict, lacks ``algorithm``, ``n_players`` or ``artifact_deck``, or has
                a bad value.
        """
        if not isinstance(d, dict):
            raise ValueError(f"a model configuration must be a JSON object, got {type(d).__name__}")
        missing = [k for k in ("algorithm", "n_players", "artifact_deck") if k not in d]
        if missing:
            raise ValueError(f"model configuration with the keys {sorted(map(str, d))[:20]} lacks {', '.join(missing)}")
        return cls(**{k: d[k] for k in _FIELDS if k in d})

    def describe(self) -> str:
        """One line, e.g. ``"maskable_ppo, 4 players, 7 artifacts, observation-v1, catalogue-v0"``; a game
        other than Seers Catalog is named first and has no artifacts part (``"SCOUT, play_scoring, 3
        players, scout-play-features-v1, no catalogue"``)."""
        tail = f"{self.feature_version or 'unknown features'}, {self.catalogue_version or 'no catalogue'}"
        if self.game != DEFAULT_GAME:
            return f"{_game_title(self.game)}, {self.algorithm}, {self.n_players} players, {tail}"
        deck = f"{len(self.artifact_deck)} artifacts" if self.artifact_deck else "no artifacts"
        return f"{self.algorithm}, {self.n_players} players, {deck}, {tail}"


def save_model_config(path: str | os.PathLike, config: ModelConfig) -> None:
    """Attach ``config`` to the model file at ``path``.

    A flat ``.zip`` archive (stable-baselines3's ``model.save``) gets an entry :data:`ENTRY_NAME`, so the
    configuration travels with the file; any other file gets a sidecar ``<path>.config.json`` (also a
    ``torch.save`` archive, which ``torch.load`` refuses once it holds a foreign entry; such a learner may
    instead store ``config.to_dict()`` inside its saved object). Call it right after saving the model.

    Raises:
        FileNotFoundError: no file at ``path``.
    """
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"no model file at {str(p)!r} to attach a model configuration to")
    text = json.dumps(config.to_dict(), indent=1, allow_nan=False)
    if _flat_zip(p):
        with zipfile.ZipFile(p) as zf:
            present = ENTRY_NAME in zf.namelist()
        if present:  # rewrite the archive without the old entry (zip has no delete)
            tmp = p.with_name(p.name + ".tmp")
            with zipfile.ZipFile(p) as src, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as dst:
                for item in src.infolist():
                    if item.filename != ENTRY_NAME:
                        dst.writestr(item, src.read(item.filename))
                dst.writestr(ENTRY_NAME, text)
            os.replace(tmp, p)
        else:
            with zipfile.ZipFile(p, "a", zipfile.ZIP_DEFLATED) as zf:
                zf.writestr(ENTRY_NAME, text)
    else:
        Path(str(p) + SIDECAR_SUFFIX).write_text(text)


def _flat_zip(p: Path) -> bool:
    """A zip archive whose entries are all top-level (stable-baselines3's layout, not torch's)."""
    if not zipfile.is_zipfile(p):
        return False
    with zipfile.ZipFile(p) as zf:
        return all("/" not in name for name in zf.namelist())


def load_model_config(path: str | os.PathLike) -> ModelConfig | None:
    """The :class:`ModelConfig` of the model file at ``path``, or ``None`` when none is recorded.

    Looked up in order: the entry inside a ``.zip`` archive, a sidecar ``<path>.config.json``, then (files
    written before model configurations existed) the ``config.json`` of the ``seers train`` run folder the
    file sits in (``runs/<run>/model.zip``, ``.../checkpoints/*.zip``, ``.../snapshots/*.zip``).

    Raises:
        FileNotFoundError: no file at ``path``.
        ValueError: a recorded configuration that cannot be read (the message names the file).
    """
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"no model file at {str(p)!r}")
    try:
        text = None
        from .model_files import check_zip_sizes, read_bounded

        if zipfile.is_zipfile(p):
            with zipfile.ZipFile(p) as zf:
                if ENTRY_NAME in zf.namelist():
                    check_zip_sizes(p, zf)  # before anything is unpacked
                    text = zf.read(ENTRY_NAME).decode("utf-8")
        sidecar = Path(str(p) + SIDECAR_SUFFIX)
        if text is None and sidecar.is_file():
            text = read_bounded(sidecar, "model configuration").decode("utf-8")
        if text is not None:
            from seers_env.jsonio import loads_strict

            return ModelConfig.from_dict(loads_strict(text))
        return _from_run_folder(p)
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError, UnicodeDecodeError,
            zipfile.BadZipFile) as err:
        raise ValueError(f"model file {str(p)!r} has an unreadable model configuration: {err}") from None


def _from_run_folder(p: Path) -> ModelConfig | None:
    """A legacy run folder's ``config.json`` (``{"config": TrainConfig.to_dict(), "obs_dim": ...}``)."""
    for folder in (p.parent, p.parent.parent):
        cfg = folder / "config.json"
        if not cfg.is_file():
            continue
        from seers_env.jsonio import read_json_file

        d = read_json_file(cfg, "run configuration", strict=False)
        if not isinstance(d, dict):
            raise ValueError(f"run configuration {str(cfg)!r} is a JSON {type(d).__name__}, not an object")
        if "model_config" in d:
            return ModelConfig.from_dict(d["model_config"])
        c = d.get("config", {})
        if not isinstance(c, dict) or "n_players" not in c:
            return None
        from seers_env import DEFAULT_ARTIFACT_DECK

        deck = tuple(DEFAULT_ARTIFACT_DECK) if c.get("artifacts", True) else ()
        return ModelConfig("maskable_ppo", n_players=c["n_players"], artifact_deck=deck, feature_version=None)
    return None


_WARNED: set[tuple[str, str]] = set()


def check_model_config(trained: ModelConfig | None, *, source: str | os.PathLike,
                       algorithm: str | None = None, n_players: int | None = None,
                       artifact_deck: tuple[str, ...] | list[str] | None = None,
                       feature_version: str | None = None, catalogue_version: str | None = None,
                       game: str | None = None, allow_off_config: bool = False) -> None:
    """Check that a model trained for ``trained`` fits the intended use given by the keywords.

    Only the keywords given (not ``None``) are compared; a ``None`` field of ``trained`` (unknown in an
    older file) is not. ``artifact_deck`` is compared as a multiset of kinds (order does not matter).

    Args:
        trained: the model's configuration (:func:`load_model_config`); ``None`` (nothing recorded) passes.
        source: the model file, for the messages.
        algorithm, n_players, artifact_deck, feature_version, catalogue_version, game: the intended use.
        allow_off_config: play deliberately at another table: a different ``n_players`` or
            ``artifact_deck`` gives one :class:`ModelConfigWarning` per model file and difference instead
            of an error. Game, algorithm, feature and catalogue versions must always match.

    Raises:
        ModelConfigError: (a ``ValueError``) one message listing every difference, each as
            ``"<field>: trained <value>, used <value>"``, and naming the file.
    """
    if trained is None:
        return
    use = {"game": game, "algorithm": algorithm, "n_players": n_players,
           "artifact_deck": None if artifact_deck is None else tuple(artifact_deck),
           "feature_version": feature_version, "catalogue_version": catalogue_version}
    hard, soft = [], []
    for key in _FIELDS:
        want, have = use[key], getattr(trained, key)
        if want is None or have is None:
            continue
        same = sorted(want) == sorted(have) if key == "artifact_deck" else want == have
        if not same:
            line = f"{key}: trained {_show(key, have)}, used {_show(key, want)}"
            (soft if key in OFF_CONFIG_FIELDS else hard).append(line)
    if hard or (soft and not allow_off_config):
        hint = "" if hard else "; from Python, load it with allow_off_config=True to play it there on purpose"
        raise ModelConfigError(f"model {str(source)!r} does not fit this use ({'; '.join(hard + soft)}): it was "
                               f"trained for {trained.describe()}{hint}")
    for line in soft:
        key = (str(source), line)
        if key not in _WARNED:
            _WARNED.add(key)
            warnings.warn(f"model {str(source)!r} is played off its training configuration ({line})",
                          ModelConfigWarning, stacklevel=2)


def _game_title(name: str) -> str:
    """A game's printed name (:data:`seers_env.games.GAMES`), or the name itself when unknown."""
    from seers_env.games import GAMES

    spec = GAMES.get(name)
    return spec.title if spec is not None else name


def _show(key: str, value: Any) -> str:
    if key == "game":
        return f"{value!r} ({_game_title(value)})"
    if key == "artifact_deck":
        if not value:
            return "no artifacts"
        counts = {k: value.count(k) for k in dict.fromkeys(value)}  # first-appearance order
        return f"[{', '.join(k if n == 1 else f'{k} x{n}' for k, n in counts.items())}]"
    return repr(value)
