"""The club server: the table server, its club, lobby, play loop, store and web pages, and
its cluster (Redis and PostgreSQL). Pure Python.
"""
