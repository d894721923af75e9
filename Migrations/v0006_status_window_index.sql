-- `journal status` reads the caffeine and time of every live drink of its window (24 half-lives): with
-- both in the index, it reads a few index pages instead of every drink's row (on a 100,000-drink
-- journal, about 10 pages instead of 1,300). The index replaces the one on time alone, which it serves
-- too (`list` orders by time), so a write still updates one index of the kind.
DROP INDEX drinks_live_by_time;
CREATE INDEX drinks_live_by_time ON drinks (consumed_at, caffeine_mg) WHERE deleted = 0;
