"""The pattern catalog, as data: ``<lang>/*.yaml`` (patterns), ``terms/`` (terminology tables),
``cues/`` (loose wording).  Edited here; installed as the package ``extractor.catalog`` (see
``pyproject.toml``) and read through :data:`extractor.normalize.common.PATTERNS_DIR`."""
