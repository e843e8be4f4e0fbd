"""The pgvector test server computes distances, and says so plainly when it cannot.

A vector.so built for another CPU starts fine and dies on the first distance;
these tests keep that from showing up as a hundred lost connections.
"""

from __future__ import annotations

import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import make_conninfo

from tests.store.pg_servers import (
    DISTANCE_QUERY,
    DistanceQueryError,
    TestServers,
    check_distance_query,
)


def test_the_pgvector_server_answers_every_distance_and_an_hnsw_search(
    postgres_servers: TestServers,
) -> None:
    admin = postgres_servers.admin_dsn("pgvector")
    check_distance_query(admin)  # raises DistanceQueryError, with the reason, when it cannot
    name = "somna_hnsw_check"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        with psycopg.connect(make_conninfo(admin, dbname=name), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION vector")
            conn.execute("CREATE TABLE points (id int PRIMARY KEY, v vector(3))")
            conn.execute(
                "INSERT INTO points SELECT i, ARRAY[i, i * 2, 1]::real[]::vector "
                "FROM generate_series(1, 200) AS i"
            )
            conn.execute("CREATE INDEX ON points USING hnsw (v vector_cosine_ops)")
            conn.execute("SET enable_seqscan = off")
            plan = " ".join(
                str(row[0])
                for row in conn.execute(
                    "EXPLAIN SELECT id FROM points ORDER BY v <=> '[1,2,0]' LIMIT 3"
                ).fetchall()
            )
            nearest = conn.execute(
                "SELECT id FROM points ORDER BY v <=> '[1,2,0]' LIMIT 1"
            ).fetchone()
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )
    assert "points_v_idx" in plan
    assert nearest == (200,)  # the point whose direction is closest to (1, 2, 0)


def test_a_server_that_cannot_run_a_distance_is_named_in_one_readable_message(
    postgres_servers: TestServers,
) -> None:
    if postgres_servers.override is not None:
        pytest.skip("SOMNA_TEST_PG_DSN replaces the pgvector-less server this test needs")
    # The machine's PostgreSQL has no pgvector: the check must explain, not crash.
    with pytest.raises(DistanceQueryError) as caught:
        check_distance_query(postgres_servers.admin_dsn("array"))
    message = str(caught.value)
    assert DISTANCE_QUERY in message
    assert "SOMNA_TEST_PG_DSN" in message
    assert "\n" not in message.strip()
