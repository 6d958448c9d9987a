-- SPDX-License-Identifier: GPL-2.0
-- The tables each shard holds (README.md): run on every server of the
-- cluster, clickhouse-client --multiquery < schema/local.sql.  Plain
-- MergeTree; with replicas, ReplicatedMergeTree('/clickhouse/tables/
-- {shard}/latencytop/waits', '{replica}') in its place.  Types that
-- ClickHouse 18.16 (Debian 12's) has: newer servers may prefer
-- LowCardinality(String) for kind, state, dropped, kernel and uname.

CREATE DATABASE IF NOT EXISTS latencytop;

-- A row per wait: latency-analyze --format=waits-jsonl's columns
-- (docs/report-schema.md), after what lt-clickhouse-load adds.
CREATE TABLE IF NOT EXISTS latencytop.waits_local
(
    host String,                -- the machine (--host)
    trace String,               -- the trace's name (--trace: its file's)
    day Date,                   -- the day it was recorded (--day)
    uname String,               -- the trace's uname
    kernel String,              -- its release (uname's third word)
    trace_id String,            -- the report's trace.id
    pid Int32,                  -- process (thread-group leader)
    tid Int32,                  -- thread
    comm String,                -- the thread's name
    kernel_thread UInt8,        -- 1: the global table leaves it out (no -k)
    reason String,              -- the cause, charged or not
    argument String,
    kind String,                -- annotated, translated, function, unknown, scheduler
    state String,               -- S, D, I blocked; R waiting for a CPU; ? unknown
    start_ns Nullable(UInt64),  -- trace clock; NULL where the trace lacks it
    end_ns Nullable(UInt64),
    dur_ns Nullable(UInt64),
    dropped Nullable(String),   -- NULL: charged; else the report's counter
    stack_id Nullable(UInt32),  -- its kernel stack in stacks_local
    cgroup Nullable(String),    -- the thread's cgroup path; NULL: not named
    waker_tid Nullable(Int32),  -- what ended the wait: the waking task's tid,
    waker_comm Nullable(String),-- its name,
    waker_kind Nullable(String) -- task, hardirq, softirq, timer, unknown, lost
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (host, day, trace_id, reason, argument, pid, tid);

-- The kernel stacks the waits name (--waits-stacks), on the shard of
-- their host's waits (the same sharding key): joins stay local.
CREATE TABLE IF NOT EXISTS latencytop.stacks_local
(
    host String,
    day Date,
    trace_id String,
    stack_id UInt32,
    reason String,              -- what the stack translates to
    kind String,
    kernel_thread UInt8,
    frames Array(String)        -- innermost first
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (host, trace_id, stack_id);
