"""Events on the club (docs/ONLINE.md, "Events"): the tournament of the day (tourday), arenas
(arena), Swiss tournaments (swiss) and challenges (challenges), with quotas (quotas), their
deals (deals) and their storage (store: SQLite on one process; pgstore: PostgreSQL on the
cluster).

Pure logic over a store: no network, no window, no clock of its own (every call is given the
time, or a clock to read). The server's tables, messages and pages are wired elsewhere.
"""
