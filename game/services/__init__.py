"""The application's services: storage, settings, saves, statistics, replays, i18n, speech,
sessions, the daily deal and par, crash reports, the version and the headless commands.
They use the rules core (game/) and never pygame.
"""
