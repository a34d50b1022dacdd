"""Pieces the HTML reports share (``validate --html``, ``audit --html``): the row filter script
and the Content-Security-Policy hash that lets exactly that inline script run."""
from __future__ import annotations

import base64
import hashlib

__all__ = ["row_filter_script", "multi_filter_script", "script_hash"]

_ROW_FILTER = """
(function () {{
  var boxes = document.querySelectorAll('input.{box}');
  var rows = document.querySelectorAll('tr.card');
  function apply() {{
    var on = {{}};
    boxes.forEach(function (b) {{ on[b.value] = b.checked; }});
    var shown = 0;
    rows.forEach(function (r) {{
      var ks = (r.getAttribute('{attr}') || '').split(' ');
      var vis = ks.some(function (k) {{ return on[k]; }});
      r.hidden = !vis;
      if (vis) {{ shown += 1; }}
    }});
    document.getElementById('shown').textContent = String(shown);
  }}
  boxes.forEach(function (b) {{ b.addEventListener('change', apply); }});
  document.getElementById('all').addEventListener('click', function () {{
    boxes.forEach(function (b) {{ b.checked = true; }}); apply();
  }});
  document.getElementById('none').addEventListener('click', function () {{
    boxes.forEach(function (b) {{ b.checked = false; }}); apply();
  }});
  document.querySelectorAll('button.only').forEach(function (btn) {{
    btn.addEventListener('click', function () {{
      boxes.forEach(function (b) {{ b.checked = (b.value === btn.getAttribute('data-kind')); }}); apply();
    }});
  }});
  apply();
}})();
"""


def row_filter_script(box_class: str, row_attr: str) -> str:
    """The script that shows the report rows (``tr.card``) whose ``row_attr`` (space-separated
    keys) holds a key whose checkbox (``input.<box_class>``) is checked, counts them into
    ``#shown``, and wires the ``#all`` / ``#none`` buttons and any ``button.only`` (``data-kind``)."""
    return _ROW_FILTER.format(box=box_class, attr=row_attr)


_MULTI_FILTER = """
(function () {{
  var groups = {groups};
  var rows = document.querySelectorAll('tr.card');
  function apply() {{
    var on = groups.map(function (g) {{
      var o = {{}};
      document.querySelectorAll('input.' + g[0]).forEach(function (b) {{ o[b.value] = b.checked; }});
      return o;
    }});
    var shown = 0;
    rows.forEach(function (r) {{
      var vis = groups.every(function (g, i) {{
        var ks = (r.getAttribute(g[1]) || '').split(' ');
        return ks.some(function (k) {{ return on[i][k]; }});
      }});
      r.hidden = !vis;
      if (vis) {{ shown += 1; }}
    }});
    document.getElementById('shown').textContent = String(shown);
  }}
  groups.forEach(function (g) {{
    var boxes = document.querySelectorAll('input.' + g[0]);
    boxes.forEach(function (b) {{ b.addEventListener('change', apply); }});
    document.querySelectorAll('button.only[data-group="' + g[0] + '"]').forEach(function (btn) {{
      btn.addEventListener('click', function () {{
        boxes.forEach(function (b) {{ b.checked = (b.value === btn.getAttribute('data-kind')); }}); apply();
      }});
    }});
    document.querySelectorAll('button.all[data-group="' + g[0] + '"]').forEach(function (btn) {{
      btn.addEventListener('click', function () {{ boxes.forEach(function (b) {{ b.checked = true; }}); apply(); }});
    }});
  }});
  apply();
}})();
"""


def multi_filter_script(groups: list[tuple[str, str]]) -> str:
    """The script for a report filtered along several dimensions at once (the reference mode of
    ``validate --html``: by translation and by slot).  ``groups``: ``(box_class, row_attr)`` pairs
    (letters, digits, ``-`` and ``_`` only).  A row (``tr.card``) is shown when, in EVERY group,
    its ``row_attr`` (space-separated keys) holds a key whose checkbox (``input.<box_class>``) is
    checked; the shown rows are counted into ``#shown``; ``button.only`` (``data-group`` = a
    box class, ``data-kind`` = a key) checks that key alone in its group, ``button.all``
    (``data-group``) checks every key of its group.

    Raises ``ValueError`` for a class or attribute name with other characters (the names are
    written into the script)."""
    import json
    import re

    for pair in groups:
        for name in pair:
            if not re.fullmatch(r"[A-Za-z0-9_-]+", name):
                raise ValueError(f"not a plain class or attribute name: {name!r}")
    return _MULTI_FILTER.format(groups=json.dumps([list(g) for g in groups]))


def script_hash(script: str) -> str:
    """The CSP hash ``sha256-<base64>`` of an inline ``script`` (the template puts it in quotes)."""
    return "sha256-" + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
