"""lessonkit: the engines behind the course's executable lessons on agent context management.

Each lesson has a pure engine module (no I/O, no clock, no randomness) over a validated fixture,
and a panel that turns the engine's state into what the page shows. The same code runs at build
time, in the reader's browser under Pyodide, and under the tests.
"""

__version__ = "0.1.0"
