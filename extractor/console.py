"""rich's Console for what a command prints on standard output (``explain``, ``query --table``),
with the command line's broken-pipe rule."""
from __future__ import annotations

from rich.console import Console


class PipeConsole(Console):
    """A :class:`rich.console.Console` whose reader may go away (``explain ... | head``).

    rich's own ``on_broken_pipe`` ends the process with ``SystemExit(1)``; this one raises the
    ``BrokenPipeError`` as any other write to standard output does, so the command line ends as
    it does for ``tag ... | head``: status 0 and no message (``extractor.cli._Main.invoke``).  A
    rich without the hook (before 13.4) raises the error itself: the same end.

    Raises:
        BrokenPipeError: standard output was closed by its reader.
    """

    def on_broken_pipe(self) -> None:
        self.quiet = True  # print nothing more
        raise BrokenPipeError(32, "Broken pipe")
