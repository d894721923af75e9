-- `journal undo` takes back every change a command made here, drinks of one's own included, and
-- `journal redo` puts back what undo took (docs/DESIGN.md, "Undo and redo").
--
-- Each entry is now of a kind of record (record_kind: a segment key, 'drinks' or 'kinds') named by
-- record_key (a drink's id, a custom drink's name); the before_ columns hold what the kind keeps
-- (a custom drink: its name and caffeine), all NULL when the change created the record. An entry
-- with undone = 1 belongs to a change undo took back: its before_ columns then hold what redo puts
-- back, and after_hlc the clock undo wrote. SQLite changes a primary key only by making the table
-- anew; without a rowid, the key is the table, and an entry is written to one b-tree fewer.
CREATE TABLE undo_log_v16 (
    change_id          INTEGER NOT NULL,
    action             TEXT NOT NULL,                        -- add, rm, edit, import, drinks add, drinks rm
    record_kind        TEXT NOT NULL,
    record_key         TEXT NOT NULL,
    before_kind        TEXT,
    before_caffeine_mg REAL,
    before_consumed_at INTEGER,
    before_note        TEXT,
    before_deleted     INTEGER,
    after_hlc          INTEGER NOT NULL,                     -- the clock the change wrote: undo refuses if it moved
    undone             INTEGER NOT NULL DEFAULT 0 CHECK (undone IN (0, 1)),
    PRIMARY KEY (change_id, record_kind, record_key)
) STRICT, WITHOUT ROWID;

INSERT INTO undo_log_v16 (change_id, action, record_kind, record_key, before_kind, before_caffeine_mg,
    before_consumed_at, before_note, before_deleted, after_hlc)
SELECT change_id, action, 'drinks', drink_id, before_kind, before_caffeine_mg, before_consumed_at, before_note,
    before_deleted, after_hlc
FROM undo_log;

DROP TABLE undo_log;
ALTER TABLE undo_log_v16 RENAME TO undo_log;

-- Undo and redo look up a record's neighbouring changes.
CREATE INDEX undo_log_by_record ON undo_log (record_kind, record_key, change_id);
