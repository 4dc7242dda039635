"""`make bench` (`python -m bench.run`): the site in Chromium, the engines in CPython and the build, measured.

One package, so the bench and the tests that count what it times (tests/test_engine_growth.py)
import its modules under the same names: the same module objects, the same code.
"""
