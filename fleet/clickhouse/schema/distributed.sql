-- SPDX-License-Identifier: GPL-2.0
-- The tables a fleet is queried and loaded through: run on every server
-- a client talks to (all of them, usually), after schema/local.sql.
-- "latencytop" is the cluster's name in the servers' remote_servers
-- (README.md): a shard per group of servers, each with the _local
-- tables.  A host's waits and stacks all go to one shard (its name's
-- hash), so its per-host queries read one shard's data.

CREATE TABLE IF NOT EXISTS latencytop.waits AS latencytop.waits_local
ENGINE = Distributed(latencytop, latencytop, waits_local, cityHash64(host));

CREATE TABLE IF NOT EXISTS latencytop.stacks AS latencytop.stacks_local
ENGINE = Distributed(latencytop, latencytop, stacks_local, cityHash64(host));
