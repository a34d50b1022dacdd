"""The guard against runaway pattern searches (a CPU-time limit per :meth:`Catalog.run` call)."""
from __future__ import annotations

import _signal
import signal
import threading
from typing import Any

REGEX_TIMEOUT = 1.0  # seconds per Catalog.run call: a guard against runaway patterns


# The guard.  ``regex``'s own ``timeout=`` costs ~1.8 us per call (more than most searches take), so
# in the main thread one CPU-time timer (``ITIMER_VIRTUAL`` / ``SIGVTALRM``) is armed per
# ``Catalog.run`` call instead: ``regex`` checks for signals while it matches, so the handler's
# TimeoutError stops a runaway search.  Elsewhere (other threads, no ``setitimer``, or another
# handler already owns SIGVTALRM) every search gets ``timeout=REGEX_TIMEOUT`` as before.
_TIMER = getattr(signal, "ITIMER_VIRTUAL", None)
_SIGNAL = getattr(signal, "SIGVTALRM", None)
_MAIN_THREAD = threading.main_thread().ident
_setitimer = getattr(signal, "setitimer", None)


class _Alarm:
    armed = False


def _on_alarm(signum: int, frame: Any) -> None:
    if _Alarm.armed:
        _Alarm.armed = False
        raise TimeoutError(f"regex search over {REGEX_TIMEOUT} s")


def _arm() -> bool:
    """Arm the timer; False when the per-search ``timeout=`` must be used instead."""
    if _TIMER is None or threading.get_ident() != _MAIN_THREAD:
        return False
    handler = _signal.getsignal(_SIGNAL)  # (signal.getsignal wraps this in an enum: slower)
    if handler is not _on_alarm:
        if handler != signal.SIG_DFL or signal.getitimer(_TIMER) != (0.0, 0.0):
            return False  # someone else uses the timer
        signal.signal(_SIGNAL, _on_alarm)
    _Alarm.armed = True
    _setitimer(_TIMER, REGEX_TIMEOUT)
    return True


def _disarm() -> None:
    # (the timer must be stopped, not only the guard: a timer left running would fire after the
    # handler is gone, at interpreter exit, and SIGVTALRM's default action ends the process)
    _Alarm.armed = False
    _setitimer(_TIMER, 0)
