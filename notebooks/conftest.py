"""``pytest --nbmake notebooks`` runs the source notebooks only: the copies in ``executed/`` (written by
``notebooks/execute.py``) hold the same cells with their outputs."""

collect_ignore = ["executed"]
