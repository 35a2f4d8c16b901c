-- Statistics (API.md §14.5), from records the server keeps: who was active on a day (UTC: a user
-- who connected or sent), and the most sockets open at once on a day, sampled by every instance.
CREATE TABLE daily_active_users (
    day     date NOT NULL,
    user_id text COLLATE "C" NOT NULL,
    PRIMARY KEY (day, user_id)
);

CREATE TABLE connection_peaks (
    day  date PRIMARY KEY,
    peak integer NOT NULL
);
