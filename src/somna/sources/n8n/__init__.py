"""The n8n / LangChain chat table: new rows imported incrementally, cut into sessions, purged.

n8n's Postgres chat memory (like LangChain's `PostgresChatMessageHistory`) keeps
one table, `n8n_chat_histories (id serial, session_id varchar, message jsonb)`:
no time column, and often one `session_id` per user that never ends. Somna
reads it with watermarks:

- **Watermarks.** For every source `session_id`, a `SourceCursor` in Somna's own
  store holds the highest row id read and when Somna first saw that row
  (`last_change_seen_at`). An import reads only the rows above each watermark,
  stamps every new row with the time it first sees it, and moves the watermark
  in the store transaction that adds the messages: a row is never imported
  twice, and two imports of one source at once fail rather than duplicate.
- **Sessions.** The rows of one `session_id` are cut into Somna sessions keyed
  `<session_id>#<n>`: a burst of rows followed by `idle_hours` without a new
  row is one session, which consolidation takes once it is that quiet; rows
  that arrive later open `#<n+1>` (and so does any row once `#<n>` has been
  consolidated). Each message keeps its origin in its meta:
  `{"source": "n8n", "row_id": 42, "session_id": "..."}`.
- **Purge**, only when asked: the rows of a session that Somna has archived
  (consolidated) are deleted from the source table, one transaction per
  session. Otherwise the source is only read, in READ ONLY transactions.

Every row shape n8n and LangChain write is read as what it is, and counted by
kind (`RowKind`): what the user said, the agent's reply, an agent's tool call
(AI Agent 3.x writes it with `"content": []` and `tool_calls`), a tool's
result, a system message. Tool calls and results are kept for provenance and
left out of extraction. Malformed rows (a message that is null, not a JSON
object, of an unknown type, or a said message without text) are skipped and
counted, never fatal. The source table may be
on any Postgres server, whatever Somna's own store is (SQLite included).
Import it on a schedule more often than `idle_hours`: rows are stamped when an
import first sees them, so a long gap between imports reads as a pause.

The import writes through the `Store` port (the cursors must move in the
messages' transaction), which is more than the other sources, pure readers, do.
"""

from somna.sources.n8n.importer import N8nImport, N8nReport
from somna.sources.n8n.messages import ChatMessage, RowKind, SourceRow, read_chat_message
from somna.sources.n8n.names import ProfileFrom, node_suffix, session_key, without_node_name
from somna.sources.n8n.table import DEFAULT_TABLE, N8nTable

__all__ = [
    "DEFAULT_TABLE",
    "ChatMessage",
    "N8nImport",
    "N8nReport",
    "N8nTable",
    "ProfileFrom",
    "RowKind",
    "SourceRow",
    "node_suffix",
    "read_chat_message",
    "session_key",
    "without_node_name",
]
