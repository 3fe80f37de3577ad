-- library.sql - the per-user summary library, version 1
--
-- SPDX-License-Identifier: GPL-3.0-or-later
--
-- Every summary Hotpath writes into a capture is also written here, so
-- that a later capture of the same program can offer it (the window's
-- "summaries from earlier captures" banner). The capture stays the
-- self-contained record; this file is a convenience, and losing it loses
-- no capture's data. It lives at $XDG_DATA_HOME/hotpath/summaries.db
-- (~/.local/share/hotpath/summaries.db), one per user, and is compiled
-- into Hotpath (hp_summary_library_sql), which runs it when it creates
-- the file.
--
--   PRAGMA application_id = 1213223756   -- 0x4850534c, "HPSL"
--   PRAGMA user_version   = 1            -- this format version
--
-- Hotpath reads it as it reads a capture, as a file that may be anything:
-- another program's database, a corrupt one, one locked by another
-- Hotpath, one of a newer version. Then it says so, as a warning, and
-- goes on without the library (src/store/hp-summary-library.c).

-- summaries: the latest text of each call path of each program. A summary
-- copied from another capture (an import, placed or "not found in this
-- capture") is stored too, unless the row of its path was updated later:
-- an old capture's text never replaces a newer one.
--   program   base name of the profiled executable ("demo")
--   path_key, path, text, created, updated, capture, share: as in a
--             capture's summaries table (schema.sql); capture is the
--             capture the text was written in, share the path's share of
--             its samples then (percent, NULL when unknown)
CREATE TABLE summaries (
  program  TEXT NOT NULL,
  path_key TEXT NOT NULL,
  path     TEXT NOT NULL,
  text     TEXT NOT NULL,
  created  TEXT NOT NULL,
  updated  TEXT NOT NULL,
  capture  TEXT,
  share    REAL,
  PRIMARY KEY (program, path_key)
);
