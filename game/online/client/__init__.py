"""The clients of a club server: the window's links and sessions, the headless players and
the spectator's feed. Pure Python.
"""
