-- The facts of each attempt (migration 3): what the caller knew of the
-- request's body when it began (for a sale, its total, customer and point
-- of sale, as JSON), written with every attempt like body_hash and kept by
-- outcomes and verdicts, so that a later reconciliation narrows its reads
-- as the run that sent it could. Opaque text to the journal; '' when none,
-- which is what every entry written before this migration reads as.
ALTER TABLE nxbatch.entries ADD COLUMN facts text NOT NULL DEFAULT '';

-- begin_intent takes the facts (p_facts, after p_source). Its rules and
-- answers are those of migration 2's, unchanged; the function is replaced, not
-- overloaded: a run of an older nxbatch still going while another machine
-- migrates fails its next Begin (nothing leaves without its intent), and
-- an older nxbatch refuses the newer schema when it starts.
DROP FUNCTION nxbatch.begin_intent(text, text, text, text, bigint[],
	text, text, bigint, timestamptz, boolean,
	text[], text[], text[], text[], text[],
	text, text, timestamptz);

CREATE FUNCTION nxbatch.begin_intent(
	p_tenant text, p_kind text, p_business text, p_holder text, p_locks bigint[],
	p_body_hash text, p_source text, p_facts text, p_hold_us bigint, p_now timestamptz, p_retry_unknown boolean,
	p_units text[], p_unit_ids text[], p_unit_hashes text[], p_unit_bodies text[], p_unit_sources text[],
	p_win_tenant text, p_win_name text, p_win_next timestamptz)
RETURNS TABLE (outcome text, detail text, state text, wait_us bigint,
	first_at timestamptz, attempts integer, held timestamptz, note text, evidence text)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
	l bigint;
	lease_ok boolean;
	e nxbatch.entries%ROWTYPE;
	u_id text;
	u_state text;
	wait bigint;
BEGIN
	-- Concurrent Begins of one key (and of units of one tenant and kind)
	-- queue here; every later statement sees what the one before committed.
	FOREACH l IN ARRAY p_locks LOOP
		PERFORM pg_advisory_xact_lock(l);
	END LOOP;
	SELECT lz.holder = p_holder AND lz.expires > clock_timestamp() INTO lease_ok
		FROM nxbatch.leases lz WHERE lz.tenant = p_tenant FOR KEY SHARE;
	IF lease_ok IS NOT TRUE THEN
		RETURN QUERY SELECT 'lease'::text, ''::text, ''::text, 0::bigint, NULL::timestamptz, 0, NULL::timestamptz, ''::text, ''::text;
		RETURN;
	END IF;
	SELECT * INTO e FROM nxbatch.entries x
		WHERE x.tenant = p_tenant AND x.kind = p_kind AND x.business = p_business FOR UPDATE;
	IF FOUND THEN
		IF NOT (e.state IN ('rejected', 'failed', 'unsent') OR (e.state = 'unknown' AND p_retry_unknown)) THEN
			RETURN QUERY SELECT 'state'::text, ''::text, e.state, 0::bigint, NULL::timestamptz, 0, NULL::timestamptz, ''::text, ''::text;
			RETURN;
		END IF;
		IF p_hold_us > 0 AND e.held IS NOT NULL THEN
			wait := p_hold_us - ((extract(epoch FROM p_now) - extract(epoch FROM e.held)) * 1000000)::bigint;
			IF wait > 0 THEN
				RETURN QUERY SELECT 'soon'::text, ''::text, ''::text, least(wait, p_hold_us), NULL::timestamptz, 0, NULL::timestamptz, ''::text, ''::text;
				RETURN;
			END IF;
		END IF;
	END IF;
	IF cardinality(p_unit_ids) > 0 THEN
		-- Planned for each call (EXECUTE): a plan cached from the first
		-- calls, on nearly empty tables, reads all of a tenant's units
		-- instead of looking up the ones carried.
		EXECUTE $q$SELECT x.id, r.state
			FROM unnest($1) WITH ORDINALITY AS x(id, n)
			JOIN nxbatch.units u ON u.tenant = $2 AND u.kind = $3 AND u.id = x.id
			JOIN nxbatch.entries r ON r.tenant = u.tenant AND r.kind = u.kind AND r.business = u.request
			WHERE u.request <> $4
				AND NOT (r.state IN ('rejected', 'failed', 'unsent') OR (r.state = 'unknown' AND $5))
			ORDER BY x.n LIMIT 1$q$
			INTO u_id, u_state USING p_units, p_tenant, p_kind, p_business, p_retry_unknown;
		IF u_id IS NOT NULL THEN
			RETURN QUERY SELECT 'unit'::text, u_id, u_state, 0::bigint, NULL::timestamptz, 0, NULL::timestamptz, ''::text, ''::text;
			RETURN;
		END IF;
	END IF;

	IF e.tenant IS NULL THEN
		INSERT INTO nxbatch.entries AS x (tenant, kind, business, body_hash, state, attempts, first_at, last_at, held,
				factura_id, numero, pv_numero, message, note, source, updated, units, evidence, facts)
			VALUES (p_tenant, p_kind, p_business, p_body_hash, 'sending', 1, p_now, p_now, NULL,
				0, 0, 0, '', '', p_source, p_now, p_units, '', p_facts)
			RETURNING * INTO e;
	ELSE
		UPDATE nxbatch.entries x SET state = 'sending', attempts = x.attempts + 1, last_at = p_now, updated = p_now,
				body_hash = p_body_hash, source = p_source, facts = p_facts, factura_id = 0, numero = 0, pv_numero = 0, message = '',
				units = p_units
			WHERE x.tenant = p_tenant AND x.kind = p_kind AND x.business = p_business
			RETURNING * INTO e;
	END IF;
	IF cardinality(p_unit_ids) > 0 THEN
		INSERT INTO nxbatch.units AS x (tenant, kind, id, request, body_hash, body, source)
			SELECT p_tenant, p_kind, v.id, p_business, v.body_hash, v.body, v.source
			FROM unnest(p_unit_ids, p_unit_hashes, p_unit_bodies, p_unit_sources) AS v(id, body_hash, body, source)
			ON CONFLICT (tenant, kind, id) DO UPDATE SET
				request = EXCLUDED.request, body_hash = EXCLUDED.body_hash, body = EXCLUDED.body, source = EXCLUDED.source;
	END IF;
	IF p_win_name <> '' THEN
		INSERT INTO nxbatch.windows AS x (tenant, name, next) VALUES (p_win_tenant, p_win_name, p_win_next)
			ON CONFLICT (tenant, name) DO UPDATE SET next = EXCLUDED.next;
	END IF;
	RETURN QUERY SELECT 'begun'::text, ''::text, e.state, 0::bigint, e.first_at, e.attempts, e.held, e.note, e.evidence;
END
$$;
