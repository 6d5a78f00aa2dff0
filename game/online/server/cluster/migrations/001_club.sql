-- The club's players, ratings, finished matches and manners (as DIR/players.sqlite3 on one machine).
CREATE TABLE players (
    id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL, folded TEXT NOT NULL UNIQUE,
    secret_sha256 TEXT NOT NULL UNIQUE, recovery_sha256 TEXT NOT NULL, created DOUBLE PRECISION NOT NULL);
CREATE TABLE ratings (
    subject TEXT NOT NULL, game TEXT NOT NULL, mu DOUBLE PRECISION NOT NULL, sigma DOUBLE PRECISION NOT NULL,
    matches INTEGER NOT NULL, PRIMARY KEY (subject, game));
CREATE TABLE matches (
    code TEXT PRIMARY KEY, game TEXT NOT NULL, preset TEXT, rated BOOLEAN NOT NULL,
    finished DOUBLE PRECISION NOT NULL, summary JSONB NOT NULL);
CREATE TABLE match_players (
    code TEXT NOT NULL REFERENCES matches (code), player BIGINT NOT NULL, seat INTEGER NOT NULL,
    result TEXT NOT NULL, old DOUBLE PRECISION, new DOUBLE PRECISION, PRIMARY KEY (code, seat));
CREATE INDEX match_players_by_player ON match_players (player, code);
CREATE INDEX ratings_board ON ratings (game, matches);
CREATE TABLE blocks (player BIGINT NOT NULL, other BIGINT NOT NULL, PRIMARY KEY (player, other));
CREATE INDEX blocks_by_other ON blocks (other);
CREATE TABLE reports (
    id BIGSERIAL PRIMARY KEY, reporter BIGINT NOT NULL, reported BIGINT NOT NULL, code TEXT,
    reason TEXT NOT NULL, at DOUBLE PRECISION NOT NULL);
