-- Documents every machine of the journal shares (migration 4): the
-- tenants' registry (which token is which tenant, and by what structure it
-- was known), so that two machines with empty state folders never name two
-- shops one tenant, nor one shop two. Opaque to the journal: written only
-- by compare-and-swap on the whole document (SwapDocument).
CREATE TABLE nxbatch.documents (
	name    text PRIMARY KEY,
	body    bytea NOT NULL,
	changed timestamptz NOT NULL
);
