{#- What several tables of the migrations write alike, imported by them. SQLite keeps
    a table's text as written, so these render it byte for byte as the tables first
    were: hence `pad`, the spaces that align a table's column names. -#}

{#- The columns of a message, kept as they are when it is archived: `messages`
    (0001) and `archived_messages` (0002); SQLite never checked an archived
    message's role. #}
{% macro message_columns(pad, check_role) %}
    id{{ pad }}          {{ text }} PRIMARY KEY,
    session_id{{ pad }}  {{ text }} NOT NULL{% if sqlite %} REFERENCES sessions (id) ON DELETE CASCADE{% endif %},
    profile_id{{ pad }}  {{ text }} NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    seq{{ pad }}         {{ integer }} NOT NULL,
{% if check_role %}
    role{{ pad }}        {{ text }} NOT NULL CHECK (role IN ('user', 'assistant', 'system', 'tool')),
{% else %}
    role{{ pad }}        {{ text }} NOT NULL,
{% endif %}
    content{{ pad }}     {{ text }} NOT NULL,
    created_at{{ pad }}  {{ timestamp }} NOT NULL,
    meta{{ pad }}        {{ json }} NOT NULL DEFAULT '{}',
{%- endmacro %}

{#- The first columns of a row about a fact, `evidence` and `fact_events` (0001): its
    id, its fact and its profile; on Postgres also `seq`, the insertion order that
    SQLite gets from rowid. #}
{% macro fact_row_columns(pad) %}
    id{{ pad }}          {{ text }} PRIMARY KEY,
{% if postgres %}
    seq{{ pad }}         bigint GENERATED ALWAYS AS IDENTITY,
{% endif %}
    fact_id{{ pad }}     {{ text }} NOT NULL{% if sqlite %} REFERENCES facts (id) ON DELETE CASCADE{% endif %},
    profile_id{{ pad }}  {{ text }} NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
{%- endmacro %}

{#- SQLite's full text of `table`: an FTS5 index of its `text`, kept by triggers;
    an update trigger only where the text can change. #}
{% macro fts5(table, text_changes) %}
CREATE VIRTUAL TABLE {{ table }}_fts USING fts5 (
    text,
    content = '{{ table }}',
    content_rowid = 'rowid',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER {{ table }}_fts_insert AFTER INSERT ON {{ table }} BEGIN
    INSERT INTO {{ table }}_fts (rowid, text) VALUES (new.rowid, new.text);
END;
CREATE TRIGGER {{ table }}_fts_delete AFTER DELETE ON {{ table }} BEGIN
    INSERT INTO {{ table }}_fts ({{ table }}_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
END;
{% if text_changes %}
CREATE TRIGGER {{ table }}_fts_update AFTER UPDATE OF text ON {{ table }} BEGIN
    INSERT INTO {{ table }}_fts ({{ table }}_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
    INSERT INTO {{ table }}_fts (rowid, text) VALUES (new.rowid, new.text);
END;
{% endif %}
{%- endmacro %}
