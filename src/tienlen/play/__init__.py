"""The play layer: a person's game against bots, apart from any screen.

:mod:`.controller` says what the human is asked, lets the bots act and words every action; the
full-screen game (:mod:`tienlen.tui`), the line-by-line game (:mod:`tienlen.lineplay`) and the
command line's replay text are its front ends. It needs no third-party package.
"""
