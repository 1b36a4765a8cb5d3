-- The journal's tables: entries (one per request), units (stock rows, each
-- with the last request that carried it), windows (the API's persisted rate
-- windows) and leases (which run sends for a tenant). Listings sort keys
-- byte by byte (ORDER BY ... COLLATE "C"), the order bbolt keeps them in;
-- the columns keep the database's collation, so that lookups by a
-- parameter or an array use the primary keys.
CREATE TABLE nxbatch.entries (
	tenant     text NOT NULL,
	kind       text NOT NULL,
	business   text NOT NULL,
	body_hash  text NOT NULL DEFAULT '',
	state      text NOT NULL CHECK (state IN ('sending', 'ok', 'rejected', 'unknown', 'failed', 'unsent')),
	attempts   integer NOT NULL,
	first_at   timestamptz NOT NULL,
	last_at    timestamptz NOT NULL,
	held       timestamptz,
	factura_id bigint NOT NULL DEFAULT 0,
	numero     bigint NOT NULL DEFAULT 0,
	pv_numero  bigint NOT NULL DEFAULT 0,
	message    text NOT NULL DEFAULT '',
	note       text NOT NULL DEFAULT '',
	source     text NOT NULL DEFAULT '',
	updated    timestamptz NOT NULL,
	units      text[] NOT NULL DEFAULT '{}',
	evidence   text NOT NULL DEFAULT '',
	PRIMARY KEY (tenant, kind, business)
);

-- Listings by state, and the recovery of a tenant's sending entries.
CREATE INDEX entries_state ON nxbatch.entries (state, tenant);

CREATE TABLE nxbatch.units (
	tenant    text NOT NULL,
	kind      text NOT NULL,
	id        text NOT NULL,
	request   text NOT NULL,
	body_hash text NOT NULL,
	body      text NOT NULL DEFAULT '',
	source    text NOT NULL DEFAULT '',
	PRIMARY KEY (tenant, kind, id)
);

CREATE TABLE nxbatch.windows (
	tenant text NOT NULL,
	name   text NOT NULL,
	next   timestamptz NOT NULL,
	PRIMARY KEY (tenant, name)
);

-- A lease is live while expires (the database's clock) is ahead; its
-- holder renews it every third of its time.
CREATE TABLE nxbatch.leases (
	tenant   text PRIMARY KEY,
	holder   text NOT NULL,
	host     text NOT NULL,
	pid      integer NOT NULL,
	acquired timestamptz NOT NULL,
	renewed  timestamptz NOT NULL,
	expires  timestamptz NOT NULL
);
